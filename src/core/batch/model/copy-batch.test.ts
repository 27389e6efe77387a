import { describe, expect, it } from 'vitest';
import type { FieldIssue } from '@/domain';
import { planCopy } from './copy-batch';
import type { TrayItem } from './tray-state';

const kind = {
  id: 'requisition' as const,
  // The other connection's check: a start date it cannot read is a problem.
  itemIssues: (item: unknown, { dateFormat }: { dateFormat: string }): FieldIssue[] =>
    dateFormat === 'MM/DD/YYYY' &&
    (item as Record<string, string>).startdate !== undefined &&
    !/^\d{2}\/\d{2}\/\d{4}$/.test((item as Record<string, string>).startdate ?? '')
      ? [{ key: 'startdate', message: 'not a date' } as unknown as FieldIssue]
      : [],
};

let next = 0;
const newId = () => `new-${(next += 1)}`;

describe('planCopy', () => {
  it('writes the dates as the other VMS reads them, gives new ids and leaves Amends behind', () => {
    const items: TrayItem[] = [
      {
        id: 'a',
        wire: { titlerole: 'Welder 2027-02-01', startdate: '2027-02-01', enddate: '2027-07-30' },
        addedAt: '2026-11-01T00:00:00.000Z',
        resendOf: { batchId: 'rb_1', row: 2, message: 'x' } as TrayItem['resendOf'],
      },
      {
        id: 'b',
        wire: { reqid: '40001', titlerole: 'Amended' },
        addedAt: '2026-11-01T00:00:00.000Z',
        loaded: { reqid: '40001' } as unknown as TrayItem['loaded'],
      },
      { id: 'c', wire: { startdate: 'soon' }, addedAt: '2026-11-01T00:00:00.000Z' },
    ];
    const plan = planCopy(
      kind,
      items,
      'YYYY-MM-DD',
      'MM/DD/YYYY',
      '2026-11-27T00:00:00.000Z',
      newId,
    );
    expect(plan.copied).toEqual([
      {
        id: 'new-1',
        // Only DATE fields are rewritten: a title that looks like a date is text.
        wire: { titlerole: 'Welder 2027-02-01', startdate: '02/01/2027', enddate: '07/30/2027' },
        addedAt: '2026-11-27T00:00:00.000Z',
      },
      { id: 'new-2', wire: { startdate: 'soon' }, addedAt: '2026-11-27T00:00:00.000Z' },
    ]);
    expect(plan.amendsLeft).toBe(1);
    expect(plan.needFixing).toBe(1);
    // The tray copied from is not touched.
    expect(items[0]?.wire.startdate).toBe('2027-02-01');
  });
});
