import type { DBSchema } from 'idb';
import type { RequisitionRecord } from '@/domain';
import { databaseMayExist } from '@/shared/storage/database-exists';
import { lazyDatabase, scopeRange } from '@/shared/storage/indexed-db';
import { databases } from '@/shared/storage/user-owned';

/**
 * The browser's copy of each client's requisitions, in IndexedDB through `idb`: each
 * scope's records in chunks, and per scope where the copy stands. It is a cache: when IndexedDB is
 * unavailable or fails, the list is simply loaded from the VMS, nothing is lost.
 */
export interface RequisitionCopyState {
  /** Which VMS the copy came from (the portal's upstream): another one starts a fresh copy. */
  source: string;
  /** When the whole list was last loaded (ms since the epoch): a full reconcile is due after a while. */
  fullAt: number;
  /**
   * Why this list is read whole on every refresh: the VMS's answers showed its refresh cannot
   * be trusted (sync.ts). Absent or null: refreshes ask only for what changed.
   */
  fullOnly?: string | null;
}

/**
 * The records are kept in chunks of `chunkRecords`, each one IndexedDB value, not one value per
 * record: reading a value has a fixed cost, and at 2,012 requisitions it was most of the read
 * (getAll of 2,012 values ~100 ms, of 9 chunks ~30 ms, in Chromium, on the list's repeat
 * visit).
 */
interface CacheSchema extends DBSchema {
  chunks: { key: [string, string]; value: { scope: string; records: RequisitionRecord[] } };
  copies: { key: string; value: RequisitionCopyState & { scope: string } };
}

/** Records per stored chunk. */
export const chunkRecords = 250;

const chunkKey = (scope: string, index: number): [string, string] => [
  scope,
  String(index).padStart(6, '0'),
];

const database = lazyDatabase<CacheSchema>(databases.requisitions, 2, (db, oldVersion) => {
  // Version 1 kept a value per record. A copy is a cache of the VMS's list: dropped, the next
  // visit loads the list afresh, and nothing the user made is lost.
  if (oldVersion === 1) {
    for (const name of [...db.objectStoreNames]) db.deleteObjectStore(name);
  }
  db.createObjectStore('chunks');
  db.createObjectStore('copies', { keyPath: 'scope' });
});

/** Opens the database ahead of the first read (a worker warming up while its page renders). */
export async function openRequisitionCopies(): Promise<void> {
  await database();
}

/**
 * Whether this browser may hold a copy: on a first visit it has no database for them, and making
 * one (IndexedDB's upgrade) only to find it empty was in the way of asking the VMS for the list.
 */
export function requisitionCopiesMayExist(): Promise<boolean> {
  return databaseMayExist(databases.requisitions);
}

/** The copy of `scope`, or null when there is none (or IndexedDB cannot be used). */
export async function readRequisitionCopy(
  scope: string,
): Promise<{ state: RequisitionCopyState; records: RequisitionRecord[] } | null> {
  if (!(await requisitionCopiesMayExist())) return null;
  const db = await database();
  if (!db) return null;
  try {
    const tx = db.transaction(['copies', 'chunks'], 'readonly');
    const [state, chunks] = await Promise.all([
      tx.objectStore('copies').get(scope),
      tx.objectStore('chunks').getAll(scopeRange(scope)),
    ]);
    if (!state) return null;
    return { state, records: chunks.flatMap((chunk) => chunk.records) };
  } catch {
    return null;
  }
}

/**
 * Puts changed records into a copy's chunks, in place: each replaces the record with its Req ID,
 * new ones fill the last chunk and then new chunks of `size`. Returns the indexes of the chunks
 * that changed (the only ones to write again).
 */
export function mergeIntoChunks(
  chunks: RequisitionRecord[][],
  records: readonly RequisitionRecord[],
  size = chunkRecords,
): Set<number> {
  const place = new Map<string, { chunk: number; at: number }>();
  chunks.forEach((chunk, index) =>
    chunk.forEach((record, at) => place.set(record.reqId, { chunk: index, at })),
  );
  const changed = new Set<number>();
  for (const record of records) {
    const found = place.get(record.reqId);
    if (found) {
      chunks[found.chunk]?.splice(found.at, 1, record);
      changed.add(found.chunk);
      continue;
    }
    let last = chunks.at(-1);
    if (!last || last.length >= size) chunks.push((last = []));
    last.push(record);
    const index = chunks.length - 1;
    place.set(record.reqId, { chunk: index, at: last.length - 1 });
    changed.add(index);
  }
  return changed;
}

/**
 * Stores `records` in the copy of `scope`: with `replace`, as the whole list (in chunks, what it
 * no longer has removed); otherwise as changed records beside the rest: each replaces its older
 * self in its chunk, new ones fill the last chunk and then new ones, and only the chunks that
 * changed are written. One transaction, so the copy and its state never disagree.
 */
export async function writeRequisitionCopy(
  scope: string,
  state: RequisitionCopyState,
  records: readonly RequisitionRecord[],
  { replace }: { replace: boolean },
): Promise<void> {
  const db = await database();
  if (!db) return;
  const tx = db.transaction(['copies', 'chunks'], 'readwrite');
  const store = tx.objectStore('chunks');
  const writes: Promise<unknown>[] = [tx.objectStore('copies').put({ scope, ...state })];
  if (replace) {
    writes.push(store.delete(scopeRange(scope)));
    for (let index = 0; index * chunkRecords < records.length; index += 1) {
      const chunk = records.slice(index * chunkRecords, (index + 1) * chunkRecords);
      writes.push(store.put({ scope, records: chunk }, chunkKey(scope, index)));
    }
  } else {
    const chunks = (await store.getAll(scopeRange(scope))).map((chunk) => chunk.records);
    for (const index of mergeIntoChunks(chunks, records)) {
      const chunk = chunks[index];
      if (chunk) writes.push(store.put({ scope, records: chunk }, chunkKey(scope, index)));
    }
  }
  await Promise.all([...writes, tx.done]);
}

/** Removes every copy (Settings, "Clear local data"); the next visit loads the list afresh. */
export async function clearRequisitionCopies(): Promise<void> {
  const db = await database();
  if (!db) return;
  const tx = db.transaction(['copies', 'chunks'], 'readwrite');
  await Promise.all([tx.objectStore('copies').clear(), tx.objectStore('chunks').clear(), tx.done]);
}
