import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  listRecordsFromVms,
  listTotalFromVms,
  ownCallFromVms,
  vmsCallPath,
  type VmsProfile,
} from '@/domain/vms-profile';
import { profileFromSetting } from './profile-setting';

/*
 * A list in another dialect, in each way the profile's list keys describe (operator words,
 * camelCase records, a count of all records), read from SANDBOX_PROFILE as `npm run sandbox` and
 * the portal read it; and answers written by hand as such a VMS would send them.
 */

const dir = mkdtempSync(join(tmpdir(), 'profile-list-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function read(change: Record<string, unknown>) {
  const file = join(dir, `${Math.random().toString(36).slice(2)}.json`);
  writeFileSync(file, JSON.stringify({ preset: 'sandbox', ...change }));
  return profileFromSetting('SANDBOX_PROFILE', file, 'YYYY-MM-DD');
}

const words = { '=': 'eq', '>': 'gt', '>=': 'ge', '<': 'lt', '<=': 'le' };
const listKeys = {
  records: '/data',
  fieldNames: 'camelCase',
  total: '/meta/total',
  fullReadEvery: { refreshes: 10, minutes: 60 },
  filter: {
    field: 'filterfield',
    operator: 'filteroperator',
    value: 'filtervalue',
    operators: words,
  },
};

function profile(): VmsProfile {
  const reading = read({ list: listKeys });
  if (!('profile' in reading)) throw new Error(reading.problem);
  return reading.profile;
}

const orgs = 'Client_Org_Id=1001&Vendor_Org_Id=9001';

describe('a profile’s list keys from SANDBOX_PROFILE', () => {
  it('take operator words, camelCase, a total and how often to read whole', () => {
    expect(profile().list).toMatchObject({
      fieldNames: 'camelCase',
      total: '/meta/total',
      fullReadEvery: { refreshes: 10, minutes: 60 },
      filter: { operators: words },
    });
  });

  it.each([
    [
      { ...listKeys, fieldNames: 'snake_case' },
      /list\.fieldNames must be "PascalCase", "camelCase" or "payload"/,
    ],
    [{ ...listKeys, total: 'meta/total' }, /list\.total must be a JSON Pointer/],
    [{ ...listKeys, records: '' }, /list\.total needs list\.records to point into the answer/],
    [
      { ...listKeys, fullReadEvery: { refreshes: 10, minutes: 2000 } },
      /list\.fullReadEvery\.minutes must be 1,440 \(a day\) or less/,
    ],
    [
      { ...listKeys, filter: { ...listKeys.filter, operators: { ...words, '<': 'eq' } } },
      /list\.filter\.operators must give each operator a word of its own/,
    ],
    [
      { ...listKeys, filter: { ...listKeys.filter, operators: { '=': 'eq' } } },
      /list\.filter\.operators must give the VMS's word for ">"/,
    ],
  ])('refuse %j in one line naming the key', (list, message) => {
    const reading = read({ list });
    expect('problem' in reading && reading.problem).toMatch(message);
    expect('problem' in reading && reading.problem).toMatch(/^SANDBOX_PROFILE /);
  });
});

describe('a list answer written by hand in that dialect', () => {
  const answer = JSON.stringify({
    data: [
      {
        Req_Id: 40001,
        Req_Created_Date_Time: '2026-01-05T09:00:00Z',
        Req_Updated_Date_Time: '2026-03-02T14:30:00Z',
        titleRole: 'Night nurse',
        noOfOpenings: '2',
        billRangeFrom: '40.00',
      },
    ],
    meta: { total: 134 },
  });

  it('reads camelCase fields into the interface’s names', () => {
    expect(listRecordsFromVms(profile(), answer)).toEqual([
      {
        Req_Id: '40001',
        Req_Created_Date_Time: '2026-01-05T09:00:00Z',
        Req_Updated_Date_Time: '2026-03-02T14:30:00Z',
        TitleRole: 'Night nurse',
        NoOfOpenings: '2',
        BillRangeFrom: '40.00',
      },
    ]);
  });

  it('reads the count as a number, written as one or as digits, and says where none was', () => {
    expect(listTotalFromVms(profile(), answer)).toBe(134);
    expect(listTotalFromVms(profile(), '{"data": [], "meta": {"total": "7"}}')).toBe(7);
    expect(listTotalFromVms(profile(), '{"data": [], "meta": {"count": 7}}')).toEqual({
      unreadable: 'no count of records at "/meta/total" (list.total)',
    });
    expect(listTotalFromVms(profile(), '{"data": [], "meta": {"total": -1}}')).toHaveProperty(
      'unreadable',
    );
  });
});

describe('the filter’s operators', () => {
  it('are written as the VMS’s words', () => {
    expect(
      vmsCallPath(
        profile(),
        'requisitions',
        `?${orgs}&filterfield=Req_Id&filteroperator=%3E%3D&filtervalue=40001`,
      ),
    ).toBe(`requisitions?${orgs}&filterfield=Req_Id&filteroperator=ge&filtervalue=40001`);
  });

  it('are read back by the sandbox as the portal’s, and a word the VMS lacks stays no operator', () => {
    const own = ownCallFromVms(
      profile(),
      'GET',
      `requisitions?${orgs}&filterfield=Req_Id&filteroperator=le&filtervalue=1`,
    );
    expect(new URLSearchParams(own?.query).get('filteroperator')).toBe('<=');
    const symbol = ownCallFromVms(
      profile(),
      'GET',
      `requisitions?${orgs}&filterfield=Req_Id&filteroperator=%3D&filtervalue=1`,
    );
    expect(new URLSearchParams(symbol?.query).get('filteroperator')).not.toBe('=');
  });
});
