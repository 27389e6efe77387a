import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  answerFromVms,
  dateTimeToOwn,
  dateTimeToVms,
  listRecordsFromVms,
  ownCallFromVms,
  sandboxProfile,
  vectorvmsProfile,
  vmsCallPath,
  withPage,
} from '@/domain/vms-profile';
import { profileFromSetting } from './profile-setting';

/*
 * Answers written by hand as another VMS would send them (not made by the sandbox), read with the
 * documented example profile; and the calls the portal makes, written the way that VMS wants.
 */
const reading = profileFromSetting(
  'VMS_PROFILE',
  'docs/examples/profile-other-vms.json',
  'YYYY-MM-DD',
);
if (!('profile' in reading)) throw new Error(reading.problem);
const other = reading.profile;
const orgs = 'Client_Org_Id=1001&Vendor_Org_Id=9001';

describe('the portal’s calls, as another VMS wants them', () => {
  it('puts the batch id in the path and keeps the org ids', () => {
    expect(vmsCallPath(other, 'candidateresults', `?${orgs}&batchid=cb 7/x`)).toBe(
      `api/v2/batches/cb%207%2Fx/candidate-results?${orgs}`,
    );
    expect(vmsCallPath(other, 'requisitionimport', `?${orgs}`)).toBe(
      `api/v2/requisitions/import?${orgs}`,
    );
  });

  it('renames the list filter, its field, and writes a date-time the VMS’s way', () => {
    expect(
      vmsCallPath(
        other,
        'requisitions',
        `?${orgs}&filterfield=Req_Updated_Date_Time&filteroperator=%3E%3D&filtervalue=2026-03-02T14%3A30%3A00Z`,
      ),
    ).toBe(
      `api/v2/requisitions?Client_Org_Id=1001&Vendor_Org_Id=9001&field=updated_at&op=%3E%3D&value=03%2F02%2F2026+14%3A30%3A00`,
    );
    expect(withPage(other, 'api/v2/requisitions?x=1', 2)).toBe(
      'api/v2/requisitions?x=1&page=3&per_page=50',
    );
  });

  it('leaves the sandbox’s own calls as they are', () => {
    const own = sandboxProfile();
    expect(vmsCallPath(own, 'requisitionresults', `?${orgs}&batchid=rb_1`)).toBe(
      `requisitionresults?batchid=rb_1&${orgs}`,
    );
  });
});

describe('another VMS’s answers, in the portal’s terms', () => {
  it('finds a nested batch id', () => {
    expect(
      answerFromVms(other, 'requisitionimport', 200, '{"data":{"batch":{"id":"B-77"}},"ok":true}'),
    ).toBe('{"batchid":"B-77"}');
    expect(answerFromVms(other, 'candidates', 200, '{"batchid":"B-77"}')).toEqual({
      unreadable: 'no batch id at "/data/batch/id" (accepted.batchId)',
    });
  });

  it('maps rows, status words and positions; an unknown word stays as the VMS wrote it', () => {
    const text = JSON.stringify({
      results: [
        { outcome: 'SUBMITTED', reason: null, candidateId: 9001, vendorCandidateRef: 'V-1' },
        {
          outcome: 'PARTIAL',
          reason: 'answer1 missing',
          candidateId: '9002',
          vendorCandidateRef: 'V-2',
        },
        { outcome: 'ON_HOLD', reason: '', candidateId: '', vendorCandidateRef: 'V-3' },
      ],
    });
    expect(
      JSON.parse(
        answerFromVms(other, 'candidateresults', 200, text, { batchId: 'cb_1' }) as string,
      ),
    ).toEqual([
      {
        Batch_Id: 'cb_1',
        Row: 1,
        Cand_Status: 'New',
        Status: 'New',
        CandErrorMessage: '',
        Cand_Id: '9001',
        Vendor_Candidate_Id: 'V-1',
      },
      {
        Batch_Id: 'cb_1',
        Row: 2,
        Cand_Status: 'Incomplete',
        Status: 'Incomplete',
        CandErrorMessage: 'answer1 missing',
        Cand_Id: '9002',
        Vendor_Candidate_Id: 'V-2',
      },
      {
        Batch_Id: 'cb_1',
        Row: 3,
        Cand_Status: 'ON_HOLD',
        Status: 'ON_HOLD',
        CandErrorMessage: '',
        Cand_Id: '',
        Vendor_Candidate_Id: 'V-3',
      },
    ]);
  });

  it('reads requisition rows by their own row numbers, in any order', () => {
    const text =
      '{"data":{"rows":[{"line":"2","state":"FAILED","detail":"bad","requisitionId":"","clientReference":"R-2"},{"line":1,"state":"QUEUED","detail":"","requisitionId":"","clientReference":"R-1"}]}}';
    const rows = JSON.parse(answerFromVms(other, 'requisitionresults', 200, text) as string);
    expect(rows.map((row: Record<string, unknown>) => [row.Row, row.Status])).toEqual([
      [2, 'Error'],
      [1, 'Pending'],
    ]);
  });

  it('reads records named as in the payload, with US dates and date-times', () => {
    const text = JSON.stringify({
      items: [
        {
          req_id: 40001,
          created_at: '01/05/2026 09:00:00',
          updated_at: '03/02/2026 14:30:00',
          titlerole: 'Nurse',
          startdate: '01/11/2027',
        },
      ],
    });
    expect(listRecordsFromVms(other, text)).toEqual([
      {
        Req_Id: '40001',
        Req_Created_Date_Time: '2026-01-05T09:00:00Z',
        Req_Updated_Date_Time: '2026-03-02T14:30:00Z',
        TitleRole: 'Nurse',
        StartDate: '01/11/2027',
      },
    ]);
    expect(listRecordsFromVms(other, '[]')).toEqual({
      unreadable: 'no array of records at "/items" (list.records)',
    });
  });

  it('takes an error’s message from where the profile says', () => {
    expect(answerFromVms(other, 'requisitions', 403, '{"fault":{"detail":"Not Authorized"}}')).toBe(
      '{"error":{"code":"vms_error","message":"Not Authorized"}}',
    );
    expect(answerFromVms(other, 'requisitions', 500, 'Internal error')).toEqual({
      unreadable: 'no error message at "/fault/detail" (errors.message)',
    });
  });
});

describe('date-times', () => {
  it('go between the portal’s ISO form and each VMS form', () => {
    const utc = (dateTimes: string) => ({ dateTimes, timeZone: 'UTC' });
    expect(dateTimeToOwn('1767603600', utc('unix-seconds'))).toBe('2026-01-05T09:00:00Z');
    expect(dateTimeToOwn('1767603600000', utc('unix-milliseconds'))).toBe('2026-01-05T09:00:00Z');
    expect(dateTimeToVms('2026-01-05T09:00:00Z', utc('unix-seconds'))).toBe('1767603600');
    expect(dateTimeToVms('2026-01-05', utc('MM/DD/YYYY HH:mm:ss'))).toBe('01/05/2026 00:00:00');
    expect(dateTimeToOwn('2026-01-05T10:00:00+01:00', utc('iso-8601'))).toBe(
      '2026-01-05T09:00:00Z',
    );
    expect(dateTimeToOwn('yesterday', utc('iso-8601'))).toBe('yesterday');
  });

  it('read a day-first VMS day first, and a 12-hour clock in its own time zone', () => {
    const dayFirst = { dateTimes: 'DD/MM/YYYY HH:mm:ss', timeZone: 'UTC' };
    expect(dateTimeToOwn('21/11/2026 09:30:00', dayFirst)).toBe('2026-11-21T09:30:00Z');
    expect(dateTimeToVms('2026-01-05T09:00:00Z', dayFirst)).toBe('05/01/2026 09:00:00');
    // New York is five hours behind UTC in January (EST) and four in July (EDT).
    const newYork = { dateTimes: 'M/D/YYYY h:mm A', timeZone: 'America/New_York' };
    expect(dateTimeToOwn('1/5/2026 4:00 AM', newYork)).toBe('2026-01-05T09:00:00Z');
    expect(dateTimeToOwn('7/4/2026 12:15 PM', newYork)).toBe('2026-07-04T16:15:00Z');
    expect(dateTimeToVms('2026-07-04T16:15:00Z', newYork)).toBe('7/4/2026 12:15 PM');
    // A filter on a date asks from the date's midnight where the VMS is.
    expect(dateTimeToVms('2026-07-04', newYork)).toBe('7/4/2026 12:00 AM');
  });

  it('never read a value the pattern does not write as another date', () => {
    const dayFirst = { dateTimes: 'DD/MM/YYYY HH:mm:ss', timeZone: 'UTC' };
    expect(dateTimeToOwn('31/02/2026 09:00:00', dayFirst)).toBe('31/02/2026 09:00:00');
    expect(dateTimeToOwn('11/21/2026 09:30:00', dayFirst)).toBe('11/21/2026 09:30:00');
  });
});

describe('the sandbox reading a call made in another profile', () => {
  it('finds the operation, the batch id and the page', () => {
    expect(
      ownCallFromVms(other, 'GET', `api/v2/batches/rb%201/requisition-results?${orgs}`),
    ).toEqual({
      operation: 'requisitionresults',
      query: `?${orgs}&batchid=rb+1`,
      page: null,
    });
    expect(
      ownCallFromVms(
        other,
        'GET',
        `api/v2/requisitions?${orgs}&page=3&per_page=50&field=req_id&op=%3D&value=40001`,
      ),
    ).toEqual({
      operation: 'requisitions',
      query: `?${orgs}&filterfield=Req_Id&filteroperator=%3D&filtervalue=40001`,
      page: { offset: 100, size: 50 },
    });
    expect(ownCallFromVms(other, 'POST', 'api/v2/requisitions')).toBeNull();
  });
});

describe('the presets', () => {
  it('the documented one differs from the sandbox only in candidate rows without numbers', () => {
    const sandbox = sandboxProfile();
    const documented = vectorvmsProfile();
    expect(documented.results.candidate.rowNumber).toBeNull();
    expect({ ...documented, results: sandbox.results }).toEqual(sandbox);
  });
});

describe('a profile’s dates', () => {
  const dir = mkdtempSync(join(tmpdir(), 'profile-dates-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const withDates = (dates: Record<string, string>) => {
    const file = join(dir, `${Math.random().toString(36).slice(2)}.json`);
    writeFileSync(file, JSON.stringify({ preset: 'sandbox', dates }));
    return profileFromSetting('SANDBOX_PROFILE', file, 'YYYY-MM-DD');
  };

  it('take patterns and a time zone; the others keep the preset’s', () => {
    const reading = withDates({
      records: 'DD.MM.YYYY',
      dateTimes: 'M/D/YYYY h:mm A',
      timeZone: 'America/New_York',
    });
    if (!('profile' in reading)) throw new Error(reading.problem);
    expect(reading.profile.dates).toEqual({
      outbound: 'YYYY-MM-DD',
      records: 'DD.MM.YYYY',
      dateTimes: 'M/D/YYYY h:mm A',
      timeZone: 'America/New_York',
    });
  });

  it.each([
    [{ records: 'DD/MM/YYY' }, /dates\.records must be a date pattern .*"YYY", which is no token/],
    [{ dateTimes: 'dd/MM/yyyy HH:mm' }, /dates\.dateTimes must be .*"dd", which is no token/],
    [{ outbound: 'DD/MM/YYYY HH:mm' }, /dates\.outbound must be a date pattern .*HH has no place/],
    [{ dateTimes: 'M/D/YYYY h:mm' }, /dates\.dateTimes .*without A \(AM or PM\)/],
    [
      { timeZone: 'Europe/Berlinn' },
      /dates\.timeZone must be an IANA time zone name: "Europe\/Berlinn"/,
    ],
  ])('%j is refused in one line naming the setting and the key', (dates, message) => {
    const reading = withDates(dates);
    expect('problem' in reading && reading.problem).toMatch(message);
    expect('problem' in reading && reading.problem.split('\n')).toHaveLength(1);
    expect('problem' in reading && reading.problem).toMatch(/^SANDBOX_PROFILE /);
  });
});
