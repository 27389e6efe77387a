import Papa from 'papaparse';
import { describe, expect, it } from 'vitest';
import type { BatchKind, ResultRow } from './batch-kind';
import type { Submission } from './submissions-state';
import {
  filterSubmissions,
  outcomeOf,
  readSubmissionsView,
  resendsOf,
  submissionsCsv,
} from './submissions-view';

const kind = (id: string) =>
  ({
    id,
    statusMeanings: { Success: 'success', New: 'success', Incomplete: 'warning', Error: 'error' },
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

  it('exports one CSV line per item, with what identifies it and its result, quoting as CSV needs', () => {
    const summarizing = (id: string) =>
      ({
        ...kind(id),
        summarize: (item: Record<string, string>) => ({
          badge: 'I',
          badgeLabel: 'Insert',
          reference: item.clientinternalreq ?? '',
          title: item.titlerole ?? '',
        }),
        catalog: [{ key: 'reqclassid', label: 'Req class ID' }],
      }) as unknown as BatchKind;
    const exportKinds = new Map([['requisition', summarizing('requisition')]]);
    const batch: Submission = {
      ...sent('rb_"quoted",x', 'requisition', { Success: 1, Error: 1 }),
      items: [
        { clientinternalreq: 'REQ-1', titlerole: 'Nurse, nights' },
        { clientinternalreq: 'REQ-2', titlerole: 'Welder' },
      ],
    };
    const row = (n: number, status: string, message: string, createdId: string): ResultRow => ({
      row: n,
      status,
      tone: status === 'Error' ? 'error' : 'success',
      pending: false,
      failed: status === 'Error',
      message,
      createdId,
      reference: '',
    });
    const unread: Submission = {
      ...sent('rb_UNREAD', 'requisition', null),
      items: [{ clientinternalreq: 'REQ-9' }],
    };
    const csv = submissionsCsv(
      [batch, { ...unread, itemCount: 1 }],
      exportKinds,
      new Map([
        [
          'rb_"quoted",x',
          [row(2, 'Error', 'reqclassid: 999 is not a class', ''), row(1, 'Success', '', '40077')],
        ],
        ['rb_UNREAD', null],
      ]),
    );
    const parsed = Papa.parse<string[]>(csv.trim()).data;
    expect(parsed).toEqual([
      [
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
      [
        'rb_"quoted",x',
        '1',
        'requisition',
        'REQ-1',
        'Nurse, nights',
        '1001',
        '2026-11-23T10:00:00.000Z',
        'Success',
        '',
        '40077',
      ],
      [
        'rb_"quoted",x',
        '2',
        'requisition',
        'REQ-2',
        'Welder',
        '1001',
        '2026-11-23T10:00:00.000Z',
        'Error',
        'Req class ID (reqclassid): 999 is not a class',
        '',
      ],
      [
        'rb_UNREAD',
        '1',
        'requisition',
        'REQ-9',
        '',
        '1001',
        '2026-11-23T10:00:00.000Z',
        'results not read',
        '',
        '',
      ],
    ]);
  });
});
