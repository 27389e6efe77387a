import {
  indexedListKeys,
  removeIndexedLists,
  renameIndexedLists,
} from '@/shared/storage/indexed-list-store';
import { local, portalStorageKeys, storagePrefix } from '@/shared/storage/local-store';
import {
  decideOwnership,
  droppedDatabases,
  isUserWork,
  keptKeyOf,
  keptOriginal,
  ledgerUser,
} from '@/shared/storage/user-owned';
import { localOwner, ownerKey } from './owner-tag';

/*
 * Whose work this browser holds (the owner tag), and the two moves that keep one person's work
 * from the next on a shared browser: clearing it when they sign out (after it is saved on the
 * server), and setting it aside when someone else signs in while it is still here (a session
 * that expired or was ended elsewhere, a closed tab). The lists of what is whose are in
 * user-owned.ts. With sign-in off none of this runs: one person, their own machine.
 */

/** Drops a whole database; a page that has it open closes it when asked (lazyDatabase). */
function dropDatabase(name: string): Promise<void> {
  return new Promise((resolve) => {
    if (typeof indexedDB === 'undefined') return resolve();
    const request = indexedDB.deleteDatabase(name);
    request.onsuccess = request.onerror = () => resolve();
    // A connection that will not close (another tab mid-write) must not hold up signing out:
    // the deletion goes ahead by itself as soon as it closes.
    setTimeout(resolve, 2000);
  });
}

/** Moves the work under the plain keys aside for `owner`, out of sight and out of any sync. */
async function setAside(owner: string): Promise<void> {
  const storage = local();
  for (const key of portalStorageKeys()) {
    if (!isUserWork(key)) continue;
    const value = storage?.getItem(key);
    if (value != null) {
      try {
        storage?.setItem(keptKeyOf(owner, key), value);
      } catch {
        // Storage full: it is dropped rather than left where the next person would see it.
        // It was synced to the owner's records at most a few seconds before they left.
      }
    }
    storage?.removeItem(key);
  }
  await renameIndexedLists((key) => (isUserWork(key) ? keptKeyOf(owner, key) : null));
  await Promise.all(droppedDatabases.map(dropDatabase));
}

/** Puts back what was set aside for `userId`, where nothing of theirs is in the way. */
async function takeBack(userId: string): Promise<void> {
  const storage = local();
  for (const key of portalStorageKeys()) {
    const original = keptOriginal(userId, key);
    if (original === null) continue;
    const value = storage?.getItem(key);
    try {
      if (value != null && storage?.getItem(original) == null) storage?.setItem(original, value);
      storage?.removeItem(key);
    } catch {
      // Storage full: it stays set aside, still theirs, until there is room.
    }
  }
  const lists = new Set(await indexedListKeys());
  await renameIndexedLists((key) => {
    const original = keptOriginal(userId, key);
    return original !== null && !lists.has(original) ? original : null;
  });
}

/**
 * Before a signed-in user's pages are drawn: the work in this browser is made theirs, or set
 * aside for whoever it belongs to, and theirs set aside earlier is put back.
 */
export async function takeOwnership(userId: string): Promise<void> {
  const keys = [...portalStorageKeys(), ...(await indexedListKeys())];
  const decision = decideOwnership({
    userId,
    owner: localOwner(),
    hasWork: keys.some(isUserWork),
    ledgerUsers: keys.map(ledgerUser).filter((user) => user !== null),
  });
  if (decision.kind === 'set-aside') await setAside(decision.owner);
  await takeBack(userId);
  try {
    local()?.setItem(ownerKey, userId);
  } catch {
    // Storage full: the tag is written with the next sign-in that finds room.
  }
}

/**
 * After `userId` signed out with everything saved on the server: their work leaves this browser
 * (the next sign-in, here or anywhere, takes it from the server), and with it what the server
 * last had of it, so that taking it back starts afresh rather than reading the empty browser as
 * "deleted here". What is set aside for others stays theirs.
 */
export async function clearUserWork(userId: string): Promise<void> {
  const storage = local();
  for (const key of portalStorageKeys()) {
    if (isUserWork(key) || ledgerUser(key) === userId) storage?.removeItem(key);
  }
  await removeIndexedLists(isUserWork);
  await Promise.all(droppedDatabases.map(dropDatabase));
  try {
    for (const key of Object.keys(sessionStorage)) {
      if (key.startsWith(storagePrefix)) sessionStorage.removeItem(key);
    }
  } catch {
    // No sessionStorage: nothing kept there either.
  }
  storage?.removeItem(ownerKey);
}
