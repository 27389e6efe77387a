import { z } from 'zod';
import type { UserCollection, UserRecord } from '@/domain/auth';
import {
  recordOwnerHeader,
  userRecordConflictSchema,
  userRecordSchema,
  userRecordsSchema,
} from '@/domain/auth';
import { RequestFailure, requestJson } from '@/shared/api/http';
import { localStore, storageKey } from '@/shared/storage/local-store';

/**
 * A signed-in user's records (drafts, submissions, the batch not yet sent) kept on the server as
 * well as in this browser, so they continue on another machine. Each side keeps working on its own
 * (offline edits included); a sync sends what changed here since the last one and takes what
 * changed there. When both changed the same record, neither is lost: the server's version is
 * kept beside this one as a conflict, and the user chooses.
 */
export interface SyncAdapter {
  collection: UserCollection;
  /** The keys of the records this browser has now. */
  keys(): string[] | Promise<string[]>;
  /** The record as stored here; undefined when there is none (or it is empty). */
  read(key: string): unknown;
  write(key: string, value: unknown): void | Promise<void>;
  remove(key: string): void | Promise<void>;
}

const ledgerSchema = z.object({
  /** The highest server version taken in. */
  since: z.number().int().nonnegative(),
  /** Per key: the server version and the text of the value at the last sync. */
  synced: z.record(z.string(), z.object({ version: z.number().int(), text: z.string() })),
  /** Records both sides changed: the server's version, for the user to choose. */
  conflicts: z.record(z.string(), userRecordSchema),
});
type Ledger = z.infer<typeof ledgerSchema>;
const emptyLedger: Ledger = { since: 0, synced: {}, conflicts: {} };

export function ledgerStore(userId: string, collection: UserCollection) {
  return localStore(storageKey('sync', userId, collection), ledgerSchema, emptyLedger);
}

const textOf = (value: unknown) => (value === undefined ? '' : JSON.stringify(value));

/** Every call names the user the records are for: the server refuses it for anyone else. */
const ownerHeaders = (userId: string) => ({ [recordOwnerHeader]: userId });

async function put(
  userId: string,
  collection: UserCollection,
  key: string,
  body: { value: unknown; baseVersion: number; deleted?: boolean },
): Promise<{ ok: true; record: UserRecord } | { ok: false; current: UserRecord }> {
  try {
    const answer = await requestJson(
      `/api/me/${collection}/${encodeURIComponent(key)}`,
      userRecordSchema,
      'Saving your work on the server',
      { method: 'PUT', body, headers: ownerHeaders(userId) },
    );
    return { ok: true, record: answer.data };
  } catch (error) {
    if (error instanceof RequestFailure && error.status === 409) {
      const conflict = userRecordConflictSchema.safeParse(error.body);
      if (conflict.success) return { ok: false, current: conflict.data.current };
    }
    throw error;
  }
}

/** One sync at a time, whoever asks (the timer, signing out): each reads the ledger the last wrote. */
let syncing: Promise<unknown> = Promise.resolve();

/**
 * One sync of a collection: take in what the server has that is newer, then send what changed
 * here. Returns the keys now in conflict.
 */
export function syncCollection(userId: string, adapter: SyncAdapter): Promise<string[]> {
  const run = syncing.catch(() => undefined).then(() => syncOnce(userId, adapter));
  syncing = run;
  return run;
}

async function syncOnce(userId: string, adapter: SyncAdapter): Promise<string[]> {
  const store = ledgerStore(userId, adapter.collection);
  const ledger: Ledger = structuredClone(store.get());

  const pulled = (
    await requestJson(
      `/api/me/${adapter.collection}?since=${ledger.since}`,
      userRecordsSchema,
      'Reading your work from the server',
      { headers: ownerHeaders(userId) },
    )
  ).data;
  for (const record of pulled.records) {
    const known = ledger.synced[record.key];
    if (known && known.version >= record.version) continue;
    const local = textOf(await adapter.read(record.key));
    const changedHere = known ? local !== known.text : local !== '';
    const serverText = record.deleted ? '' : textOf(record.value);
    if (changedHere && local !== serverText) {
      // Both sides changed it: keep this one, and the server's beside it for the user to choose.
      ledger.conflicts[record.key] = record;
      continue;
    }
    if (record.deleted) await adapter.remove(record.key);
    else await adapter.write(record.key, record.value);
    ledger.synced[record.key] = { version: record.version, text: serverText };
  }
  ledger.since = Math.max(ledger.since, pulled.version);

  const keys = new Set([...(await adapter.keys()), ...Object.keys(ledger.synced)]);
  for (const key of keys) {
    if (ledger.conflicts[key]) continue;
    const value = await adapter.read(key);
    const text = textOf(value);
    const known = ledger.synced[key];
    if (known ? known.text === text : text === '') continue;
    const result = await put(userId, adapter.collection, key, {
      value: value ?? null,
      baseVersion: known?.version ?? 0,
      ...(value === undefined ? { deleted: true } : {}),
    });
    if (result.ok) ledger.synced[key] = { version: result.record.version, text };
    else ledger.conflicts[key] = result.current;
  }
  store.set(ledger);
  return Object.keys(ledger.conflicts);
}

/** The user's choice on a conflict: keep this browser's version, or take the server's. */
export async function settleConflict(
  userId: string,
  adapter: SyncAdapter,
  key: string,
  keep: 'mine' | 'theirs',
): Promise<void> {
  const store = ledgerStore(userId, adapter.collection);
  const ledger: Ledger = structuredClone(store.get());
  const theirs = ledger.conflicts[key];
  if (!theirs) return;
  if (keep === 'theirs') {
    if (theirs.deleted) await adapter.remove(key);
    else await adapter.write(key, theirs.value);
    ledger.synced[key] = {
      version: theirs.version,
      text: theirs.deleted ? '' : textOf(theirs.value),
    };
  } else {
    const value = await adapter.read(key);
    const result = await put(userId, adapter.collection, key, {
      value: value ?? null,
      baseVersion: theirs.version,
      ...(value === undefined ? { deleted: true } : {}),
    });
    if (!result.ok) {
      // Changed there again meanwhile: still a conflict, with the newer version.
      ledger.conflicts[key] = result.current;
      store.set(ledger);
      return;
    }
    ledger.synced[key] = { version: result.record.version, text: textOf(value) };
  }
  delete ledger.conflicts[key];
  store.set(ledger);
}
