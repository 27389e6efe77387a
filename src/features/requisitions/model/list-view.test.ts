import { describe, expect, it } from 'vitest';
import type { RequisitionRecord } from '@/domain';
import { blankRequisitionWire } from '@/domain';
import type { ListView } from './list-view';
import {
  listRows as rowsOf,
  nextSort,
  readSort,
  readStatuses,
  sortParams,
  statusParam,
  toggleStatus,
} from './list-view';

function record(
  reqId: string,
  changes: Partial<RequisitionRecord['fields']>,
  updatedAt = '',
): RequisitionRecord {
  return {
    reqId,
    createdAt: '2026-03-01T09:00:00Z',
    updatedAt,
    fields: { ...blankRequisitionWire(), ...changes } as RequisitionRecord['fields'],
  };
}

const records = [
  record(
    '40001',
    { titlerole: 'Java Developer', noofopenings: '3', reqstatus: '4' },
    '2026-03-02T23:59:59Z',
  ),
  record(
    '40002',
    { titlerole: 'data analyst', noofopenings: '10', reqstatus: '1' },
    '2026-03-03T00:00:00Z',
  ),
  record(
    '40010',
    { titlerole: 'Java Architect', noofopenings: '2', reqstatus: '4' },
    '2026-03-01T12:00:00Z',
  ),
];
const ids = (rows: RequisitionRecord[]) => rows.map((row) => row.reqId);
const none: ListView = {
  filter: null,
  search: '',
  sort: { key: 'reqId', direction: 'ascending' },
  statuses: [],
  onlySubmittable: false,
};
const today = '2026-11-23';
const listRows = (list: RequisitionRecord[], view: ListView) =>
  rowsOf(list, view, { dateFormat: 'YYYY-MM-DD', today });

describe('the requisition list on the local copy', () => {
  it('filters by Req ID numerically, as the VMS does', () => {
    expect(
      ids(
        listRows(records, { ...none, filter: { field: 'Req_Id', operator: '>', value: '40002' } }),
      ),
    ).toEqual(['40010']);
    expect(
      ids(
        listRows(records, { ...none, filter: { field: 'Req_Id', operator: '=', value: '40002' } }),
      ),
    ).toEqual(['40002']);
  });

  it('filters a date by whole UTC days and a date-time exactly', () => {
    const updated = (operator: '=' | '>' | '<=', value: string) =>
      ids(
        listRows(records, { ...none, filter: { field: 'Req_Updated_Date_Time', operator, value } }),
      );
    expect(updated('=', '2026-03-02')).toEqual(['40001']);
    expect(updated('>', '2026-03-02')).toEqual(['40002']);
    expect(updated('<=', '2026-03-02')).toEqual(['40001', '40010']);
    expect(updated('>', '2026-03-02T23:59:59Z')).toEqual(['40002']);
  });

  it('searches titles without regard to case', () => {
    expect(ids(listRows(records, { ...none, search: ' JAVA ' }))).toEqual(['40001', '40010']);
  });

  it('sorts numbers as numbers and text without regard to case, both ways', () => {
    const sorted = (key: 'openings' | 'title', direction: 'ascending' | 'descending') =>
      ids(listRows(records, { ...none, sort: { key, direction } }));
    expect(sorted('openings', 'ascending')).toEqual(['40010', '40001', '40002']);
    expect(sorted('openings', 'descending')).toEqual(['40002', '40001', '40010']);
    expect(sorted('title', 'ascending')).toEqual(['40002', '40010', '40001']);
  });

  it('keeps the sort in the address, and a second click flips it', () => {
    const sort = nextSort(readSort(new URLSearchParams()), 'updated');
    expect(sort).toEqual({ key: 'updated', direction: 'ascending' });
    const flipped = nextSort(sort, 'updated');
    expect(sortParams(flipped)).toEqual({ sort: 'updated', dir: 'desc' });
    expect(readSort(new URLSearchParams('sort=updated&dir=desc'))).toEqual(flipped);
    expect(readSort(new URLSearchParams('sort=nonsense'))).toEqual({
      key: 'reqId',
      direction: 'ascending',
    });
  });
});

describe('status chips and Only submittable', () => {
  const mixed = [
    record('40101', { reqstatus: '4', noofopenings: '2' }),
    record('40102', { reqstatus: '5', noofopenings: '1' }),
    record('40103', { reqstatus: '6', noofopenings: '1' }),
    record('40104', { reqstatus: '8', noofopenings: '1' }),
    record('40105', { reqstatus: '9', noofopenings: '1' }),
    record('40106', { reqstatus: '4', noofopenings: '0' }),
    record('40107', { reqstatus: '4', noofopenings: '1', nonewsubmittalsafter: '2026-11-22' }),
    record('40108', { reqstatus: '4', noofopenings: '1', nonewsubmittalsafter: today }),
  ];

  it('shows only the chosen statuses, any number of them', () => {
    expect(ids(listRows(mixed, { ...none, statuses: ['6', '9'] }))).toEqual(['40103', '40105']);
    expect(ids(listRows(mixed, none))).toHaveLength(mixed.length);
  });

  it('Only submittable keeps Open and Interview occurring with openings and time left', () => {
    expect(ids(listRows(mixed, { ...none, onlySubmittable: true }))).toEqual([
      '40101',
      '40102',
      '40108',
    ]);
  });

  it('keeps the chips in the address, in the catalog order, ignoring unknown codes', () => {
    const chosen = toggleStatus(toggleStatus([], '9'), '4');
    expect(chosen).toEqual(['4', '9']);
    expect(statusParam(chosen)).toBe('4,9');
    expect(readStatuses(new URLSearchParams('status=9,4,77'))).toEqual(['4', '9']);
    expect(statusParam(toggleStatus(chosen, '4'))).toBe('9');
    expect(statusParam([])).toBeNull();
  });
});
