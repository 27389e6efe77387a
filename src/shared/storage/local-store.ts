import { useSyncExternalStore } from 'react';
import type { z } from 'zod';
import { storagePrefix } from './storage-key';

/**
 * Browser storage for what must survive a reload, a crash or a closed tab: drafts, the batch
 * tray, the submissions history, suggestions, the chosen client org: typed data is never lost.
 * One store per key, shared by every component that reads it; other tabs' writes
 * arrive through the `storage` event. Values are parsed with a zod schema when read, so data
 * written by an older version (or edited by hand) cannot crash a page: it reads as the fallback
 * and stays in storage untouched until the next write.
 */
export { storageKey, storagePrefix } from './storage-key';

export interface LocalStore<T> {
  readonly key: string;
  get(): T;
  /** Stores the value; false when browser storage refused it (it is still kept in memory). */
  set(value: T): boolean;
  update(change: (value: T) => T): boolean;
  remove(): void;
  subscribe(listener: () => void): () => void;
}

/** A store of one localStorage key (localStore). */
export interface KeyStore<T> extends LocalStore<T> {
  /**
   * What the store reads from `text` as stored under its key (null: nothing stored), for code
   * that has the text but not the storage (a worker, told it by its page).
   */
  read(text: string | null): T;
}

/** The last write that failed (storage full or blocked), for the app-wide warning. */
export interface StorageProblem {
  key: string;
  message: string;
}

let problem: StorageProblem | null = null;
const problemListeners = new Set<() => void>();

/** Says that a write under `key` failed (or, with null error, that it works again). */
export function reportStorageFailure(key: string, error: unknown): void {
  if (error === null) {
    if (problem?.key === key) setProblem(null);
    return;
  }
  setProblem({ key, message: describeWriteFailure(error) });
}

function setProblem(next: StorageProblem | null): void {
  if (problem?.key === next?.key && problem?.message === next?.message) return;
  problem = next;
  for (const listener of problemListeners) listener();
}

export function useStorageProblem(): StorageProblem | null {
  return useSyncExternalStore(
    (listener) => {
      problemListeners.add(listener);
      return () => problemListeners.delete(listener);
    },
    () => problem,
    () => null,
  );
}

/** The browser's localStorage, or null where there is none or it may not be touched. */
export function local(): Storage | null {
  try {
    return typeof window === 'undefined' ? null : window.localStorage;
  } catch {
    // Some privacy settings make merely touching localStorage throw.
    return null;
  }
}

function describeWriteFailure(error: unknown): string {
  const quota =
    error instanceof DOMException &&
    (error.name === 'QuotaExceededError' || error.name === 'NS_ERROR_DOM_QUOTA_REACHED');
  return quota
    ? 'Your browser storage for this portal is full, so the latest change was not saved and will be lost on reload. Remove old submissions or clear local data in Settings, then make the change again.'
    : 'This browser does not let the portal save data (storage is blocked, e.g. by a privacy setting), so drafts and the batch will be lost on reload. Allow site data for this address, or send your batch before leaving the page.';
}

const stores = new Map<string, LocalStore<unknown>>();

/** Set when the page is about to be left because the browser's work now belongs to someone else. */
let frozen = false;

/**
 * From now on this page writes nothing to localStorage: it is about to reload because another
 * user signed in on the browser, or its user's work was just cleared, and a form saving its last
 * keystrokes as the page goes must not put one person's draft back under the next one's keys.
 */
export function freezePortalStorage(): void {
  frozen = true;
}

/**
 * The store for `key` (created once). `fallback` is what it reads as when nothing valid is
 * stored; it must be a constant so that readers see a stable value.
 */
export function localStore<T>(key: string, schema: z.ZodType<T>, fallback: T): KeyStore<T> {
  const existing = stores.get(key);
  if (existing) return existing as KeyStore<T>;

  const listeners = new Set<() => void>();
  /** The stored text the snapshot was parsed from (undefined: not read yet). */
  let raw: string | null | undefined;
  let snapshot: T = fallback;
  /** Set when a write failed: storage is behind, so the in-memory value is the truth. */
  let pinned = false;

  const parse = (text: string): T => {
    try {
      const parsed = schema.safeParse(JSON.parse(text));
      if (parsed.success) return parsed.data;
      console.warn(
        `Stored data under ${key} has an unexpected shape; it is ignored.`,
        parsed.error,
      );
    } catch {
      console.warn(`Stored data under ${key} is not JSON; it is ignored.`);
    }
    return fallback;
  };

  const get = (): T => {
    if (pinned) return snapshot;
    const current = local()?.getItem(key) ?? null;
    if (current !== raw) {
      raw = current;
      snapshot = current === null ? fallback : parse(current);
    }
    return snapshot;
  };

  const notify = () => {
    for (const listener of listeners) listener();
  };

  const set = (value: T): boolean => {
    snapshot = value;
    if (frozen) {
      // The page is leaving for another user's: what it still saves stays in its memory.
      pinned = true;
      notify();
      return true;
    }
    const text = JSON.stringify(value);
    try {
      const target = local();
      if (!target) throw new Error('localStorage is not available');
      target.setItem(key, text);
      raw = text;
      pinned = false;
      if (problem?.key === key) setProblem(null);
      notify();
      return true;
    } catch (error) {
      // Keep working from memory, so nothing on screen is lost, and say what happened.
      pinned = true;
      setProblem({ key, message: describeWriteFailure(error) });
      notify();
      return false;
    }
  };

  const store: KeyStore<T> = {
    key,
    get,
    read: (text) => (text === null ? fallback : parse(text)),
    set,
    update: (change) => set(change(get())),
    remove() {
      local()?.removeItem(key);
      raw = null;
      snapshot = fallback;
      pinned = false;
      notify();
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };

  if (typeof window !== 'undefined') {
    window.addEventListener('storage', (event) => {
      // null: another tab cleared all storage.
      if (event.key !== key && event.key !== null) return;
      pinned = false;
      notify();
    });
  }

  stores.set(key, store as LocalStore<unknown>);
  return store;
}

export function useLocalStore<T>(store: LocalStore<T>): T {
  return useSyncExternalStore(store.subscribe, store.get, store.get);
}

/** Every key this portal wrote in this browser. */
export function portalStorageKeys(): string[] {
  const target = local();
  if (!target) return [];
  const keys: string[] = [];
  for (let i = 0; i < target.length; i += 1) {
    const key = target.key(i);
    if (key?.startsWith(storagePrefix)) keys.push(key);
  }
  return keys;
}

/** Removes everything this portal keeps in the browser (Settings, "Clear local data"). */
export function clearPortalStorage(): void {
  const target = local();
  for (const key of portalStorageKeys()) target?.removeItem(key);
  setProblem(null);
  for (const store of stores.values()) store.remove();
}
