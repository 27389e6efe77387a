import { useMemo } from 'react';
import type { Submission } from '@/core/batch/model/submissions-state';
import {
  addSubmission,
  recordOutcome,
  shedOldItems,
  submissionsSchema,
} from '@/core/batch/model/submissions-state';
import { currentConnection, isThisConnections } from '@/shared/config/current-connection';
import { localStore, storageKey, useLocalStore } from '@/shared/storage/local-store';

const empty: Submission[] = [];

export const submissionsStore = localStore(storageKey('submissions'), submissionsSchema, empty);

/** The batches sent on this page's connection, newest first. */
export function useSubmissions(): Submission[] {
  const all = useLocalStore(submissionsStore);
  return useMemo(() => all.filter((entry) => isThisConnections(entry.connection)), [all]);
}

/**
 * Records an accepted batch, under the connection it names (the page's when it names none).
 * Should storage be full, the oldest batches' stored items are dropped (their records stay) until
 * the new record fits.
 */
export function recordSubmission(sent: Submission): void {
  const connection = sent.connection ?? currentConnection();
  const submission = connection === null ? sent : { ...sent, connection };
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
