import type { CandidateWire, RequisitionWire } from '../domain';
import { answerKey, blankCandidateWire, blankRequisitionWire, skillResponseKey } from '../domain';
import { seedClients } from './seed';
import { seedRequisitions } from './seed-requisitions';
import { questionNumbers, skillNumbers } from './requisition-record';

/**
 * Valid wire items built from the seed, for the sandbox's tests: every documented key present, as
 * the portal sends them. Each test changes only the fields its rule is about.
 */

let sequence = 0;
/** A client internal reference no other test item uses. */
export function newClientInternalReq(prefix = 'TEST'): string {
  sequence += 1;
  return `${prefix}-${sequence}-${Math.random().toString(36).slice(2, 8)}`;
}

export function newEmail(): string {
  sequence += 1;
  return `candidate.${sequence}.${Math.random().toString(36).slice(2, 8)}@example.com`;
}

/** An Insert for Northwind Health (1001) that passes every rule. */
export function requisitionInsert(overrides: Partial<RequisitionWire> = {}): RequisitionWire {
  return {
    ...blankRequisitionWire(),
    requesttype: 'I',
    orgid: '1001',
    reqclassid: '101',
    titlerole: 'Backend Developer',
    noofopenings: '1',
    startdate: '2027-02-01',
    enddate: '2027-07-30',
    clientinternalreq: newClientInternalReq(),
    billrangefrom: '90.00',
    billrangeto: '70.00',
    hoursunitsperday: '8',
    daysperweek: '5',
    engagementtype: '1',
    shortdescription: 'Builds and runs the claims API.',
    reqownerid: 'mreyes',
    skill1: '1',
    skilldescription1: 'TypeScript',
    requireddesired1: '1',
    amountofexperience1: '3',
    amountofexperiencetype1: '4',
    expertiserating1: '3',
    question1: '1',
    questiondescription1: 'Notice period?',
    ...overrides,
  };
}

/** An Insert for Contoso Manufacturing (1002), which requires a not-to-exceed rate code. */
export function contosoRequisitionInsert(
  overrides: Partial<RequisitionWire> = {},
): RequisitionWire {
  return requisitionInsert({
    orgid: '1002',
    reqclassid: '201',
    reqownerid: 'tbrooks',
    nottoexceedratecode: '1',
    expertiserating1: '20',
    ...overrides,
  });
}

/** An Amend carrying only what identifies the requisition; tests add the fields to change. */
export function requisitionAmend(
  clientInternalReqOrReqId: string,
  overrides: Partial<RequisitionWire> = {},
  orgid = '1001',
): RequisitionWire {
  return {
    ...blankRequisitionWire(),
    requesttype: 'A',
    orgid,
    clientinternalreq: clientInternalReqOrReqId,
    ...overrides,
  };
}

const seeded = seedRequisitions(seedClients);

/**
 * A candidate for a seeded requisition that answers every question and responds to every skill,
 * so it is accepted as New unless a test changes that.
 */
export function candidateFor(reqId: number, overrides: Partial<CandidateWire> = {}): CandidateWire {
  const requisition = seeded.find((r) => r.reqId === reqId);
  const candidate: CandidateWire = {
    ...blankCandidateWire(),
    requirementid: String(reqId),
    firstname: 'Ada',
    lastname: 'Lovelace',
    candemail: newEmail(),
    engagementtype: '1',
    vendorcandidateid: `V-${sequence}`,
    iscandindependantcontractor: 'N',
    wascandeveremployedbyclient: 'N',
    billrate: '60.00',
  };
  if (requisition) {
    for (const n of questionNumbers(requisition.record)) candidate[answerKey(n)] = `Answer ${n}`;
    for (const n of skillNumbers(requisition.record)) {
      candidate[skillResponseKey('response', n)] = '3';
      candidate[skillResponseKey('duration', n)] = '2';
      candidate[skillResponseKey('units', n)] = '4';
    }
  }
  return { ...candidate, ...overrides };
}
