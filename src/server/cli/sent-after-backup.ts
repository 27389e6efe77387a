import Database from 'better-sqlite3';
import pg from 'pg';
import { z } from 'zod';
import {
  afterBackupBody,
  sentAfterBackupOf,
  type SentAfterBackup,
} from '@/server/proxy/store/idempotency-keys';

/**
 * The batches sent after a backup was taken, found when it is restored: their idempotency keys
 * are in the database the restore replaced and not in the backup (a key is written before its
 * batch leaves and stays while the VMS may have it: decision 002). What each was comes from the
 * replaced database's audit trail (its `send` event names the key). Each key is written back
 * into the restored database as `unknown`, with what was known of its batch, so that sending it
 * again with the same key is refused ("sent after the backup was taken") instead of reaching the
 * VMS a second time.
 */

export interface AfterBackupBatch extends SentAfterBackup {
  key: string;
  fingerprint: string;
}

interface KeyLine {
  key: string;
  fingerprint: string;
  created_at: number | string;
}

interface SendLine {
  at: number | string;
  email: string | null;
  connection: string | null;
  details: string;
}

const sendDetailsSchema = z.object({
  idempotencyKey: z.string().nullable().optional(),
  batchId: z.string().nullable().optional(),
  itemCount: z.number().nullable().optional(),
  replayed: z.boolean().optional(),
});

/** The replaced database's keys that the restored one lacks, with what its sends said of them. */
function compare(
  replacedKeys: readonly KeyLine[],
  restoredKeys: ReadonlySet<string>,
  sends: readonly SendLine[],
): AfterBackupBatch[] {
  const bySend = new Map<
    string,
    { line: SendLine; batchId: string | null; itemCount: number | null }
  >();
  for (const line of sends) {
    let details: z.infer<typeof sendDetailsSchema>;
    try {
      const parsed = sendDetailsSchema.safeParse(JSON.parse(line.details));
      if (!parsed.success) continue;
      details = parsed.data;
    } catch {
      continue;
    }
    const key = details.idempotencyKey;
    // The first send with the key is the one that went to the VMS; a replay only repeats it.
    if (!key || details.replayed === true || bySend.has(key)) continue;
    bySend.set(key, {
      line,
      batchId: details.batchId ?? null,
      itemCount: details.itemCount ?? null,
    });
  }
  return replacedKeys
    .filter((row) => !restoredKeys.has(row.key))
    .map((row) => {
      const send = bySend.get(row.key);
      return {
        key: row.key,
        fingerprint: row.fingerprint,
        sentAt: Number(row.created_at),
        batchId: send?.batchId ?? null,
        connection: send?.line.connection ?? null,
        email: send?.line.email ?? null,
        itemCount: send?.itemCount ?? null,
      };
    })
    .sort((a, b) => a.sentAt - b.sentAt || a.key.localeCompare(b.key));
}

const keysSql = 'SELECT key, fingerprint, created_at FROM idempotency_keys';

/** Send events since the oldest key in question (a send is audited once its answer came). */
function sendsSince(batches: readonly KeyLine[]): number {
  // A busy day holds many thousands of keys: no spread into Math.min's arguments.
  return batches.reduce((oldest, row) => Math.min(oldest, Number(row.created_at)), Infinity);
}

/**
 * SQLite: compares the database a restore is replacing (`replacedPath`, the portal stopped) with
 * the restored copy `restored`, open for writing, and writes the batches found into it.
 */
export function carryOverSqlite(
  replacedPath: string,
  restored: Database.Database,
  now: number,
): AfterBackupBatch[] {
  const replaced = new Database(replacedPath, { readonly: true, fileMustExist: true });
  let batches: AfterBackupBatch[];
  try {
    const restoredKeys = new Set(
      restored
        .prepare<[], { key: string }>('SELECT key FROM idempotency_keys')
        .all()
        .map((row) => row.key),
    );
    const candidates = replaced
      .prepare<[], KeyLine>(keysSql)
      .all()
      .filter((row) => !restoredKeys.has(row.key));
    if (candidates.length === 0) return [];
    let sends: SendLine[] = [];
    const hasAudit =
      replaced
        .prepare("SELECT 1 FROM sqlite_schema WHERE type = 'table' AND name = 'audit_events'")
        .get() !== undefined;
    if (hasAudit) {
      sends = replaced
        .prepare<[number], SendLine>(
          "SELECT at, email, connection, details FROM audit_events WHERE event = 'send' AND at >= ? ORDER BY at, id",
        )
        .all(sendsSince(candidates));
    }
    batches = compare(candidates, restoredKeys, sends);
  } finally {
    replaced.close();
  }
  const insert = restored.prepare<[string, string, number, number, Buffer]>(
    `INSERT INTO idempotency_keys (key, fingerprint, state, created_at, settled_at, body)
     VALUES (?, ?, 'unknown', ?, ?, ?) ON CONFLICT (key) DO NOTHING`,
  );
  restored.transaction(() => {
    for (const batch of batches) {
      insert.run(
        batch.key,
        batch.fingerprint,
        now,
        batch.sentAt,
        afterBackupBody(publicPart(batch)),
      );
    }
  })();
  return batches;
}

function publicPart({
  key: _key,
  fingerprint: _fingerprint,
  ...batch
}: AfterBackupBatch): SentAfterBackup {
  return batch;
}

/**
 * PostgreSQL: compares the database a restore replaced (kept under another name, `replacedUrl`)
 * with the restored one (`restoredUrl`), and writes the batches found into the restored one. Run
 * again, it finds the same batches and writes nothing twice.
 */
export async function carryOverPostgres(
  replacedUrl: string,
  restoredUrl: string,
  now: number,
): Promise<AfterBackupBatch[]> {
  const replaced = new pg.Client({ connectionString: replacedUrl, connectionTimeoutMillis: 5000 });
  const restored = new pg.Client({ connectionString: restoredUrl, connectionTimeoutMillis: 5000 });
  await replaced.connect();
  try {
    await restored.connect();
    try {
      const { rows: restoredRows } = await restored.query<{ key: string; body: Buffer | null }>(
        'SELECT key, body FROM idempotency_keys',
      );
      // Keys this command wrote on an earlier run are listed again, not taken for the backup's.
      const written = new Set(
        restoredRows
          .filter((row) => sentAfterBackupOf(row.body) !== undefined)
          .map((row) => row.key),
      );
      const restoredKeys = new Set(
        restoredRows.filter((row) => !written.has(row.key)).map((row) => row.key),
      );
      const { rows: replacedKeys } = await replaced.query<KeyLine>(keysSql);
      const candidates = replacedKeys.filter((row) => !restoredKeys.has(row.key));
      if (candidates.length === 0) return [];
      const hasAudit =
        (await replaced.query("SELECT to_regclass('audit_events') IS NOT NULL AS present")).rows[0]
          ?.present === true;
      const sends = hasAudit
        ? (
            await replaced.query<SendLine>(
              "SELECT at, email, connection, details FROM audit_events WHERE event = 'send' AND at >= $1 ORDER BY at, id",
              [sendsSince(candidates)],
            )
          ).rows
        : [];
      const batches = compare(candidates, restoredKeys, sends);
      await restored.query('BEGIN');
      for (const batch of batches) {
        await restored.query(
          `INSERT INTO idempotency_keys (key, fingerprint, state, created_at, settled_at, body)
           VALUES ($1, $2, 'unknown', $3, $4, $5) ON CONFLICT (key) DO NOTHING`,
          [batch.key, batch.fingerprint, now, batch.sentAt, afterBackupBody(publicPart(batch))],
        );
      }
      await restored.query('COMMIT');
      return batches;
    } finally {
      await restored.end().catch(() => {});
    }
  } finally {
    await replaced.end().catch(() => {});
  }
}

/** The list as `npm run restore` prints it: one line per batch, oldest first. */
export function describeSentAfterBackup(batches: readonly AfterBackupBatch[]): string {
  if (batches.length === 0) {
    return 'No batch was sent after the backup was taken: every key of the replaced database is in the backup.\n';
  }
  const lines = batches.map(
    (batch) =>
      `  ${new Date(batch.sentAt).toISOString()}  batch ${batch.batchId ?? '(no answer recorded)'}  connection ${batch.connection ?? '(not recorded)'}  by ${batch.email ?? '(not recorded)'}  ${batch.itemCount === null ? '(item count not recorded)' : `${batch.itemCount} item${batch.itemCount === 1 ? '' : 's'}`}  key ${batch.key}`,
  );
  return `Sent after the backup was taken (${batches.length === 1 ? '1 batch' : `${batches.length} batches`}): the VMS has them, or may have them, but the restored database does not. Check the VMS before sending any of them again; the portal refuses to send them again with the same key.\n${lines.join('\n')}\n`;
}
