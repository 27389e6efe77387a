import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RequisitionWire } from '@/domain';
import type { RequisitionResultRow, TestSandbox } from '@/test-support/sandbox-client';
import { startTestSandbox } from '@/test-support/sandbox-client';
import { contosoRequisitionInsert, requisitionInsert } from '@/test-support/test-data';

let sandbox: TestSandbox;
beforeAll(async () => {
  sandbox = await startTestSandbox();
});
afterAll(() => sandbox.close());

async function insert(
  item: RequisitionWire,
  clientOrgId = Number(item.orgid === '1002' ? 1002 : 1001),
): Promise<RequisitionResultRow> {
  const [row] = await sandbox.importRequisitions([item], { query: { Client_Org_Id: clientOrgId } });
  if (!row) throw new Error('no result row');
  return row;
}

/** Inserts, expects Success and returns the stored requisition as GET /requisitions lists it. */
async function inserted(item: RequisitionWire): Promise<Record<string, string>> {
  const row = await insert(item);
  expect(row).toMatchObject({ Status: 'Success', ErrorMessage: '' });
  return sandbox.requisition(row.Req_Id, item.orgid === '1002' ? 1002 : 1001);
}

async function refused(item: RequisitionWire): Promise<string> {
  const row = await insert(item);
  expect(row.Status).toBe('Error');
  expect(row.Req_Id).toBe('');
  return row.ErrorMessage;
}

describe('local rules from src/domain', () => {
  it('refuses an item the domain refuses, every issue as "field: message"', async () => {
    const item: Record<string, string> = {
      ...requisitionInsert({ titlerole: '' }),
      titleRole: 'x',
    };
    const row = await sandbox.importRequisitions([item]);
    expect(row[0]?.Status).toBe('Error');
    expect(row[0]?.ErrorMessage).toMatch(/titlerole: Job title is required for Insert/);
    expect(row[0]?.ErrorMessage).toMatch(
      /titleRole: titleRole is not a requisition field; did you mean titlerole\?/,
    );
  });

  it('refuses reqstatus on Insert', async () => {
    expect(await refused(requisitionInsert({ reqstatus: '5' }))).toMatch(/^reqstatus: /);
  });
});

describe('rule 1: the req class is one of the org', () => {
  it('takes reqclassid and stores its full path too', async () => {
    const stored = await inserted(requisitionInsert({ reqclassid: '103' }));
    expect(stored).toMatchObject({
      ReqClassId: '103',
      FullReqPath: 'IT|Infrastructure|Network Engineer',
    });
  });

  it('takes fullreqpath and stores its id too', async () => {
    const stored = await inserted(
      requisitionInsert({ reqclassid: '', fullreqpath: 'IT|Software|QA Analyst' }),
    );
    expect(stored).toMatchObject({ ReqClassId: '102', FullReqPath: 'IT|Software|QA Analyst' });
  });

  it('resolves a path within the org: the same path is another id in 1002', async () => {
    const stored = await inserted(
      contosoRequisitionInsert({ reqclassid: '', fullreqpath: 'IT|Software|Developer' }),
    );
    expect(stored.ReqClassId).toBe('203');
  });

  it('refuses a reqclassid that is not a req class of the org', async () => {
    expect(await refused(requisitionInsert({ reqclassid: '77' }))).toMatch(
      /^reqclassid: 77 is not a req class of org 1001; use one of 101 \(IT\|Software\|Developer\)/,
    );
    // 201 exists, but in client org 1002.
    expect(await refused(requisitionInsert({ reqclassid: '201' }))).toMatch(
      /^reqclassid: 201 is not a req class of org 1001/,
    );
  });

  it('refuses a full path that is not one of the org, or differs in case', async () => {
    expect(
      await refused(
        requisitionInsert({
          reqclassid: '',
          fullreqpath: 'Engineering|Mechanical|Design Engineer',
        }),
      ),
    ).toMatch(
      /^fullreqpath: 'Engineering\|Mechanical\|Design Engineer' is not the full path of a req class of org 1001/,
    );
    expect(
      await refused(requisitionInsert({ reqclassid: '', fullreqpath: 'it|software|developer' })),
    ).toMatch(/^fullreqpath: /);
  });

  it('accepts both when they agree and refuses both when they do not', async () => {
    await inserted(requisitionInsert({ reqclassid: '101', fullreqpath: 'IT|Software|Developer' }));
    expect(
      await refused(
        requisitionInsert({ reqclassid: '101', fullreqpath: 'IT|Software|QA Analyst' }),
      ),
    ).toMatch(/^fullreqpath: 'IT\|Software\|QA Analyst' is req class 102, but reqclassid is 101/);
  });
});

describe('orgid', () => {
  it('accepts the client org and its sub-orgs', async () => {
    expect((await inserted(requisitionInsert({ orgid: '1011' }))).OrgId).toBe('1011');
    expect((await inserted(requisitionInsert({ orgid: '1012' }))).OrgId).toBe('1012');
  });

  it('refuses another org', async () => {
    const row = await insert(requisitionInsert({ orgid: '1002' }), 1001);
    expect(row.ErrorMessage).toMatch(
      /^orgid: 1002 is not client org 1001 or one of its sub-orgs; use 1001, 1011, or 1012/,
    );
  });
});

describe('rule 2: clientinternalreq is unique within the client', () => {
  it('refuses a reference a seeded requisition has', async () => {
    expect(await refused(requisitionInsert({ clientinternalreq: 'NW-REQ-0001' }))).toMatch(
      /^clientinternalreq: 'NW-REQ-0001' is already used by requisition 40001 of client org 1001; .*requesttype A/,
    );
  });

  it('refuses the second of two items with one reference in the same batch', async () => {
    const item = requisitionInsert();
    const rows = await sandbox.importRequisitions([item, { ...item, titlerole: 'Again' }]);
    expect(rows.map((row) => row.Status)).toEqual(['Success', 'Error']);
    expect(rows[1]?.ErrorMessage).toMatch(/^clientinternalreq: .* already used by requisition/);
  });

  it('allows the same reference in another client', async () => {
    await inserted(contosoRequisitionInsert({ clientinternalreq: 'NW-REQ-0001' }));
  });
});

describe('rule 3: people match a user profile exactly', () => {
  it('finds the owner by user id, by client internal id, or by first and last name', async () => {
    expect(await inserted(requisitionInsert({ reqownerid: 'dchen' }))).toMatchObject({
      ReqOwnerId: 'dchen',
      ReqOwnerFirstName: 'David',
      ReqOwnerLastName: 'Chen',
    });
    expect((await inserted(requisitionInsert({ reqownerid: 'NW-E-0002' }))).ReqOwnerId).toBe(
      'dchen',
    );
    const byName = await inserted(
      requisitionInsert({
        reqownerid: '',
        reqownerfirstname: 'Patience',
        reqownerlastname: 'Okafor',
      }),
    );
    expect(byName.ReqOwnerId).toBe('pokafor');
  });

  it('refuses an id no profile has', async () => {
    expect(await refused(requisitionInsert({ reqownerid: 'nobody' }))).toMatch(
      /^reqownerid: 'nobody' is not the user ID or client internal ID of any user of client org 1001/,
    );
  });

  it('refuses a name that differs from the profile in case', async () => {
    expect(
      await refused(
        requisitionInsert({
          reqownerid: '',
          reqownerfirstname: 'maria',
          reqownerlastname: 'reyes',
        }),
      ),
    ).toMatch(/^reqownerfirstname: no user of client org 1001 is named 'maria reyes'/);
  });

  it('refuses a name two profiles share, asking for the id', async () => {
    expect(
      await refused(
        requisitionInsert({
          reqownerid: '',
          reqownerfirstname: 'Alex',
          reqownerlastname: 'Morgan',
        }),
      ),
    ).toMatch(
      /^reqownerfirstname: 2 users of client org 1001 are named 'Alex Morgan'; identify .* by reqownerid \(amorgan or amorgan2\)/,
    );
    expect((await inserted(requisitionInsert({ reqownerid: 'amorgan2' }))).ReqOwnerLastName).toBe(
      'Morgan',
    );
  });

  it('accepts id and names that agree and refuses ones that do not', async () => {
    await inserted(
      requisitionInsert({
        reqownerid: 'mreyes',
        reqownerfirstname: 'Maria',
        reqownerlastname: 'Reyes',
      }),
    );
    expect(
      await refused(
        requisitionInsert({
          reqownerid: 'mreyes',
          reqownerfirstname: 'David',
          reqownerlastname: 'Chen',
        }),
      ),
    ).toMatch(
      /^reqownerfirstname: 'David' does not match reqownerid 'mreyes', whose profile is Maria Reyes/,
    );
  });

  it('checks the client contact and reports-to user the same way', async () => {
    expect(await refused(requisitionInsert({ clientcontactid: 'ghost' }))).toMatch(
      /^clientcontactid: 'ghost'/,
    );
    expect(await refused(requisitionInsert({ reportstoid: 'tbrooks' }))).toMatch(
      /^reportstoid: 'tbrooks'/,
    );
  });
});

describe('rules 4 and 5: contact and reports-to default to the owner on Insert', () => {
  it('uses the owner when all their fields are blank', async () => {
    expect(await inserted(requisitionInsert({ reqownerid: 'jlindqvist' }))).toMatchObject({
      ClientContactId: 'jlindqvist',
      ClientContactFirstName: 'Johan',
      ReportsToId: 'jlindqvist',
      ReportsToLastName: 'Lindqvist',
    });
  });

  it('keeps a contact and a reports-to user that are given', async () => {
    const stored = await inserted(
      requisitionInsert({
        reqownerid: 'mreyes',
        clientcontactfirstname: 'David',
        clientcontactlastname: 'Chen',
        reportstoid: 'NW-E-0003',
      }),
    );
    expect(stored).toMatchObject({
      ReqOwnerId: 'mreyes',
      ClientContactId: 'dchen',
      ReportsToId: 'pokafor',
    });
  });
});

describe('rule 8: location, cost center, GL and project by code or id, in the org', () => {
  it.each([
    ['worklocation', 'WL-NYC', '302', 'WorkLocation'],
    ['costcenter', 'CC-FIN-300', '403', 'CostCenter'],
    ['gl', 'GL-6200', '502', 'Gl'],
    ['project', 'PRJ-CLOUD', '602', 'Project'],
  ] as const)(
    '%s: a code or an id resolves to both; an unknown one is refused',
    async (kind, code, id, name) => {
      const byCode = await inserted(requisitionInsert({ [`${kind}refcode`]: code }));
      expect(byCode[`${name}Id`]).toBe(id);
      const byId = await inserted(requisitionInsert({ [`${kind}id`]: id }));
      expect(byId[`${name}RefCode`]).toBe(code);
      expect(await refused(requisitionInsert({ [`${kind}refcode`]: 'NOPE' }))).toMatch(
        new RegExp(
          `^${kind}refcode: 'NOPE' is not a .* reference code of client org 1001; use one of`,
        ),
      );
      expect(await refused(requisitionInsert({ [`${kind}id`]: '999' }))).toMatch(
        new RegExp(`^${kind}id: 999 is not a`),
      );
    },
  );

  it('refuses a code and an id that name different entries, and a code of another client', async () => {
    expect(
      await refused(requisitionInsert({ worklocationrefcode: 'WL-BOS', worklocationid: '302' })),
    ).toMatch(/^worklocationid: 302 is work location WL-NYC, but worklocationrefcode is 'WL-BOS'/);
    expect(await refused(requisitionInsert({ worklocationrefcode: 'WL-DET' }))).toMatch(
      /^worklocationrefcode: 'WL-DET'/,
    );
  });
});

describe('defaults on Insert', () => {
  it('sets a blank reqpriority to 2 and keeps a given one', async () => {
    expect((await inserted(requisitionInsert())).ReqPriority).toBe('2');
    expect((await inserted(requisitionInsert({ reqpriority: '1' }))).ReqPriority).toBe('1');
  });

  it('starts every inserted requisition Open (4) and stamps both times', async () => {
    const stored = await inserted(requisitionInsert());
    expect(stored.ReqStatus).toBe('4');
    expect(stored.Req_Created_Date_Time).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/);
    expect(stored.Req_Updated_Date_Time).toBe(stored.Req_Created_Date_Time);
  });
});

describe('nottoexceedratecode', () => {
  it('is required for a client that lets engagements exceed the hourly high', async () => {
    expect(await refused(contosoRequisitionInsert({ nottoexceedratecode: '' }))).toMatch(
      /^nottoexceedratecode: is required because client org 1002 lets new engagements exceed the hourly high; use one of 1 \(Approved by hiring manager\)/,
    );
    expect(
      (await inserted(contosoRequisitionInsert({ nottoexceedratecode: '2' }))).NotToExceedRateCode,
    ).toBe('2');
  });

  it("must be one of the client's codes", async () => {
    expect(await refused(contosoRequisitionInsert({ nottoexceedratecode: '9' }))).toMatch(
      /^nottoexceedratecode: 9 is not a not-to-exceed rate code of client org 1002/,
    );
  });

  it('is not needed, and not accepted, where the setting is off', async () => {
    await inserted(requisitionInsert({ nottoexceedratecode: '' }));
    expect(await refused(requisitionInsert({ nottoexceedratecode: '1' }))).toMatch(
      /^nottoexceedratecode: client org 1001 has no not-to-exceed rate codes; leave nottoexceedratecode blank/,
    );
  });
});

describe("the client's configured lists", () => {
  it('takes a rate structure and a pay rate period of the client and refuses others', async () => {
    expect(
      await inserted(requisitionInsert({ ratestructure: '2', payrateperiod: '3' })),
    ).toMatchObject({
      RateStructure: '2',
      PayRatePeriod: '3',
    });
    expect(await refused(requisitionInsert({ ratestructure: '3' }))).toMatch(
      /^ratestructure: 3 is not a rate structure of client org 1001; use one of 1 \(Hourly\), 2 \(Daily\)/,
    );
    expect(await refused(requisitionInsert({ payrateperiod: '4' }))).toMatch(
      /^payrateperiod: 4 is not a pay rate period of client org 1001/,
    );
    await inserted(contosoRequisitionInsert({ payrateperiod: '4' }));
  });

  it("takes skill expertise ratings from the client's list only", async () => {
    await inserted(requisitionInsert({ expertiserating1: '4' }));
    expect(await refused(requisitionInsert({ expertiserating1: '20' }))).toMatch(
      /^expertiserating1: 20 is not an expertise rating of client org 1001; use one of 1 \(Beginner\)/,
    );
    expect(await refused(contosoRequisitionInsert({ expertiserating1: '3' }))).toMatch(
      /^expertiserating1: 3 is not/,
    );
  });

  it('reports every server-side problem of an item at once', async () => {
    const message = await refused(
      requisitionInsert({ reqclassid: '77', reqownerid: 'nobody', ratestructure: '9' }),
    );
    expect(message.split('; ').map((part) => part.split(':')[0])).toEqual(
      expect.arrayContaining(['reqclassid', 'reqownerid', 'ratestructure']),
    );
  });
});

describe('what is stored', () => {
  it('keeps every field as a string under its PascalCase name, without RequestType', async () => {
    const stored = await inserted(
      requisitionInsert({
        titlerole: '  Platform Engineer  ',
        customfieldvalue2: 'blue',
        skilldescription1: 'Go',
      }),
    );
    expect(stored).toMatchObject({
      TitleRole: 'Platform Engineer',
      CustomFieldValue2: 'blue',
      SkillDescription1: 'Go',
      BillRangeFrom: '90.00',
      BillRangeTo: '70.00',
      StartDate: '2027-02-01',
      SkillDescription2: '',
    });
    expect(stored).not.toHaveProperty('RequestType');
    expect(Object.values(stored).every((value) => typeof value === 'string')).toBe(true);
  });
});
