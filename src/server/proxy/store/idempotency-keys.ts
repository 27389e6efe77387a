import { z } from 'zod';
import { parseHeaders } from '@/server/store/headers-column';
import type { PortalSqlite } from '@/server/store/portal-database';
import { turnCommitOf } from '@/server/store/turn-commit';

/** What the portal answered for one call: enough to answer a repeat of it identically. */
export interface CallOutcome {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
}

/**
 * A batch sent after the backup a restore went back to: its key was in the database the restore
 * replaced and not in the backup. What the replaced database knew of it (its audit trail's send);
 * each part null when it did not say.
 */
export const sentAfterBackupSchema = z.object({
  batchId: z.string().nullable(),
  connection: z.string().nullable(),
  email: z.string().nullable(),
  /** When its key was first used, in milliseconds since 1970. */
  sentAt: z.number(),
  itemCount: z.number().nullable(),
});
export type SentAfterBackup = z.infer<typeof sentAfterBackupSchema>;

const afterBackupBodySchema = z.object({ sentAfterBackup: sentAfterBackupSchema });

/**
 * The `body` of an `unknown` key that a restore wrote back: an unknown key has no answer, so the
 * column otherwise stays empty, and this needs no schema change, which keeps a backup from any
 * schema version restorable (cli/sent-after-backup.ts writes it).
 */
export function afterBackupBody(batch: SentAfterBackup): Buffer {
  return Buffer.from(
    JSON.stringify({ sentAfterBackup: batch } satisfies z.infer<typeof afterBackupBodySchema>),
  );
}

/** What a restore wrote in an unknown key's `body`, if it did. */
export function sentAfterBackupOf(body: Buffer | null): SentAfterBackup | undefined {
  if (body === null || body.length === 0) return undefined;
  try {
    const parsed = afterBackupBodySchema.safeParse(JSON.parse(body.toString('utf8')));
    return parsed.success ? parsed.data.sentAfterBackup : undefined;
  } catch {
    return undefined;
  }
}

export type KeyRecord =
  | { state: 'in_flight'; fingerprint: string; createdAt: number }
  | { state: 'settled'; fingerprint: string; createdAt: number; outcome: CallOutcome }
  | {
      state: 'unknown';
      fingerprint: string;
      createdAt: number;
      /** Set when a restore wrote the key back: sent after the backup was taken. */
      sentAfterBackup?: SentAfterBackup;
    };

/**
 * The durable half of the idempotency keys (decision 002): one row per key, written before the
 * call leaves and updated when its outcome is known. Asynchronous and one statement per method,
 * so a PostgreSQL store can implement it beside the SQLite one.
 */
export interface IdempotencyKeyStore {
  /** Records a new key as in flight; false when the key is already there (nothing written). */
  insertInFlight(key: string, fingerprint: string, now: number): Promise<boolean>;
  find(key: string): Promise<KeyRecord | undefined>;
  settle(key: string, outcome: CallOutcome, now: number): Promise<void>;
  /** A key still in flight becomes unknown; false when it was not in flight (nothing written). */
  markUnknown(key: string, now: number): Promise<boolean>;
  /** The call certainly did not reach the VMS, or the VMS refused it: the key may be used again. */
  forget(key: string): Promise<void>;
  /**
   * Keys in flight since `createdUpTo` or before become unknown: their process stopped (at
   * start-up, every one of them when the database is this process's alone) or gave up long ago.
   */
  markInFlightUnknown(now: number, createdUpTo: number): Promise<number>;
  /** Drops keys created at or before `cutoff`; returns how many. */
  purgeCreatedUpTo(cutoff: number): Promise<number>;
  /** The batches a restore marked as sent after its backup, while their keys are kept. */
  listSentAfterBackup(): Promise<SentAfterBackup[]>;
}

/** The keys a restore wrote back (only they have a body while unknown). */
export const sentAfterBackupSql =
  "SELECT body FROM idempotency_keys WHERE state = 'unknown' AND body IS NOT NULL ORDER BY settled_at, key";

/** What the rows of sentAfterBackupSql say. */
export function sentAfterBackupRows(rows: readonly { body: Buffer | null }[]): SentAfterBackup[] {
  return rows.flatMap((row) => {
    const batch = sentAfterBackupOf(row.body);
    return batch ? [batch] : [];
  });
}

/** A key's row as both databases return it. */
export interface KeyRow {
  fingerprint: string;
  state: string;
  created_at: number;
  status: number | null;
  headers: string | null;
  body: Buffer | null;
}

/** What a key's row says: in flight, settled with its answer, or unknown. */
export function toKeyRecord(row: KeyRow): KeyRecord {
  const base = { fingerprint: row.fingerprint, createdAt: Number(row.created_at) };
  if (row.state === 'settled' && row.status !== null) {
    return {
      ...base,
      state: 'settled',
      outcome: {
        status: row.status,
        headers: parseHeaders(row.headers),
        body: row.body ?? Buffer.alloc(0),
      },
    };
  }
  if (row.state === 'in_flight') return { ...base, state: 'in_flight' };
  const sentAfterBackup = sentAfterBackupOf(row.body);
  return { ...base, state: 'unknown', ...(sentAfterBackup ? { sentAfterBackup } : {}) };
}

/**
 * The SQLite store: each method one prepared statement (prepared once, at start), committed with
 * the others of its turn of the event loop (TurnCommit).
 */
export function createIdempotencyKeyStore(db: PortalSqlite): IdempotencyKeyStore {
  const turn = turnCommitOf(db);
  const statements = {
    insert: db.prepare<[string, string, number]>(
      `INSERT INTO idempotency_keys (key, fingerprint, state, created_at)
       VALUES (?, ?, 'in_flight', ?) ON CONFLICT (key) DO NOTHING`,
    ),
    find: db.prepare<[string], KeyRow>(
      'SELECT fingerprint, state, created_at, status, headers, body FROM idempotency_keys WHERE key = ?',
    ),
    settle: db.prepare<[number, number, string, Buffer, string]>(
      `UPDATE idempotency_keys SET state = 'settled', settled_at = ?, status = ?, headers = ?, body = ?
       WHERE key = ?`,
    ),
    markUnknown: db.prepare<[number, string]>(
      `UPDATE idempotency_keys SET state = 'unknown', settled_at = ? WHERE key = ? AND state = 'in_flight'`,
    ),
    forget: db.prepare<[string]>('DELETE FROM idempotency_keys WHERE key = ?'),
    inFlightUnknown: db.prepare<[number, number]>(
      `UPDATE idempotency_keys SET state = 'unknown', settled_at = ?
       WHERE state = 'in_flight' AND created_at <= ?`,
    ),
    purge: db.prepare<[number]>('DELETE FROM idempotency_keys WHERE created_at <= ?'),
    sentAfterBackup: db.prepare<[], { body: Buffer | null }>(sentAfterBackupSql),
  };
  return {
    insertInFlight: (key, fingerprint, now) =>
      turn.run(() => statements.insert.run(key, fingerprint, now).changes === 1),
    find: (key) =>
      turn.run(() => {
        const row = statements.find.get(key);
        return row ? toKeyRecord(row) : undefined;
      }),
    settle: (key, outcome, now) =>
      turn.run(() => {
        statements.settle.run(
          now,
          outcome.status,
          JSON.stringify(outcome.headers),
          outcome.body,
          key,
        );
      }),
    markUnknown: (key, now) => turn.run(() => statements.markUnknown.run(now, key).changes === 1),
    forget: (key) =>
      turn.run(() => {
        statements.forget.run(key);
      }),
    markInFlightUnknown: (now, createdUpTo) =>
      turn.run(() => statements.inFlightUnknown.run(now, createdUpTo).changes),
    purgeCreatedUpTo: (cutoff) => turn.run(() => statements.purge.run(cutoff).changes),
    listSentAfterBackup: () =>
      turn.run(() => sentAfterBackupRows(statements.sentAfterBackup.all())),
  };
}
