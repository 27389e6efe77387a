import { openDB, type DBSchema, type IDBPDatabase } from 'idb';

/**
 * One of the portal's IndexedDB databases, opened on first use (`idb`): null where IndexedDB
 * cannot be used (no IndexedDB, a private window that refuses it), so callers fall back. When
 * another tab needs a newer version, this one closes its connection and opens again next time.
 */
export function lazyDatabase<S extends DBSchema>(
  name: string,
  version: number,
  /** Makes the stores; `oldVersion` is 0 for a new database. */
  upgrade: (db: IDBPDatabase<S>, oldVersion: number) => void,
): () => Promise<IDBPDatabase<S> | null> {
  let opened: Promise<IDBPDatabase<S> | null> | null = null;
  return () => {
    opened ??= (async () => {
      if (typeof indexedDB === 'undefined') return null;
      try {
        return await openDB<S>(name, version, {
          upgrade: (db, oldVersion) => upgrade(db, oldVersion),
          blocking(_current, _next, event) {
            (event.target as IDBDatabase).close();
            opened = null;
          },
        });
      } catch {
        return null;
      }
    })();
    return opened;
  };
}

/** Every key of a compound `[scope, id]` key space that starts with `scope`. */
export const scopeRange = (scope: string) => IDBKeyRange.bound([scope, ''], [scope, '\uffff']);
