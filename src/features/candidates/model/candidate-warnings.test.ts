import { describe, expect, it } from 'vitest';
import type { WarningInput } from './candidate-warnings';
import { candidateWarnings, warningsKey } from './candidate-warnings';
import type { TargetRequisition } from './target-requisition';

const open: TargetRequisition = {
  reqId: '40002',
  title: 'QA Analyst',
  clientInternalReq: 'NW-REQ-0002',
  status: '4',
  statusLabel: 'Open',
  openings: '3',
  startDate: '2026-03-01',
  endDate: '2026-12-31',
  noNewSubmittalsAfter: '2030-12-31',
  hourlyHigh: '65.00',
  hourlyLow: '50.00',
  maximumBillRate: '0',
  skills: [],
  questions: [],
  shape: { skillCount: 0, questionCount: 0 },
};

const input = (overrides: Partial<WarningInput> = {}): WarningInput => ({
  candidate: { requirementid: '40002', candemail: 'ada@example.com', billrate: '60' },
  requisition: open,
  today: '2026-11-21',
  submitted: [],
  inTray: [],
  ...overrides,
});

const ids = (overrides: Partial<WarningInput>) =>
  candidateWarnings(input(overrides)).map((w) => w.id);

describe('candidateWarnings', () => {
  it('says nothing for an open requisition, a rate within the high and a new e-mail', () => {
    expect(candidateWarnings(input())).toEqual([]);
  });

  it.each([
    ['8', 'Closed/Cancelled', ['status']],
    ['6', 'Filled', ['status']],
    ['9', 'On Hold', ['status']],
    ['5', 'Interview occurring', []],
  ])('status %s (%s) → %j', (status, statusLabel, expected) => {
    expect(ids({ requisition: { ...open, status, statusLabel } })).toEqual(expected);
  });

  it('names the status and what to do', () => {
    const [warning] = candidateWarnings(
      input({ requisition: { ...open, status: '8', statusLabel: 'Closed/Cancelled' } }),
    );
    expect(warning?.message).toMatch(/Requisition 40002 is Closed\/Cancelled.*Choose another/);
  });

  it('warns once the no-new-submittals date has passed, not on the date itself', () => {
    const closing = { ...open, noNewSubmittalsAfter: '2026-06-30' };
    expect(ids({ requisition: closing, today: '2026-07-01' })).toEqual(['submittals-closed']);
    expect(ids({ requisition: closing, today: '2026-06-30' })).toEqual([]);
    expect(ids({ requisition: { ...open, noNewSubmittalsAfter: '' } })).toEqual([]);
  });

  it('warns of a bill rate above the hourly high only where maximumbillrate is 0', () => {
    const above = { requirementid: '40002', candemail: 'a@b.co', billrate: '70' };
    expect(ids({ candidate: above })).toEqual(['bill-rate']);
    expect(ids({ candidate: { ...above, billrate: '65.00' } })).toEqual([]);
    expect(ids({ candidate: above, requisition: { ...open, maximumBillRate: '1' } })).toEqual([]);
    expect(ids({ candidate: above, requisition: { ...open, maximumBillRate: '' } })).toEqual([]);
    expect(ids({ candidate: above, requisition: { ...open, hourlyHigh: '' } })).toEqual([]);
    expect(ids({ candidate: { ...above, billrate: 'abc' } })).toEqual([]);
  });

  it('warns of the same e-mail sent to the same requisition, ignoring case', () => {
    const earlier = { requirementid: '40002', candemail: 'ADA@example.com ', where: 'batch cb_1' };
    expect(ids({ submitted: [earlier] })).toEqual(['already-submitted']);
    expect(ids({ submitted: [{ ...earlier, requirementid: '40001' }] })).toEqual([]);
    expect(ids({ inTray: [{ ...earlier, where: 'item 1 of the batch' }] })).toEqual([
      'already-in-batch',
    ]);
    expect(candidateWarnings(input({ submitted: [earlier] }))[0]?.message).toMatch(
      /ada@example.com was already sent to requisition 40002 \(batch cb_1\)/,
    );
  });

  it('checks only the duplicate rules when the requisition is unknown', () => {
    expect(
      ids({
        requisition: null,
        candidate: { requirementid: '99', candemail: '', billrate: '999' },
      }),
    ).toEqual([]);
  });

  it('keys an acknowledgement to the exact warnings', () => {
    expect(
      warningsKey([
        { id: 'status', message: '' },
        { id: 'bill-rate', message: '' },
      ]),
    ).toBe('status|bill-rate');
  });
});

describe('a requisition with no openings left', () => {
  it('is warned about, as the list and the picker treat it', () => {
    const warnings = candidateWarnings(input({ requisition: { ...open, openings: '0' } }));
    expect(warnings.map((warning) => warning.id)).toEqual(['no-openings']);
    expect(warnings[0]?.message).toMatch(/^Requisition 40002 has no openings left/);
  });
});
