import { describe, expect, it } from 'vitest';
import { countStatuses } from '@/domain/batch-results';
import type { Submission } from './submissions-state';
import {
  MAX_SUBMISSIONS,
  addSubmission,
  describeOutcome,
  recordOutcome,
  resentRows,
  shedOldItems,
  submissionsSchema,
} from './submissions-state';

const submission = (batchId: string, items = 1): Submission => ({
  batchId,
  kind: 'requisition',
  clientOrgId: 1001,
  vendorOrgId: 9001,
  sentAt: '2026-11-21T10:00:00Z',
  itemCount: items,
  items: Array.from({ length: items }, (_, i) => ({ titlerole: `t${i}` })),
  finalCounts: null,
});

describe('submissions history', () => {
  it('keeps batches newest first, once each, and at most MAX_SUBMISSIONS', () => {
    let list = [submission('rb_1'), submission('rb_2')];
    list = addSubmission(list, submission('rb_3'));
    list = addSubmission(list, submission('rb_1'));
    expect(list.map((entry) => entry.batchId)).toEqual(['rb_1', 'rb_3', 'rb_2']);
    const many = Array.from({ length: MAX_SUBMISSIONS + 5 }, (_, i) => submission(`rb_${i}`));
    expect(many.reduce(addSubmission, [] as Submission[])).toHaveLength(MAX_SUBMISSIONS);
  });

  it('records the final outcome and describes it', () => {
    const counts = countStatuses([
      {
        row: 1,
        status: 'Success',
        tone: 'success',
        pending: false,
        failed: false,
        message: '',
        createdId: '1',
        reference: '',
      },
      {
        row: 2,
        status: 'Error',
        tone: 'error',
        pending: false,
        failed: true,
        message: 'x',
        createdId: '',
        reference: '',
      },
      {
        row: 3,
        status: 'Success',
        tone: 'success',
        pending: false,
        failed: false,
        message: '',
        createdId: '2',
        reference: '',
      },
    ]);
    expect(counts).toEqual({ Success: 2, Error: 1 });
    const [first] = recordOutcome([submission('rb_1')], 'rb_1', counts);
    expect(describeOutcome(first!)).toBe('2 Success, 1 Error');
    expect(describeOutcome(submission('rb_2'))).toBe('Accepted; results pending');
  });

  it('sheds the stored items of the oldest half when storage is full', () => {
    const list = [submission('a', 2), submission('b', 2), submission('c', 2), submission('d', 2)];
    const shed = shedOldItems(list)!;
    expect(shed.map((entry) => entry.items.length)).toEqual([2, 2, 0, 0]);
    expect(shed[3]?.itemsDropped).toBe(true);
    expect(shedOldItems(shed.map((entry) => ({ ...entry, items: [] })))).toBeNull();
  });

  it('parses what it stores', () => {
    expect(submissionsSchema.safeParse([submission('rb_1')]).success).toBe(true);
    expect(submissionsSchema.safeParse([{ batchId: 'rb_1' }]).success).toBe(false);
  });
});

describe('resent rows', () => {
  it('names, for each resent row of a batch, the newest batch that sent it again', () => {
    const first = { ...submission('rb_1', 3) };
    const fixOne = {
      ...submission('rb_2', 1),
      resendOf: [{ batchId: 'rb_1', row: 3, message: 'refused' }],
    };
    const fixBoth = {
      ...submission('rb_3', 3),
      resendOf: [
        { batchId: 'rb_1', row: 2, message: 'refused' },
        null,
        { batchId: 'rb_1', row: 3, message: 'refused' },
      ],
    };
    const list = [fixBoth, fixOne, first]; // newest first, as stored
    expect([...resentRows(list, 'rb_1')].sort()).toEqual([
      [2, 'rb_3'],
      [3, 'rb_3'],
    ]);
    expect(resentRows(list, 'rb_2').size).toBe(0);
    expect(submissionsSchema.parse(JSON.parse(JSON.stringify(list)))).toEqual(list);
  });
});
