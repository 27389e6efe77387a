import { localStore, storageKey, useLocalStore } from '../../../shared/storage/local-store';
import type { Submission } from '../model/submissions-state';
import {
  addSubmission,
  recordOutcome,
  shedOldItems,
  submissionsSchema,
} from '../model/submissions-state';

const empty: Submission[] = [];

export const submissionsStore = localStore(storageKey('submissions'), submissionsSchema, empty);

export function useSubmissions(): Submission[] {
  return useLocalStore(submissionsStore);
}

/**
 * Records an accepted batch. Should storage be full, the oldest batches' stored items are dropped
 * (their records stay) until the new record fits.
 */
export function recordSubmission(submission: Submission): void {
  let next = addSubmission(submissionsStore.get(), submission);
  while (!submissionsStore.set(next)) {
    const shed = shedOldItems(next.slice(1));
    if (!shed) return; // kept in memory; the storage warning says what to do
    next = [submission, ...shed];
  }
}

export function recordFinalOutcome(batchId: string, counts: Record<string, number>): void {
  const current = submissionsStore.get();
  const submission = current.find((item) => item.batchId === batchId);
  if (!submission || JSON.stringify(submission.finalCounts) === JSON.stringify(counts)) return;
  submissionsStore.set(recordOutcome(current, batchId, counts));
}
