import { storagePrefix } from './storage-key';

/**
 * What this browser keeps that belongs to the person signed in, and what belongs to the browser
 * itself. With sign-in on, a browser may be shared: one recruiter's unsent work must never be
 * shown to the next, nor saved into the next one's records. Everything the portal stores is
 * named here once; signing out clears what is the user's, and signing in sets aside what belongs
 * to someone else. A store that is in neither list fails its test, so a new one has to be placed.
 */

/** First parts of the storage keys (`vms-portal:v1:<part>:…`) whose data is the user's work. */
export const userKeyParts = [
  'draft',
  'tray',
  'submissions',
  'import',
  'import-templates',
  'suggestions',
  'client-org',
  'connection',
  'production-confirmed',
] as const;

/** First parts of keys kept for whoever uses the browser next: how the screen looks. */
export const browserKeyParts = ['display'] as const;

/**
 * Bookkeeping: `sync:<user id>:<collection>` is what the server last had of that user's records;
 * `kept:<user id>:<key>` is a user's work set aside while someone else is signed in;
 * `owner` names the user the work under the plain keys belongs to; `signed-out` is the note the
 * sign-in page shows once, kept in the tab's sessionStorage.
 */
export const ledgerPart = 'sync';
export const keptPart = 'kept';
export const ownerPart = 'owner';
export const signedOutPart = 'signed-out';
export const bookkeepingParts = [ledgerPart, keptPart, ownerPart, signedOutPart] as const;

/** The IndexedDB databases, by what becomes of them when the user changes. */
export const databases = {
  /** Batches (trays) under the same keys as above: kept per key, set aside like the rest. */
  lists: 'vms-portal-lists',
  /** The copy of the requisition lists, a cache of the VMS: dropped, read again when needed. */
  requisitions: 'vms-portal-requisitions',
  /** A spreadsheet import in progress: dropped; the file can be opened again. */
  imports: 'vms-portal-imports',
} as const;

/** The databases dropped whole, rather than per key, when the work in them is not the user's. */
export const droppedDatabases: readonly string[] = [databases.requisitions, databases.imports];

/** The part a storage key starts with (after the portal's prefix), or null for another key. */
export function keyPart(key: string): string | null {
  if (!key.startsWith(storagePrefix)) return null;
  return key.slice(storagePrefix.length).split(':')[0] ?? null;
}

export function isUserWork(key: string): boolean {
  const part = keyPart(key);
  return (userKeyParts as readonly string[]).includes(part ?? '');
}

/** Where `key`, a piece of `owner`'s work, is kept while someone else is signed in. */
export function keptKeyOf(owner: string, key: string): string {
  return `${storagePrefix}${keptPart}:${owner}:${key.slice(storagePrefix.length)}`;
}

/** The plain key a piece of `owner`'s work set aside came from, or null if it is not theirs. */
export function keptOriginal(owner: string, key: string): string | null {
  const start = `${storagePrefix}${keptPart}:${owner}:`;
  return key.startsWith(start) ? storagePrefix + key.slice(start.length) : null;
}

/** The user a sync ledger key belongs to (`sync:<user id>:<collection>`), or null. */
export function ledgerUser(key: string): string | null {
  if (keyPart(key) !== ledgerPart) return null;
  return key.slice(storagePrefix.length).split(':')[1] ?? null;
}

/** Whose work is under the plain keys, when nobody can tell (see decideOwnership). */
export const unknownOwner = 'unclaimed';

export type Ownership =
  /** The work here is this user's (or there is none): show it, sync it. */
  | { kind: 'mine' }
  /** It belongs to `owner`: set it aside, out of sight and never synced as this user's. */
  | { kind: 'set-aside'; owner: string };

/**
 * Whether the work in this browser belongs to the user signing in. The owner tag says so when it
 * is there. Work without a tag was left by a version that did not write one, or while sign-in was
 * off: it is taken as this user's only when no one else ever synced from this browser (their
 * sync ledgers would be here); otherwise it goes to the one other user who did, or, when several
 * did, to no one in particular, and is set aside rather than risk showing it to the wrong person.
 */
export function decideOwnership(input: {
  userId: string;
  /** The owner tag, or null when there is none. */
  owner: string | null;
  /** Whether any of the user's work (userKeyParts, the lists) is in the browser. */
  hasWork: boolean;
  /** The users with a sync ledger in this browser. */
  ledgerUsers: readonly string[];
}): Ownership {
  const { userId, owner, hasWork, ledgerUsers } = input;
  if (!hasWork || owner === userId) return { kind: 'mine' };
  if (owner !== null) return { kind: 'set-aside', owner };
  const others = [...new Set(ledgerUsers)].filter((user) => user !== userId);
  if (others.length === 0) return { kind: 'mine' };
  const [only] = others;
  if (others.length === 1 && only !== undefined && !ledgerUsers.includes(userId)) {
    return { kind: 'set-aside', owner: only };
  }
  return { kind: 'set-aside', owner: unknownOwner };
}
