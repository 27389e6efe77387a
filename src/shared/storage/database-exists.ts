/**
 * Whether this browser has the IndexedDB database `name` at all, without opening (and so making)
 * it; true where the browser cannot say.
 */
export async function databaseMayExist(name: string): Promise<boolean> {
  if (typeof indexedDB === 'undefined' || typeof indexedDB.databases !== 'function') return true;
  try {
    return (await indexedDB.databases()).some((database) => database.name === name);
  } catch {
    return true;
  }
}
