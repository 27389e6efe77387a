import Papa from 'papaparse';
import type { BatchKind, ResultRow } from './batch-kind';
import { describeMessage, statusTone } from './result-fields';
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
    const tone = statusTone(kind, status);
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
 * The items of the batches as CSV (RFC 4180, via Papa Parse): one line per item sent, with its
 * batch, row, kind, what identifies it, and its result (status, the VMS's message, the id it
 * made), so a spreadsheet can sort, filter and count them. `results` holds each batch's rows as
 * read; a batch whose results could not be read says so on its items.
 */
export function submissionsCsv(
  list: readonly Submission[],
  kinds: ReadonlyMap<string, BatchKind>,
  results: ReadonlyMap<string, readonly ResultRow[] | null>,
): string {
  const data = list.flatMap((submission) => {
    const kind = kinds.get(submission.kind);
    const rows = results.get(submission.batchId) ?? null;
    return Array.from({ length: submission.itemCount }, (_, index) => {
      const item = submission.items[index];
      const summary = item && kind ? kind.summarize(item) : null;
      const result = rows?.find((row) => row.row === index + 1);
      return [
        submission.batchId,
        String(index + 1),
        submission.kind,
        summary?.reference || result?.reference || '',
        summary?.title ?? '',
        String(submission.clientOrgId),
        submission.sentAt,
        result?.status ?? (rows === null ? 'results not read' : 'not in the results'),
        result && kind ? describeMessage(kind, result.message) : '',
        result?.createdId ?? '',
      ];
    });
  });
  return Papa.unparse({
    fields: [
      'Batch ID',
      'Row',
      'Kind',
      'Reference',
      'Title',
      'Client org',
      'Sent at',
      'Status',
      'Message',
      'Created ID',
    ],
    data,
  });
}
