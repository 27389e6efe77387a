import { describe, expect, it } from 'vitest';
import { resultRowsOf } from '@/core/batch/model/result-fields';
import { candidateKind } from './candidate-kind';

describe('candidateKind results', () => {
  it('reads Cand_Status, CandErrorMessage and Cand_Id as the real service names them', () => {
    const rows = resultRowsOf(candidateKind).parse([
      { Row: 1, Cand_Status: 'New', CandErrorMessage: '', Cand_Id: 700001 },
      { Row: '2', Cand_Status: 'Incomplete', CandErrorMessage: 'answer2 is blank', Cand_Id: '7' },
      { Row: 3, Status: 'Error', CandErrorMessage: 'Requisition 40005 is Closed', Cand_Id: null },
      { Row: 4, Status: 'Pending' },
    ]);
    expect(rows.map((row) => [row.status, row.tone, row.failed, row.pending])).toEqual([
      ['New', 'success', false, false],
      ['Incomplete', 'warning', false, false],
      ['Error', 'error', true, false],
      ['Pending', 'pending', false, true],
    ]);
    expect(rows[0]?.createdId).toBe('700001');
    expect(rows[2]?.message).toBe('Requisition 40005 is Closed');
  });

  it('refuses a row without any status, saying which field is missing', () => {
    const result = resultRowsOf(candidateKind).safeParse([{ Row: 1, Cand_Id: '' }]);
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.message).toMatch(/Cand_Status/);
  });

  it('summarises an item by e-mail, name and requisition, and edits it on its requisition', () => {
    const item = {
      firstname: 'Ada',
      lastname: 'Lovelace',
      candemail: 'ada@x.org',
      requirementid: '40001',
    };
    expect(candidateKind.summarize(item)).toMatchObject({
      badge: 'C',
      reference: 'ada@x.org',
      title: 'Ada Lovelace → Req ID 40001',
    });
    expect(candidateKind.formPath(item)).toBe('/candidates?reqId=40001');
  });
});
