import Papa from 'papaparse';
import type { BatchKind } from './batch-kind';
import type { Submission } from './submissions-state';

/**
 * What the Submissions page shows: batches of one kind or all, by outcome, and those whose batch
 * id contains a search; all in the address (?kind=…&outcome=…&batch=…).
 */
export const outcomes = [
  { value: 'attention', label: 'With errors or incomplete items' },
  { value: 'succeeded', label: 'Every item succeeded' },
  { value: 'pending', label: 'Results still coming' },
] as const;
export type Outcome = (typeof outcomes)[number]['value'];

export interface SubmissionsView {
  kind: string | null;
  outcome: Outcome | null;
  batch: string;
}

export function readSubmissionsView(params: URLSearchParams): SubmissionsView {
  const outcome = outcomes.find((entry) => entry.value === params.get('outcome'))?.value ?? null;
  return { kind: params.get('kind'), outcome, batch: params.get('batch') ?? '' };
}

/** A batch's outcome, by the tones of its final statuses (its kind knows them). */
export function outcomeOf(submission: Submission, kind: BatchKind): Outcome {
  if (!submission.finalCounts) return 'pending';
  const attention = Object.entries(submission.finalCounts).some(([status, count]) => {
    const tone = kind.toneOf(status);
    return count > 0 && (tone === 'error' || tone === 'warning');
  });
  return attention ? 'attention' : 'succeeded';
}

export function filterSubmissions(
  list: readonly Submission[],
  kinds: ReadonlyMap<string, BatchKind>,
  view: SubmissionsView,
): Submission[] {
  const needle = view.batch.trim().toLowerCase();
  return list.filter((submission) => {
    const kind = kinds.get(submission.kind);
    if (!kind) return false;
    if (view.kind !== null && submission.kind !== view.kind) return false;
    if (view.outcome !== null && outcomeOf(submission, kind) !== view.outcome) return false;
    return needle === '' || submission.batchId.toLowerCase().includes(needle);
  });
}

/**
 * The batches as CSV (RFC 4180, via Papa Parse): one line per batch, with a column per result
 * status seen in any of them, so a spreadsheet can sum them.
 */
export function submissionsCsv(list: readonly Submission[]): string {
  const statuses = [
    ...new Set(list.flatMap((submission) => Object.keys(submission.finalCounts ?? {}))),
  ];
  return Papa.unparse({
    fields: ['Batch ID', 'Kind', 'Client org', 'Sent at', 'Items', 'Results', ...statuses],
    data: list.map((submission) => [
      submission.batchId,
      submission.kind,
      String(submission.clientOrgId),
      submission.sentAt,
      String(submission.itemCount),
      submission.finalCounts ? 'final' : 'pending',
      ...statuses.map((status) => String(submission.finalCounts?.[status] ?? 0)),
    ]),
  });
}
