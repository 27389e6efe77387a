import type { DBSchema, IDBPDatabase } from 'idb';
import type { z } from 'zod';
import { afterPaintAndIdle } from '@/shared/lib/after-paint';
import { lazyDatabase, scopeRange } from './indexed-db';
import type { LocalStore } from './local-store';
import { localStore, reportStorageFailure } from './local-store';
import { databases } from './user-owned';

/**
 * A list of items with ids (the batch tray) kept in IndexedDB one item per record, so a change to
 * one item of 500 writes that item, not the whole list. The value is held in memory and
 * read synchronously, like a LocalStore; writes go to IndexedDB in order, in one transaction per
 * change, and `flush()` tells when they are all committed (a send waits for its key to be stored
 * before anything leaves). Loaded once (`ready`); a list still in localStorage from an earlier
 * version is moved over intact the first time and only then removed there. Other tabs hear of
 * every committed change (BroadcastChannel) and reload the list. Where IndexedDB cannot be used,
 * the list stays in localStorage as before.
 */
export interface IndexedListStore<T> extends LocalStore<T> {
  /** Settles once the list is loaded; React's `use` reads it without suspending after that. */
  readonly ready: PromiseLike<void>;
  /** Resolves when every change made so far is stored: true, or false when storing failed. */
  flush(): Promise<boolean>;
}

interface ListSchema extends DBSchema {
  items: { key: [string, string]; value: unknown };
  lists: { key: string; value: { key: string; order: string[]; rest: Record<string, unknown> } };
}

const database = lazyDatabase<ListSchema>(databases.lists, 1, (db) => {
  db.createObjectStore('items');
  db.createObjectStore('lists', { keyPath: 'key' });
});

const channel =
  typeof BroadcastChannel === 'undefined' ? null : new BroadcastChannel(databases.lists);

/** A promise React's `use` can read synchronously once settled. */
function trackedPromise(promise: Promise<void>): PromiseLike<void> {
  const tracked = promise as Promise<void> & { status?: string; value?: void };
  tracked.status = 'pending';
  void promise.then(() => {
    tracked.status = 'fulfilled';
  });
  return tracked;
}

const stores = new Map<string, IndexedListStore<unknown>>();

export function indexedListStore<I extends { id: string }, T extends { items: readonly I[] }>(
  key: string,
  schema: z.ZodType<T>,
  fallback: T,
  /**
   * Where an earlier version kept this list (in IndexedDB or localStorage), if under another
   * key: moved here the first time this key has no list of its own, then dropped there.
   */
  movedFrom: string | null = null,
): IndexedListStore<T> {
  const existing = stores.get(key);
  if (existing) return existing as IndexedListStore<T>;

  const legacy = localStore(key, schema, fallback);
  const earlier = movedFrom === null ? null : localStore(movedFrom, schema, fallback);
  const listeners = new Set<() => void>();
  let snapshot: T = fallback;
  /** null: IndexedDB cannot be used; the localStorage store serves. */
  let db: IDBPDatabase<ListSchema> | null = null;
  let writes: Promise<boolean> = Promise.resolve(true);
  let loaded = false;
  const notify = () => {
    for (const listener of listeners) listener();
  };

  async function read(from: IDBPDatabase<ListSchema>, at = key): Promise<T | null> {
    const tx = from.transaction(['lists', 'items'], 'readonly');
    const [list, keys, values] = await Promise.all([
      tx.objectStore('lists').get(at),
      tx.objectStore('items').getAllKeys(scopeRange(at)),
      tx.objectStore('items').getAll(scopeRange(at)),
    ]);
    if (!list) return null;
    const byId = new Map(keys.map((itemKey, index) => [itemKey[1], values[index]]));
    const parsed = schema.safeParse({
      ...list.rest,
      items: list.order.map((id) => byId.get(id)).filter((item) => item !== undefined),
    });
    if (parsed.success) return parsed.data;
    console.warn(`Stored data under ${at} has an unexpected shape; it is ignored.`, parsed.error);
    return fallback;
  }

  /** The list an earlier version kept under `movedFrom`, if any, and a way to drop it there. */
  async function readEarlier(
    from: IDBPDatabase<ListSchema>,
  ): Promise<{ list: T; drop: () => Promise<void> } | null> {
    if (movedFrom === null || earlier === null) return null;
    const old = (await read(from, movedFrom)) ?? earlier.get();
    if (old.items.length === 0 && old === fallback) return null;
    return {
      list: old,
      drop: async () => {
        const tx = from.transaction(['lists', 'items'], 'readwrite');
        await Promise.all([
          tx.objectStore('items').delete(scopeRange(movedFrom)),
          tx.objectStore('lists').delete(movedFrom),
          tx.done,
        ]);
        earlier.remove();
      },
    };
  }

  /** One transaction: the changed items, the removed ones, the order and the rest. */
  async function write(
    to: IDBPDatabase<ListSchema>,
    value: T,
    changed: readonly I[],
    removed: readonly string[],
    replaceAll: boolean,
  ): Promise<void> {
    const tx = to.transaction(['lists', 'items'], 'readwrite');
    const items = tx.objectStore('items');
    const { items: all, ...rest } = value;
    const pending: Promise<unknown>[] = [];
    if (replaceAll) pending.push(items.delete(scopeRange(key)));
    for (const id of removed) pending.push(items.delete([key, id]));
    for (const item of changed) pending.push(items.put(item, [key, item.id]));
    pending.push(tx.objectStore('lists').put({ key, order: all.map((item) => item.id), rest }));
    await Promise.all([...pending, tx.done]);
  }

  function queueWrite(value: T, previous: T, replaceAll = false): void {
    const target = db;
    if (!target) return;
    const before = new Map(previous.items.map((item) => [item.id, item]));
    const ids = new Set(value.items.map((item) => item.id));
    const changed = replaceAll
      ? value.items
      : value.items.filter((item) => before.get(item.id) !== item);
    const removed = previous.items.filter((item) => !ids.has(item.id)).map((item) => item.id);
    writes = writes.then(async () => {
      try {
        await write(target, value, changed, removed, replaceAll);
        reportStorageFailure(key, null);
        channel?.postMessage(key);
        return true;
      } catch (error) {
        reportStorageFailure(key, error);
        return false;
      }
    });
  }

  const ready = trackedPromise(
    (async () => {
      // The page that asked for the list is drawn first; reading and checking hundreds of
      // items would otherwise hold up its first paint.
      await afterPaintAndIdle(1000);
      db = await database();
      if (!db) {
        snapshot = legacy.get();
        loaded = true;
        notify();
        return;
      }
      try {
        const stored = await read(db);
        const moving = stored ? null : await readEarlier(db);
        if (stored) {
          snapshot = stored;
        } else if (moving) {
          snapshot = moving.list;
          queueWrite(moving.list, fallback, true);
          if (await writes) await moving.drop();
        } else {
          // First run with IndexedDB: move the list kept by an earlier version, then drop it.
          const old = legacy.get();
          snapshot = old;
          if (old.items.length > 0 || old !== fallback) {
            queueWrite(old, fallback, true);
            if (await writes) legacy.remove();
          }
        }
      } catch (error) {
        console.warn(`The list under ${key} could not be read from IndexedDB.`, error);
        db = null;
        snapshot = legacy.get();
      }
      loaded = true;
      notify();
    })(),
  );

  channel?.addEventListener('message', (event: MessageEvent<unknown>) => {
    if ((event.data !== key && event.data !== '*') || !db) return;
    const from = db;
    void writes.then(async () => {
      try {
        snapshot = (await read(from)) ?? fallback;
        notify();
      } catch {
        // Unreadable just now: keep what is shown; the next change will tell again.
      }
    });
  });

  const set = (value: T): boolean => {
    if (!loaded) {
      // Not loaded yet: this value was made from the empty stand-in and would drop the stored
      // list. update() waits instead; a plain set is kept for when loading is done.
      void ready.then(() => set(value));
      return true;
    }
    if (!db) {
      snapshot = value;
      const ok = legacy.set(value);
      // flush() tells whether the latest change is stored, here as there.
      writes = Promise.resolve(ok);
      notify();
      return ok;
    }
    const previous = snapshot;
    snapshot = value;
    queueWrite(value, previous);
    notify();
    return true;
  };

  const store: IndexedListStore<T> = {
    key,
    ready,
    get: () => snapshot,
    set,
    update: (change) => {
      if (loaded) return set(change(snapshot));
      void ready.then(() => set(change(snapshot)));
      return true;
    },
    remove() {
      set(fallback);
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    flush: async () => {
      await ready;
      return writes;
    },
  };
  stores.set(key, store as IndexedListStore<unknown>);
  return store;
}

/** Removes every list kept in IndexedDB (Settings, "Clear local data"). */
export async function clearIndexedLists(): Promise<void> {
  for (const store of stores.values()) store.remove();
  await Promise.all([...stores.values()].map((store) => store.flush()));
  const db = await database();
  if (!db) return;
  const tx = db.transaction(['lists', 'items'], 'readwrite');
  await Promise.all([tx.objectStore('lists').clear(), tx.objectStore('items').clear(), tx.done]);
  channel?.postMessage('*');
}

/** The keys of the lists kept in IndexedDB (none where it cannot be used). */
export async function indexedListKeys(): Promise<string[]> {
  const db = await database();
  if (!db) return [];
  return db.getAllKeys('lists');
}

/**
 * Moves lists to other keys, items and all, in one transaction: each list whose key `rename` maps
 * to another (null: left where it is). A list already under the new key is replaced. Pages
 * holding the lists in memory are told to read them again.
 */
export async function renameIndexedLists(rename: (key: string) => string | null): Promise<void> {
  await Promise.all([...stores.values()].map((store) => store.flush()));
  const db = await database();
  if (!db) return;
  const tx = db.transaction(['lists', 'items'], 'readwrite');
  const lists = tx.objectStore('lists');
  const items = tx.objectStore('items');
  for (const list of await lists.getAll()) {
    const target = rename(list.key);
    if (target === null || target === list.key) continue;
    const [keys, values] = await Promise.all([
      items.getAllKeys(scopeRange(list.key)),
      items.getAll(scopeRange(list.key)),
    ]);
    await items.delete(scopeRange(target));
    await Promise.all(keys.map((itemKey, index) => items.put(values[index], [target, itemKey[1]])));
    await items.delete(scopeRange(list.key));
    await lists.put({ ...list, key: target });
    await lists.delete(list.key);
  }
  await tx.done;
  channel?.postMessage('*');
}

/** Removes the lists whose key `match` picks, items and all; the others stay. */
export async function removeIndexedLists(match: (key: string) => boolean): Promise<void> {
  await Promise.all([...stores.values()].map((store) => store.flush()));
  const db = await database();
  if (!db) return;
  const tx = db.transaction(['lists', 'items'], 'readwrite');
  for (const key of await tx.objectStore('lists').getAllKeys()) {
    if (!match(key)) continue;
    await tx.objectStore('items').delete(scopeRange(key));
    await tx.objectStore('lists').delete(key);
  }
  await tx.done;
  channel?.postMessage('*');
}
