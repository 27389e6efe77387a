import { describe, expect, it } from 'vitest';
import { RequisitionAnswers } from './requisition-answers';
import { blankRequisitionRecord } from './requisition-record';
import type { RequisitionRow } from './store';

function row(
  reqId: number,
  fields: { title: string; startdate?: string },
  updatedAt = '2026-03-02T14:30:00Z',
): RequisitionRow {
  const record = { ...blankRequisitionRecord(), titlerole: fields.title };
  if (fields.startdate) record.startdate = fields.startdate;
  return {
    reqId,
    clientOrgId: 1001,
    orgId: 1001,
    clientInternalReq: `REQ-${reqId}`,
    createdAt: '2026-01-05T09:00:00Z',
    updatedAt,
    record: JSON.stringify(record),
  };
}

const listed = (answers: RequisitionAnswers, rows: RequisitionRow[]) =>
  JSON.parse(answers.list(rows)) as Array<Record<string, string>>;

describe('RequisitionAnswers', () => {
  it('writes each row as GET /requisitions answers it, in the order given, dates in the format', () => {
    const answers = new RequisitionAnswers('MM/DD/YYYY');
    const records = listed(answers, [
      row(40002, { title: 'Data engineer' }),
      row(40001, { title: 'Java developer', startdate: '2027-01-11' }),
    ]);
    expect(records.map((record) => record.Req_Id)).toEqual(['40002', '40001']);
    expect(records[1]).toMatchObject({
      Req_Id: '40001',
      Req_Created_Date_Time: '2026-01-05T09:00:00Z',
      Req_Updated_Date_Time: '2026-03-02T14:30:00Z',
      TitleRole: 'Java developer',
      StartDate: '01/11/2027',
    });
    expect(records[0]?.StartDate).toBe('');
    expect(answers.list([])).toBe('[]');
  });

  it('answers a row changed since with the change, though its Req ID and dates are the same', () => {
    const answers = new RequisitionAnswers('YYYY-MM-DD');
    expect(listed(answers, [row(40001, { title: 'Before' })])[0]?.TitleRole).toBe('Before');
    expect(listed(answers, [row(40001, { title: 'After' })])[0]?.TitleRole).toBe('After');
    expect(
      listed(answers, [row(40001, { title: 'After' }, '2026-03-03T08:00:00Z')])[0]
        ?.Req_Updated_Date_Time,
    ).toBe('2026-03-03T08:00:00Z');
  });

  it('keeps at most its limit, and answers rows it let go of as well as those it kept', () => {
    const one = JSON.stringify(
      JSON.parse(new RequisitionAnswers('YYYY-MM-DD').list([row(1, { title: 'x' })]))[0],
    ).length;
    const answers = new RequisitionAnswers('YYYY-MM-DD', one * 2);
    const rows = [1, 2, 3, 4, 5].map((reqId) => row(reqId, { title: `Role ${reqId}` }));
    expect(listed(answers, rows).map((record) => record.TitleRole)).toEqual(
      rows.map((_, index) => `Role ${index + 1}`),
    );
    expect(answers.keptLength).toBeGreaterThan(0);
    expect(answers.keptLength).toBeLessThanOrEqual(one * 2);
    expect(listed(answers, rows.slice(0, 1))[0]?.TitleRole).toBe('Role 1');
  });
});
