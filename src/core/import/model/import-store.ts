import type { DBSchema } from 'idb';
import { lazyDatabase } from '@/shared/storage/indexed-db';
import { databases } from '@/shared/storage/user-owned';
import type { ImportSource, ImportState } from './import-view';

/**
 * An import in progress, kept in IndexedDB so that it survives a reload or a crash: the file as read, written once when it is opened, and what the user did since,
 * written after each change. One import per kind and client org (`key`).
 */
export interface ImportMeta {
  fileName: string;
  format: string;
  sheetNames: string[];
  sheet: string;
  /** The template applied when the file was opened, if one was. */
  template: string | null;
  openedAt: string;
}

interface ImportSchema extends DBSchema {
  sources: { key: string; value: ImportSource };
  states: { key: string; value: { meta: ImportMeta; state: ImportState } };
}

const database = lazyDatabase<ImportSchema>(databases.imports, 1, (db) => {
  db.createObjectStore('sources');
  db.createObjectStore('states');
});

/** The file as read, when it is opened, with what the user did so far; false without IndexedDB. */
export function saveSource(
  key: string,
  source: ImportSource,
  meta: ImportMeta,
  state: ImportState,
): Promise<boolean> {
  return save(key, meta, state, source);
}

/** What the user did since the file was opened, after each change; false without IndexedDB. */
export function saveState(key: string, meta: ImportMeta, state: ImportState): Promise<boolean> {
  return save(key, meta, state);
}

async function save(
  key: string,
  meta: ImportMeta,
  state: ImportState,
  source?: ImportSource,
): Promise<boolean> {
  const db = await database();
  if (!db) return false;
  const tx = db.transaction(['sources', 'states'], 'readwrite');
  await Promise.all([
    source === undefined ? undefined : tx.objectStore('sources').put(source, key),
    tx.objectStore('states').put({ meta, state }, key),
    tx.done,
  ]);
  return true;
}

export async function loadImport(
  key: string,
): Promise<{ source: ImportSource; meta: ImportMeta; state: ImportState } | null> {
  const db = await database();
  if (!db) return null;
  const tx = db.transaction(['sources', 'states'], 'readonly');
  const [source, saved] = await Promise.all([
    tx.objectStore('sources').get(key),
    tx.objectStore('states').get(key),
  ]);
  await tx.done;
  return source && saved ? { source, meta: saved.meta, state: saved.state } : null;
}

export async function dropImport(key: string): Promise<void> {
  const db = await database();
  if (!db) return;
  const tx = db.transaction(['sources', 'states'], 'readwrite');
  await Promise.all([
    tx.objectStore('sources').delete(key),
    tx.objectStore('states').delete(key),
    tx.done,
  ]);
}
