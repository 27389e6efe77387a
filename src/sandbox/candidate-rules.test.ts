import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CandidateWire } from '@/domain';
import { computeSignature, unixSeconds } from '@/node/signature';
import type { CandidateResultRow, TestSandbox } from '@/test-support/sandbox-client';
import { startTestSandbox } from '@/test-support/sandbox-client';
import { candidateFor } from '@/test-support/test-data';
import { sandboxDemo } from './demo';

let sandbox: TestSandbox;
beforeAll(async () => {
  sandbox = await startTestSandbox();
});
afterAll(() => sandbox.close());

async function submit(item: CandidateWire, clientOrgId = 1001): Promise<CandidateResultRow> {
  const [row] = await sandbox.submitCandidates([item], { query: { Client_Org_Id: clientOrgId } });
  if (!row) throw new Error('no result row');
  return row;
}

async function refused(item: CandidateWire, clientOrgId = 1001): Promise<string> {
  const row = await submit(item, clientOrgId);
  expect(row).toMatchObject({ Status: 'Error', Cand_Status: 'Error', Cand_Id: '' });
  return row.CandErrorMessage;
}

describe('New and Incomplete', () => {
  it('accepts a complete candidate as New with a Cand_Id', async () => {
    const row = await submit(candidateFor(40001, { vendorcandidateid: 'ACME-1' }));
    expect(row).toMatchObject({
      Status: 'New',
      CandErrorMessage: '',
      Vendor_Candidate_Id: 'ACME-1',
    });
    expect(Number(row.Cand_Id)).toBeGreaterThan(700000);
  });

  it('accepts a candidate with a blank answer or skill response as Incomplete, saying which', async () => {
    const row = await submit(candidateFor(40001, { answer2: '', skill3response: '' }));
    expect(row).toMatchObject({ Status: 'Incomplete', Cand_Status: 'Incomplete' });
    expect(row.Cand_Id).toMatch(/^\d+$/);
    expect(row.CandErrorMessage).toBe(
      'Submitted as Incomplete because these are blank: answer2, skill3response.',
    );
  });

  it('treats a requisition without skills or questions as asking nothing', async () => {
    expect((await submit(candidateFor(40008))).Status).toBe('New');
  });
});

describe('local rules from src/domain, knowing the requisition', () => {
  it('refuses an answer to a question the requisition does not have', async () => {
    expect(await refused(candidateFor(40001, { answer3: 'Yes' }))).toMatch(
      /^answer3: The requisition has 2 questions, so there is no question 3 to answer/,
    );
  });

  it('refuses a response to a skill the requisition does not have', async () => {
    expect(await refused(candidateFor(40003, { skill3response: '3' }))).toMatch(
      /^skill3response: The requisition has 2 skills/,
    );
  });

  it('refuses an invalid e-mail address', async () => {
    expect(await refused(candidateFor(40001, { candemail: 'not-an-address' }))).toMatch(
      /^candemail: /,
    );
  });
});

describe('the requisition must take submittals', () => {
  it('refuses a requirementid that is not a requisition of the client', async () => {
    expect(await refused(candidateFor(99999))).toMatch(
      /^requirementid: 99999 is not the Req ID of a requisition of client org 1001/,
    );
    // 40013 exists, but belongs to client org 1002.
    expect(await refused(candidateFor(40013))).toMatch(/^requirementid: 40013 is not the Req ID/);
    expect((await submit(candidateFor(40013), 1002)).Status).toBe('New');
  });

  it('accepts Open (4) and Interview occurring (5) requisitions', async () => {
    expect((await submit(candidateFor(40001))).Status).toBe('New');
    expect((await submit(candidateFor(40003))).Status).toBe('New');
  });

  it.each([
    [40004, 'Filled', '6'],
    [40005, 'Closed/Cancelled', '8'],
    [40006, 'On Hold', '9'],
  ])('refuses requisition %i, which is %s', async (reqId, label, status) => {
    expect(await refused(candidateFor(reqId))).toBe(
      `requirementid: requisition ${reqId} is ${label} (reqstatus ${status}); candidates can be ` +
        'submitted only while it is Open (4) or Interview occurring (5)',
    );
  });

  it('refuses a requisition whose no-new-submittals date has passed', async () => {
    expect(await refused(candidateFor(40007))).toMatch(
      /^requirementid: requisition 40007 took no new submittals after 2026-06-30 \(nonewsubmittalsafter\)/,
    );
  });
});

describe('bill rate against the hourly high', () => {
  it('refuses a bill rate above the hourly high when maximumbillrate is 0', async () => {
    expect(await refused(candidateFor(40002, { billrate: '65.01' }))).toMatch(
      /^billrate: 65.01 is above the hourly high of requisition 40002 \(65.00\), which does not accept candidates above its maximum bill rate; offer 65.00 or less/,
    );
    expect((await submit(candidateFor(40002, { billrate: '65.00' }))).Status).toBe('New');
  });

  it('accepts a bill rate above the hourly high when maximumbillrate is 1 or blank', async () => {
    expect((await submit(candidateFor(40001, { billrate: '150.00' }))).Status).toBe('New');
    expect((await submit(candidateFor(40003, { billrate: '150.00' }))).Status).toBe('New');
  });

  it('refuses above the hourly high with a blank maximumbillrate too when set to read it so', async () => {
    const strict = await startTestSandbox({ blankMaximumBillRate: 'hourly-high' });
    try {
      const [blank] = await strict.submitCandidates([candidateFor(40003, { billrate: '88.01' })]);
      expect(blank?.CandErrorMessage).toBe(
        'billrate: 88.01 is above the hourly high of requisition 40003 (88.00), which does not accept candidates above its maximum bill rate (none set, read as no); offer 88.00 or less',
      );
      // maximumbillrate 1 still means no limit.
      const [allowed] = await strict.submitCandidates([
        candidateFor(40001, { billrate: '150.00' }),
      ]);
      expect(allowed?.Status).toBe('New');
    } finally {
      await strict.close();
    }
  });
});

describe('duplicates and ratings', () => {
  it('refuses the same e-mail (in any case) submitted again to the same requisition', async () => {
    const first = await submit(candidateFor(40009, { candemail: 'Grace.Hopper@example.com' }));
    expect(first.Status).toBe('New');
    expect(await refused(candidateFor(40009, { candemail: 'grace.hopper@EXAMPLE.com' }))).toBe(
      `candemail: grace.hopper@EXAMPLE.com has already been submitted to requisition 40009 (Cand_Id ${first.Cand_Id}); a candidate is submitted once per requisition`,
    );
    expect(
      (await submit(candidateFor(40001, { candemail: 'grace.hopper@example.com' }))).Status,
    ).toBe('New');
  });

  it('refuses the second of two identical e-mails in one batch', async () => {
    const rows = await sandbox.submitCandidates([
      candidateFor(40012, { candemail: 'twice@example.com' }),
      candidateFor(40012, { candemail: 'twice@example.com' }),
    ]);
    expect(rows.map((row) => row.Status)).toEqual(['New', 'Error']);
  });

  it("takes skill expertise ratings from the client's list only", async () => {
    expect((await submit(candidateFor(40001, { skill1expertiserating: '4' }))).Status).toBe('New');
    expect(await refused(candidateFor(40001, { skill1expertiserating: '20' }))).toMatch(
      /^skill1expertiserating: 20 is not an expertise rating of client org 1001; use one of 1 \(Beginner\)/,
    );
  });
});

describe("the no-new-submittals date, by the sandbox's clock", () => {
  it('accepts a submission on the last day itself and refuses one the day after', async () => {
    for (const [at, expected] of [
      ['2026-06-30T23:59:00Z', 'New'],
      ['2026-07-01T00:00:01Z', 'Error'],
    ] as const) {
      const clock = new Date(at);
      const late = await startTestSandbox({ now: () => clock });
      try {
        // The sandbox checks signatures against its own clock too.
        const signed = {
          signature: computeSignature(
            sandboxDemo.apiKey,
            sandboxDemo.apiSecret,
            unixSeconds(clock.getTime()),
          ),
        };
        const [row] = await late.submitCandidates([candidateFor(40007)], signed);
        expect(row?.Status).toBe(expected);
      } finally {
        await late.close();
      }
    }
  });
});
