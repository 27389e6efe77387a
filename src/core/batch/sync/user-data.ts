import type { SyncAdapter } from '../../../shared/sync/user-sync';
import {
  localStore,
  portalStorageKeys,
  storageKey,
  storagePrefix,
} from '../../../shared/storage/local-store';
import { submissionsStore } from '../hooks/use-submissions';
import { storedDraftSchema } from '../model/drafts';
import { submissionSchema } from '../model/submissions-state';

/**
 * What of this browser's data follows a signed-in user to another machine (issue 15, point 4):
 * the form drafts (one per kind, client org and form) and the submissions history (one record
 * per batch). The tray stays with the browser: it is what is about to be sent from here.
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
  remove: (batchId) =>
    submissionsStore.set(submissionsStore.get().filter((entry) => entry.batchId !== batchId)),
};

export const userDataSync: readonly SyncAdapter[] = [draftsSync, submissionsSync];
