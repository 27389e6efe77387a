import { submissionsStore } from '@/core/batch/hooks/use-submissions';
import { storedDraftSchema } from '@/core/batch/model/drafts';
import { submissionSchema } from '@/core/batch/model/submissions-state';
import {
  emptyTray,
  trayStateSchema,
  type TrayItem,
  type TrayState,
} from '@/core/batch/model/tray-state';
import { indexedListKeys, indexedListStore } from '@/shared/storage/indexed-list-store';
import {
  localStore,
  portalStorageKeys,
  storageKey,
  storagePrefix,
} from '@/shared/storage/local-store';
import type { SyncAdapter } from '@/shared/sync/user-sync';

/**
 * What of this browser's data follows a signed-in user to another machine:
 * the form drafts (one per kind, client org and form), the submissions history (one record per
 * batch) and the batch not yet sent (one per kind and client org). The batch is kept on the
 * server too because signing out clears it from a shared browser: it must be there when its
 * owner signs in again, here or anywhere.
 */
const draftPrefix = `${storageKey('draft')}:`;

/** The draft's store; the same one the workspace uses (stores are made once per key). */
const draftAt = (key: string) =>
  localStore(`${storagePrefix}${key}`, storedDraftSchema.nullable(), null);

export const draftsSync: SyncAdapter = {
  collection: 'drafts',
  keys: () =>
    portalStorageKeys()
      .filter((key) => key.startsWith(draftPrefix))
      .map((key) => key.slice(storagePrefix.length)),
  read: (key) => draftAt(key).get() ?? undefined,
  write: (key, value) => {
    const draft = storedDraftSchema.safeParse(value);
    if (draft.success && key.startsWith('draft:')) draftAt(key).set(draft.data);
  },
  remove: (key) => draftAt(key).remove(),
};

export const submissionsSync: SyncAdapter = {
  collection: 'submissions',
  keys: () => submissionsStore.get().map((submission) => submission.batchId),
  read: (batchId) => submissionsStore.get().find((submission) => submission.batchId === batchId),
  write: (batchId, value) => {
    const submission = submissionSchema.safeParse(value);
    if (!submission.success || submission.data.batchId !== batchId) return;
    const others = submissionsStore.get().filter((entry) => entry.batchId !== batchId);
    // Newest first, as the history is kept.
    submissionsStore.set(
      [...others, submission.data].sort((a, b) => b.sentAt.localeCompare(a.sentAt)),
    );
  },
  remove: (batchId) => {
    submissionsStore.set(submissionsStore.get().filter((entry) => entry.batchId !== batchId));
  },
};

const trayPrefix = `${storageKey('tray')}:`;

/** The tray's store; the same one the workspace uses (stores are made once per key). */
const trayAt = (key: string) =>
  indexedListStore<TrayItem, TrayState>(`${storagePrefix}${key}`, trayStateSchema, emptyTray);

/** A tray with nothing in it and no send to settle is no record at all. */
const isEmpty = (tray: TrayState) => tray.items.length === 0 && !tray.lost;

export const traySync: SyncAdapter = {
  collection: 'tray',
  keys: async () =>
    [
      ...new Set([
        ...(await indexedListKeys()),
        // A tray of an earlier version, still in localStorage until it is first opened.
        ...portalStorageKeys(),
      ]),
    ]
      .filter((key) => key.startsWith(trayPrefix))
      .map((key) => key.slice(storagePrefix.length)),
  read: async (key) => {
    const store = trayAt(key);
    // Read only once loaded: the empty stand-in before that would read as "emptied here".
    await store.ready;
    const tray = store.get();
    return isEmpty(tray) ? undefined : tray;
  },
  write: async (key, value) => {
    const tray = trayStateSchema.safeParse(value);
    if (!tray.success || !key.startsWith('tray:')) return;
    const store = trayAt(key);
    await store.ready;
    store.set(tray.data);
    // Stored before the sync counts it as taken in: a page closed just after must still have it.
    await store.flush();
  },
  remove: async (key) => {
    const store = trayAt(key);
    await store.ready;
    store.remove();
    await store.flush();
  },
};

export const userDataSync: readonly SyncAdapter[] = [draftsSync, submissionsSync, traySync];
