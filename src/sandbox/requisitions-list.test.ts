import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requisitionResponseName, requisitionWireKeys } from '@/domain';
import type { TestSandbox } from '@/test-support/sandbox-client';
import { errorOf, startTestSandbox } from '@/test-support/sandbox-client';
import { requisitionInsert } from '@/test-support/test-data';

let sandbox: TestSandbox;
beforeAll(async () => {
  sandbox = await startTestSandbox();
});
afterAll(() => sandbox.close());

const ids = (records: ReadonlyArray<Record<string, string>>) =>
  records.map((r) => Number(r.Req_Id));

function filter(filterfield: string, filteroperator: string, filtervalue: string) {
  return { filterfield, filteroperator, filtervalue };
}

describe('GET /requisitions without a filter', () => {
  it("lists the client's requisitions, those of its sub-orgs included, in Req_Id order", async () => {
    expect(ids(await sandbox.listRequisitions())).toEqual([
      40001, 40002, 40003, 40004, 40005, 40006, 40007, 40008, 40009, 40010, 40011, 40012,
    ]);
    expect(ids(await sandbox.listRequisitions({ Client_Org_Id: 1002 }))).toEqual([
      40013, 40014, 40015, 40016, 40017, 40018, 40019, 40020,
    ]);
  });

  it('gives every payload field but requesttype, in PascalCase, and all values as strings', async () => {
    const [first] = await sandbox.listRequisitions();
    const expectedNames = [
      'Req_Id',
      'Req_Created_Date_Time',
      'Req_Updated_Date_Time',
      ...requisitionWireKeys.filter((key) => key !== 'requesttype').map(requisitionResponseName),
    ];
    expect(Object.keys(first ?? {})).toEqual(expectedNames);
    expect(first).toMatchObject({
      Req_Id: '40001',
      Req_Created_Date_Time: '2026-01-05T09:00:00Z',
      Req_Updated_Date_Time: '2026-03-02T14:30:00Z',
      ClientInternalReq: 'NW-REQ-0001',
      TitleRole: 'Senior Java Developer',
      BillRangeFrom: '95.00',
      BillRangeTo: '75.00',
      ReqStatus: '4',
      StartDate: '2027-01-11',
      SkillDescription3: 'Kubernetes',
      QuestionDescription3: '',
    });
  });
});

describe('filters', () => {
  it('filters on Req_Id with each operator', async () => {
    expect(ids(await sandbox.listRequisitions(filter('Req_Id', '=', '40003')))).toEqual([40003]);
    expect(ids(await sandbox.listRequisitions(filter('Req_Id', '>', '40010')))).toEqual([
      40011, 40012,
    ]);
    expect(ids(await sandbox.listRequisitions(filter('Req_Id', '>=', '40011')))).toEqual([
      40011, 40012,
    ]);
    expect(ids(await sandbox.listRequisitions(filter('Req_Id', '<', '40003')))).toEqual([
      40001, 40002,
    ]);
    expect(ids(await sandbox.listRequisitions(filter('Req_Id', '<=', '40002')))).toEqual([
      40001, 40002,
    ]);
  });

  it('filters on the created time by whole UTC days when given a date', async () => {
    expect(
      ids(await sandbox.listRequisitions(filter('Req_Created_Date_Time', '=', '2026-03-03'))),
    ).toEqual([40003]);
    expect(
      ids(await sandbox.listRequisitions(filter('Req_Created_Date_Time', '<', '2026-02-10'))),
    ).toEqual([40001]);
    expect(
      ids(await sandbox.listRequisitions(filter('Req_Created_Date_Time', '<=', '2026-02-10'))),
    ).toEqual([40001, 40002]);
    expect(
      ids(await sandbox.listRequisitions(filter('Req_Created_Date_Time', '>', '2026-09-08'))),
    ).toEqual(expect.arrayContaining([40012]));
    expect(
      ids(await sandbox.listRequisitions(filter('Req_Created_Date_Time', '>', '2026-09-08'))),
    ).not.toContain(40011);
  });

  it('filters on the updated time exactly when given a date-time', async () => {
    const updated = await sandbox.listRequisitions(
      filter('Req_Updated_Date_Time', '>=', '2026-03-02T14:30:00Z'),
    );
    expect(ids(updated)).toContain(40001);
    const after = await sandbox.listRequisitions(
      filter('Req_Updated_Date_Time', '>', '2026-03-02T14:30:00Z'),
    );
    expect(ids(after)).not.toContain(40001);
  });

  it('finds a requisition inserted just now by its updated time', async () => {
    const since = new Date(Date.now() - 2000).toISOString().replace(/\.\d{3}Z$/, 'Z');
    const [row] = await sandbox.importRequisitions([requisitionInsert()]);
    const recent = await sandbox.listRequisitions(filter('Req_Updated_Date_Time', '>=', since));
    expect(ids(recent)).toEqual([Number(row?.Req_Id)]);
  });

  it.each([
    [
      filter('Title', '=', 'x'),
      'invalid_parameter',
      /^filterfield 'Title' is not a field you can filter on; use one of Req_Id, Req_Created_Date_Time, Req_Updated_Date_Time/,
    ],
    [
      filter('Req_Id', '!=', '1'),
      'invalid_parameter',
      /^filteroperator '!=' is not supported; use one of = > >= < <=/,
    ],
    [filter('Req_Id', '=', 'abc'), 'invalid_parameter', /^filtervalue 'abc' is not a Req_Id/],
    [
      filter('Req_Created_Date_Time', '=', '2026-02-30'),
      'invalid_parameter',
      /^filtervalue '2026-02-30' is not a date or a date-time; .*YYYY-MM-DD or YYYY-MM-DDTHH:MM:SSZ/,
    ],
    [
      filter('Req_Updated_Date_Time', '>', '2026-03-02 14:30'),
      'invalid_parameter',
      /^filtervalue '2026-03-02 14:30' is not a date/,
    ],
    [
      { filterfield: 'Req_Id', filteroperator: '=' },
      'missing_parameter',
      /^The query parameter filtervalue is missing; filterfield, filteroperator and filtervalue go together/,
    ],
    [
      { filtervalue: '1' },
      'missing_parameter',
      /^The query parameter filterfield and filteroperator are missing/,
    ],
  ])('refuses %j with 400 %s', async (query, code, message) => {
    const result = await sandbox.call('/requisitions', { query });
    expect(result.status).toBe(400);
    expect(errorOf(result).code).toBe(code);
    expect(errorOf(result).message).toMatch(message);
  });
});

describe('the configured date format', () => {
  it('writes and reads DATE values as MM/DD/YYYY when so configured', async () => {
    const us = await startTestSandbox({ dateFormat: 'MM/DD/YYYY' });
    try {
      expect((await us.requisition(40001)).StartDate).toBe('01/11/2027');
      const item = requisitionInsert({ startdate: '03/01/2027', enddate: '06/30/2027' });
      const [row] = await us.importRequisitions([item]);
      expect(row?.Status).toBe('Success');
      expect(await us.requisition(row?.Req_Id ?? '')).toMatchObject({
        StartDate: '03/01/2027',
        EndDate: '06/30/2027',
      });
      const [wrong] = await us.importRequisitions([
        requisitionInsert({ startdate: '2027-03-01', enddate: '' }),
      ]);
      expect(wrong?.ErrorMessage).toMatch(/^startdate: .*MM\/DD\/YYYY/);
    } finally {
      await us.close();
    }
  });
});
