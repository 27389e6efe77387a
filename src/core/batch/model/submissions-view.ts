import Papa from 'papaparse';
import type { BatchKind } from './batch-kind';
import type { Submission } from './submissions-state';
import { resentRows } from './submissions-state';

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

/**
 * A batch's outcome, by the tones of its final statuses (its kind knows them). Rows that needed
 * attention and were sent again (`resent`) are settled here: what became of them is the outcome
 * of the batch that resent them.
 */
export function outcomeOf(submission: Submission, kind: BatchKind, resent = 0): Outcome {
  if (!submission.finalCounts) return 'pending';
  let attention = 0;
  for (const [status, count] of Object.entries(submission.finalCounts)) {
    const tone = kind.toneOf(status);
    if (tone === 'error' || tone === 'warning') attention += count;
  }
  return attention > resent ? 'attention' : 'succeeded';
}

/** The batches that sent rows of `batchId` again: each with how many, and how it went. */
export function resendsOf(
  list: readonly Submission[],
  batchId: string,
  kinds: ReadonlyMap<string, BatchKind>,
): Array<{ batchId: string; rows: number; outcome: Outcome }> {
  const byBatch = new Map<string, number>();
  for (const resender of resentRows(list, batchId).values())
    byBatch.set(resender, (byBatch.get(resender) ?? 0) + 1);
  return [...byBatch].map(([resender, rows]) => {
    const submission = list.find((entry) => entry.batchId === resender);
    const kind = submission ? kinds.get(submission.kind) : undefined;
    const outcome =
      submission && kind ? outcomeOf(submission, kind, resentRows(list, resender).size) : 'pending';
    return { batchId: resender, rows, outcome };
  });
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
    if (
      view.outcome !== null &&
      outcomeOf(submission, kind, resentRows(list, submission.batchId).size) !== view.outcome
    )
      return false;
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
