import { z } from 'zod';
import { settledConnection } from '@/domain/portal-config';
import { localStore, storageKey } from '@/shared/storage/local-store';

/**
 * The VMS connection this page works on. A page works on one connection from load to unload:
 * every VMS call it makes names it (X-Vms-Connection), and the work it keeps in the browser (the
 * tray, drafts, an import in progress, the copy of the requisition list, Submissions) is kept
 * under keys that name it, so switching never carries a batch to another VMS. Switching reloads
 * the page, so nothing held in memory (a query cache, a form) survives into the other one.
 */

/** The connection chosen last in this browser, kept with the user's work (cleared on sign-out). */
export const chosenConnectionStore = localStore(
  storageKey('connection'),
  z.string().nullable(),
  null,
);

let current: string | null = null;
/** The deployment's default connection: work kept before there were connections is its. */
let unscopedOwner: string | null = null;

/**
 * Settles the page's connection, once the settings and (with sign-in) the user's grants are
 * known: the one chosen last, if it is still allowed, else the default, else the first allowed.
 * Null when none is allowed. Before it is called (a page without the server's settings: the dev
 * server's), calls name none and go to the server's default.
 */
export function settleConnection(
  names: readonly string[],
  defaultName: string,
  allowed: readonly string[] | null,
): string | null {
  unscopedOwner = defaultName;
  current = settledConnection(names, defaultName, allowed, chosenConnectionStore.get());
  return current;
}

/**
 * For a worker, which has no page of its own: work on the connection of the page that asked.
 * Its calls name it and its stores are kept under it, as the page's are.
 */
export function adoptConnection(name: string | null): void {
  current = name;
}

/** The page's connection, or null before it is settled. */
export function currentConnection(): string | null {
  return current;
}

/** Work on `name` from now on: the page reloads into it. */
export function switchConnection(name: string): void {
  chosenConnectionStore.set(name);
  window.location.reload();
}

/**
 * The part of a storage key that says whose work it is on the VMS: the client org on this
 * page's connection (`1001@uat`). Keys of work kept before there were connections have the org
 * alone; migrateUnscopedWork gives them one.
 */
export function workScope(clientOrgId: number | string, connection = current): string {
  return `${clientOrgId}@${connection ?? ''}`;
}

/**
 * The storage key an earlier version kept the same work under, made by `keyOf` with the org
 * alone, when this page works on the connection that work is taken to be for: the default one
 * (until then a deployment had one VMS, and it is the default). Null on any other connection,
 * so such work is never offered there.
 */
export function unscopedKey(
  clientOrgId: number | string,
  keyOf: (scope: string) => string,
  connection = current,
): string | null {
  return connection !== null && connection === unscopedOwner ? keyOf(String(clientOrgId)) : null;
}

/**
 * Whether a record tagged with `connection` (a submission) is this page's: one of its own, or an
 * untagged one from before there were connections on the connection such work is taken to be for.
 */
export function isThisConnections(connection: string | undefined): boolean {
  return connection === undefined
    ? current === null || current === unscopedOwner
    : connection === current;
}

/** Keys already looked after on this page: a form asks for its draft's store on every render. */
const adopted = new Set<string>();

/**
 * Moves work an earlier version kept in localStorage under `from` to `to`, once: when `to` has
 * nothing yet. The server's copy follows, as for any key that changes.
 */
export function adoptUnscoped(to: string, from: string | null): void {
  if (from === null || adopted.has(to) || typeof localStorage === 'undefined') return;
  adopted.add(to);
  try {
    const old = localStorage.getItem(from);
    if (old === null || localStorage.getItem(to) !== null) return;
    localStorage.setItem(to, old);
    localStorage.removeItem(from);
  } catch {
    // Storage refused: the work stays where it was, and is moved on a later load.
  }
}

const confirmedKey = (name: string) => storageKey('production-confirmed', name);

/**
 * Whether the user said yes to sending to production connection `name` in this tab's session:
 * the first send there asks, later ones do not. Kept in sessionStorage (cleared on sign-out and
 * when the tab closes); without it, every send asks.
 */
export function productionSendConfirmed(name: string): boolean {
  try {
    return sessionStorage.getItem(confirmedKey(name)) === 'yes';
  } catch {
    return false;
  }
}

export function confirmProductionSends(name: string): void {
  try {
    sessionStorage.setItem(confirmedKey(name), 'yes');
  } catch {
    // Not kept: the next send asks again, which is the safe side.
  }
}
