import Papa from 'papaparse';
import { describe, expect, it } from 'vitest';
import type { BatchKind } from './batch-kind';
import type { Submission } from './submissions-state';
import {
  filterSubmissions,
  outcomeOf,
  readSubmissionsView,
  resendsOf,
  submissionsCsv,
} from './submissions-view';

const tones = {
  Success: 'success',
  New: 'success',
  Incomplete: 'warning',
  Error: 'error',
} as const;
const kind = (id: string) =>
  ({
    id,
    toneOf: (status: string) => tones[status as keyof typeof tones] ?? 'neutral',
  }) as unknown as BatchKind;
const kinds = new Map([
  ['requisition', kind('requisition')],
  ['candidate', kind('candidate')],
]);

const sent = (
  batchId: string,
  of: 'requisition' | 'candidate',
  finalCounts: Record<string, number> | null,
): Submission => ({
  batchId,
  kind: of,
  clientOrgId: 1001,
  vendorOrgId: 9001,
  sentAt: '2026-11-23T10:00:00.000Z',
  itemCount: Object.values(finalCounts ?? { Pending: 2 }).reduce((a, b) => a + b, 0),
  items: [],
  finalCounts,
});

const list = [
  sent('rb_AAA', 'requisition', { Success: 2, Error: 1 }),
  sent('rb_BBB', 'requisition', { Success: 3 }),
  sent('cb_CCC', 'candidate', { New: 1, Incomplete: 1 }),
  sent('cb_DDD', 'candidate', null),
];
const shown = (query: string) =>
  filterSubmissions(list, kinds, readSubmissionsView(new URLSearchParams(query))).map(
    (submission) => submission.batchId,
  );

describe('the Submissions view', () => {
  it('tells a batch that needs attention from one that succeeded, by its kind’s tones', () => {
    expect(list.map((submission) => outcomeOf(submission, kind(submission.kind)))).toEqual([
      'attention',
      'succeeded',
      'attention',
      'pending',
    ]);
  });

  it('counts a batch whose failed rows were all sent again as done, and says how the resend went', () => {
    const first = sent('rb_EEE', 'requisition', { Success: 2, Error: 2 });
    const resend = {
      ...sent('rb_FFF', 'requisition', { Success: 2 }),
      resendOf: [
        { batchId: 'rb_EEE', row: 2, message: 'bad class' },
        { batchId: 'rb_EEE', row: 4, message: 'bad class' },
      ],
    };
    const partly = { ...resend, resendOf: [resend.resendOf[0] ?? null, null] };
    const withAll = [resend, first];
    const filter = (all: Submission[], outcome: string) =>
      filterSubmissions(
        all,
        kinds,
        readSubmissionsView(new URLSearchParams(`outcome=${outcome}`)),
      ).map((submission) => submission.batchId);
    expect(filter(withAll, 'attention')).toEqual([]);
    expect(filter(withAll, 'succeeded')).toEqual(['rb_FFF', 'rb_EEE']);
    expect(resendsOf(withAll, 'rb_EEE', kinds)).toEqual([
      { batchId: 'rb_FFF', rows: 2, outcome: 'succeeded' },
    ]);
    // One of the two resent: the other still needs attention.
    expect(filter([partly, first], 'attention')).toEqual(['rb_EEE']);
  });

  it('filters by kind, outcome and a part of the batch id, any case, from the address', () => {
    expect(shown('kind=candidate')).toEqual(['cb_CCC', 'cb_DDD']);
    expect(shown('outcome=attention')).toEqual(['rb_AAA', 'cb_CCC']);
    expect(shown('kind=requisition&outcome=succeeded')).toEqual(['rb_BBB']);
    expect(shown('batch=bbb')).toEqual(['rb_BBB']);
    expect(shown('outcome=nonsense')).toHaveLength(4);
  });

  it('exports one CSV line per batch with a column per status, quoting as CSV needs', () => {
    const csv = submissionsCsv([...list, sent('rb_"quoted",x', 'requisition', { Success: 1 })]);
    const parsed = Papa.parse<string[]>(csv.trim()).data;
    expect(parsed[0]).toEqual([
      'Batch ID',
      'Kind',
      'Client org',
      'Sent at',
      'Items',
      'Results',
      'Success',
      'Error',
      'New',
      'Incomplete',
    ]);
    expect(parsed[1]).toEqual([
      'rb_AAA',
      'requisition',
      '1001',
      '2026-11-23T10:00:00.000Z',
      '3',
      'final',
      '2',
      '1',
      '0',
      '0',
    ]);
    expect(parsed[4]?.slice(0, 6)).toEqual([
      'cb_DDD',
      'candidate',
      '1001',
      '2026-11-23T10:00:00.000Z',
      '2',
      'pending',
    ]);
    expect(parsed[5]?.[0]).toBe('rb_"quoted",x');
  });
});
