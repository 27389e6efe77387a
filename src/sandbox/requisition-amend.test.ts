import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RequisitionWire } from '@/domain';
import type { RequisitionResultRow, TestSandbox } from '@/test-support/sandbox-client';
import { startTestSandbox } from '@/test-support/sandbox-client';
import { requisitionAmend, requisitionInsert } from '@/test-support/test-data';

let sandbox: TestSandbox;
beforeAll(async () => {
  sandbox = await startTestSandbox();
});
afterAll(() => sandbox.close());

async function amend(item: RequisitionWire): Promise<RequisitionResultRow> {
  const [row] = await sandbox.importRequisitions([item]);
  if (!row) throw new Error('no result row');
  return row;
}

/** A fresh requisition (3 skills, 2 questions) for a test to amend without disturbing others. */
async function fresh(overrides: Partial<RequisitionWire> = {}) {
  const item = requisitionInsert({
    skill2: '2',
    skilldescription2: 'PostgreSQL',
    skill3: '3',
    skilldescription3: 'Kafka',
    question2: '2',
    questiondescription2: 'Remote?',
    clientcontactid: 'dchen',
    ...overrides,
  });
  const [row] = await sandbox.importRequisitions([item]);
  if (row?.Status !== 'Success') throw new Error(`insert failed: ${row?.ErrorMessage}`);
  return {
    cir: item.clientinternalreq,
    reqId: row.Req_Id,
    before: await sandbox.requisition(row.Req_Id),
  };
}

describe('finding the requisition to amend', () => {
  it('finds it by clientinternalreq and changes only the non-blank fields', async () => {
    const { cir, reqId, before } = await fresh();
    const row = await amend(
      requisitionAmend(cir, { titlerole: 'Staff Backend Developer', noofopenings: '3' }),
    );
    expect(row).toMatchObject({
      Status: 'Success',
      ErrorMessage: '',
      Req_Id: reqId,
      ClientInternalReq: cir,
    });
    const after = await sandbox.requisition(reqId);
    expect(after).toEqual({
      ...before,
      TitleRole: 'Staff Backend Developer',
      NoOfOpenings: '3',
      Req_Updated_Date_Time: expect.any(String),
    });
  });

  it("finds it by its VMS Req ID, and reports the requisition's own clientinternalreq", async () => {
    const row = await amend(requisitionAmend('40003', { divbranch: 'West networks' }, '1012'));
    expect(row).toMatchObject({
      Status: 'Success',
      Req_Id: '40003',
      ClientInternalReq: 'NW-REQ-0003',
    });
    expect((await sandbox.requisition(40003)).DivBranch).toBe('West networks');
  });

  it('records when it was amended, keeping when it was created', async () => {
    await amend(requisitionAmend('NW-REQ-0005', { divbranch: 'Finance' }));
    const after = await sandbox.requisition(40005);
    expect(after.Req_Created_Date_Time).toBe('2026-04-02T11:20:00Z');
    expect((after.Req_Updated_Date_Time ?? '') > '2026-06-12T09:10:00Z').toBe(true);
  });

  it('refuses an Amend of a requisition that does not exist, naming clientinternalreq', async () => {
    const row = await amend(requisitionAmend('NO-SUCH-REQ', { titlerole: 'x' }));
    expect(row).toMatchObject({ Status: 'Error', Req_Id: '', ClientInternalReq: 'NO-SUCH-REQ' });
    expect(row.ErrorMessage).toMatch(
      /^clientinternalreq: no requisition of client org 1001 has the client internal reference or Req ID 'NO-SUCH-REQ'/,
    );
  });

  it("does not find another client's requisition by Req ID", async () => {
    const row = await amend(requisitionAmend('40013', { titlerole: 'x' }));
    expect(row.Status).toBe('Error');
    expect(row.ErrorMessage).toMatch(/^clientinternalreq: /);
  });

  it("refuses an orgid other than the requisition's", async () => {
    const row = await amend(requisitionAmend('NW-REQ-0002', { titlerole: 'x' }, '1001'));
    expect(row).toMatchObject({ Status: 'Error', Req_Id: '40002' });
    expect(row.ErrorMessage).toMatch(
      /^orgid: requisition 40002 belongs to org 1011, not 1001; send orgid 1011/,
    );
  });
});

describe('what an Amend changes', () => {
  it('changes reqstatus to any status, and refuses one that is not a status', async () => {
    const { cir, reqId } = await fresh();
    expect((await amend(requisitionAmend(cir, { reqstatus: '9' }))).Status).toBe('Success');
    expect((await sandbox.requisition(reqId)).ReqStatus).toBe('9');
    const refused = await amend(requisitionAmend(cir, { reqstatus: '7' }));
    expect(refused.Status).toBe('Error');
    expect(refused.ErrorMessage).toMatch(/^reqstatus: /);
    expect((await sandbox.requisition(reqId)).ReqStatus).toBe('9');
  });

  it('rewrites the skill rows when any skill field is given, and keeps them otherwise', async () => {
    const { cir, reqId } = await fresh();
    await amend(
      requisitionAmend(cir, { questiondescription1: 'Notice period, in weeks?', question1: '1' }),
    );
    let after = await sandbox.requisition(reqId);
    expect([after.SkillDescription1, after.SkillDescription2, after.SkillDescription3]).toEqual([
      'TypeScript',
      'PostgreSQL',
      'Kafka',
    ]);
    expect([after.QuestionDescription1, after.QuestionDescription2]).toEqual([
      'Notice period, in weeks?',
      '',
    ]);

    await amend(
      requisitionAmend(cir, { skill1: '1', skilldescription1: 'Rust', expertiserating1: '2' }),
    );
    after = await sandbox.requisition(reqId);
    expect([
      after.SkillDescription1,
      after.ExpertiseRating1,
      after.SkillDescription2,
      after.Skill2,
    ]).toEqual(['Rust', '2', '', '']);
  });

  it("checks a new skill's expertise rating against the client's list", async () => {
    const { cir } = await fresh();
    const row = await amend(
      requisitionAmend(cir, { skill1: '1', skilldescription1: 'Rust', expertiserating1: '30' }),
    );
    expect(row.ErrorMessage).toMatch(
      /^expertiserating1: 30 is not an expertise rating of client org 1001/,
    );
  });

  it('changes the req class and accounting references after checking them', async () => {
    const { cir, reqId } = await fresh();
    expect(
      (
        await amend(
          requisitionAmend(cir, { fullreqpath: 'IT|Software|QA Analyst', glrefcode: 'GL-6100' }),
        )
      ).Status,
    ).toBe('Success');
    expect(await sandbox.requisition(reqId)).toMatchObject({
      ReqClassId: '102',
      GlId: '501',
      GlRefCode: 'GL-6100',
    });
    const row = await amend(requisitionAmend(cir, { reqclassid: '201' }));
    expect(row.ErrorMessage).toMatch(/^reqclassid: 201 is not a req class of org 1001/);
  });

  it('refuses an hourly high below the stored hourly low', async () => {
    const { cir, reqId } = await fresh();
    const row = await amend(requisitionAmend(cir, { billrangeto: '95.00' }));
    expect(row).toMatchObject({ Status: 'Error', Req_Id: reqId });
    expect(row.ErrorMessage).toMatch(
      /^billrangeto: the hourly high \(billrangefrom 90.00\) would be below the hourly low \(billrangeto 95.00\)/,
    );
    expect(
      (await amend(requisitionAmend(cir, { billrangefrom: '120.00', billrangeto: '95.00' })))
        .Status,
    ).toBe('Success');
  });

  it('refuses an end date before the stored start date', async () => {
    const { cir } = await fresh();
    const row = await amend(requisitionAmend(cir, { enddate: '2027-01-15' }));
    expect(row.ErrorMessage).toMatch(/^enddate: the end date would be before the start date/);
  });
});

describe('rule 6: the owner changes only when contact and reports-to fields are blank', () => {
  it('changes the owner, and only the owner, when they are blank', async () => {
    const { cir, reqId } = await fresh();
    expect((await amend(requisitionAmend(cir, { reqownerid: 'pokafor' }))).Status).toBe('Success');
    expect(await sandbox.requisition(reqId)).toMatchObject({
      ReqOwnerId: 'pokafor',
      ReqOwnerFirstName: 'Patience',
      ClientContactId: 'dchen',
      ReportsToId: 'mreyes',
    });
  });

  it('refuses an unknown owner when it would apply', async () => {
    const { cir } = await fresh();
    const row = await amend(requisitionAmend(cir, { reqownerid: 'nobody' }));
    expect(row.ErrorMessage).toMatch(/^reqownerid: 'nobody'/);
  });

  it('ignores the owner fields when a contact or reports-to field is given', async () => {
    const { cir, reqId } = await fresh();
    const row = await amend(
      requisitionAmend(cir, { reqownerid: 'nobody', reportstoid: 'jlindqvist' }),
    );
    expect(row.Status).toBe('Success');
    expect(await sandbox.requisition(reqId)).toMatchObject({
      ReqOwnerId: 'mreyes',
      ReportsToId: 'jlindqvist',
    });
  });

  it('checks a contact given on Amend', async () => {
    const { cir } = await fresh();
    const row = await amend(
      requisitionAmend(cir, { clientcontactfirstname: 'Alex', clientcontactlastname: 'Morgan' }),
    );
    expect(row.ErrorMessage).toMatch(
      /^clientcontactfirstname: 2 users of client org 1001 are named 'Alex Morgan'/,
    );
  });
});
