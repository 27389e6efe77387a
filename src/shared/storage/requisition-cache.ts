import type { DBSchema } from 'idb';
import type { RequisitionRecord } from '../../domain';
import { lazyDatabase, scopeRange } from './indexed-db';

/**
 * The browser's copy of each client's requisitions (issue 11), in IndexedDB through `idb`: the
 * records by [scope, Req ID], and per scope where the copy stands. It is a cache: when IndexedDB
 * is unavailable or fails, the list is simply loaded from the VMS, nothing is lost.
 */
export interface RequisitionCopyState {
  /** Which VMS the copy came from (the portal's upstream): another one starts a fresh copy. */
  source: string;
  /** When the whole list was last loaded (ms since the epoch): a full reconcile is due after a while. */
  fullAt: number;
}

interface CacheSchema extends DBSchema {
  records: { key: [string, string]; value: { scope: string; record: RequisitionRecord } };
  copies: { key: string; value: RequisitionCopyState & { scope: string } };
}

const database = lazyDatabase<CacheSchema>('vms-portal-requisitions', 1, (db) => {
  db.createObjectStore('records');
  db.createObjectStore('copies', { keyPath: 'scope' });
});

/** Opens the database ahead of the first read (a worker warming up while its page renders). */
export async function openRequisitionCopies(): Promise<void> {
  await database();
}

/** The copy of `scope`, or null when there is none (or IndexedDB cannot be used). */
export async function readRequisitionCopy(
  scope: string,
): Promise<{ state: RequisitionCopyState; records: RequisitionRecord[] } | null> {
  const db = await database();
  if (!db) return null;
  try {
    const tx = db.transaction(['copies', 'records'], 'readonly');
    const [state, rows] = await Promise.all([
      tx.objectStore('copies').get(scope),
      tx.objectStore('records').getAll(scopeRange(scope)),
    ]);
    if (!state) return null;
    return { state, records: rows.map((row) => row.record) };
  } catch {
    return null;
  }
}

/**
 * Stores `records` in the copy of `scope`: with `replace`, as the whole list (what it no longer
 * has is removed); otherwise as changed records beside the rest. One transaction, so the copy and
 * its state never disagree.
 */
export async function writeRequisitionCopy(
  scope: string,
  state: RequisitionCopyState,
  records: readonly RequisitionRecord[],
  { replace }: { replace: boolean },
): Promise<void> {
  const db = await database();
  if (!db) return;
  const tx = db.transaction(['copies', 'records'], 'readwrite');
  const store = tx.objectStore('records');
  const writes: Promise<unknown>[] = [];
  if (replace) writes.push(store.delete(scopeRange(scope)));
  for (const record of records) writes.push(store.put({ scope, record }, [scope, record.reqId]));
  writes.push(tx.objectStore('copies').put({ scope, ...state }));
  await Promise.all([...writes, tx.done]);
}

/** Removes every copy (Settings, "Clear local data"); the next visit loads the list afresh. */
export async function clearRequisitionCopies(): Promise<void> {
  const db = await database();
  if (!db) return;
  const tx = db.transaction(['copies', 'records'], 'readwrite');
  await Promise.all([tx.objectStore('copies').clear(), tx.objectStore('records').clear(), tx.done]);
}
