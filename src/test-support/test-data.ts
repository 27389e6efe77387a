/**
 * Test data, one generator module for the domain's, the sandbox's and the portal's
 * tests, the e2e journeys and the benchmarks. Every id in it exists in the sandbox's seed for
 * Northwind Health (client org 1001), so the same items pass the domain's rules and the sandbox's
 * (test-data.test.ts sends them).
 */
import type { CandidateWire, RequisitionWire } from '@/domain';
import { answerKey, blankCandidateWire, blankRequisitionWire, skillResponseKey } from '@/domain';
import {
  MAX_ANSWERS,
  MAX_CANDIDATE_CUSTOM_FIELDS,
  MAX_SKILL_RESPONSES,
} from '@/domain/candidate-catalog';
import type { CandidateForm } from '@/domain/candidate-form';
import { candidateFormDefaults } from '@/domain/candidate-form';
import { MAX_CUSTOM_FIELDS, MAX_QUESTIONS, MAX_SKILLS } from '@/domain/requisition-catalog';
import type { RequisitionForm } from '@/domain/requisition-form';
import { requisitionFormDefaults } from '@/domain/requisition-form';
import { questionNumbers, skillNumbers } from '@/sandbox/requisition-record';
import { seedClients } from '@/sandbox/seed';
import { seedRequisitions } from '@/sandbox/seed-requisitions';

/** Requisitions of the seed that take candidates (Open or Interview occurring). */
const seededOpenReqIds = ['40001', '40002', '40003', '40008', '40009', '40012'];

/** A full Insert requisition form: 10 skills, 5 questions, all 10 custom fields. */
export function fullRequisitionForm(i = 0): RequisitionForm {
  const form = requisitionFormDefaults('I');
  Object.assign(form, {
    orgid: '1001',
    reqclassid: '101',
    titlerole: `Senior Java Developer ${i}`,
    noofopenings: String(1 + (i % 4)),
    startdate: '2026-12-01',
    enddate: '2027-06-30',
    nonewsubmittalsafter: '2026-11-30',
    clientinternalreq: `CIR-${String(i).padStart(6, '0')}`,
    reqpriority: String(1 + (i % 3)),
    citizenstatus: String(1 + (i % 6)),
    duration: '6',
    durationtype: '3',
    ratestructure: '1',
    billrangefrom: '95.50',
    billrangeto: '80',
    ratesalarydescription: 'Hourly, W2',
    maxpayrate: '70.25',
    payrateperiod: '1',
    nottoexceedrate: '100',
    nottoexceedratecode: '',
    hoursunitsperday: '7.5',
    daysperweek: '5',
    maximumbillrate: String(i % 2),
    engagementtype: String(1 + (i % 3)),
    shortdescription: 'Build and maintain the payments platform.',
    completedescription: 'A long description of the role, its team and its responsibilities.',
    behaviorcharacteristics: 'Collaborative, curious, calm under pressure.',
    altemail: `hiring.${i}@client.example`,
    divbranch: 'Engineering / Toronto',
    clientcontactid: 'dchen',
    reqownerid: 'mreyes',
    reportstoid: 'pokafor',
    worklocationrefcode: 'WL-BOS',
    costcenterrefcode: 'CC-IT-100',
    glrefcode: 'GL-6100',
    projectrefcode: 'PRJ-EHR',
  });
  for (let n = 1; n <= MAX_CUSTOM_FIELDS; n += 1)
    form[`customfieldvalue${n}` as `customfieldvalue1`] = `custom ${n}`;
  form.skills = Array.from({ length: MAX_SKILLS }, (_, k) => ({
    description: `Skill ${k + 1} for item ${i}`,
    requireddesired: String(1 + (k % 5)),
    amountofexperience: String(1 + k),
    amountofexperiencetype: String(1 + (k % 4)),
    expertiserating: String(1 + (k % 3)),
  }));
  form.questions = Array.from({ length: MAX_QUESTIONS }, (_, k) => ({
    description: `Question ${k + 1}?`,
  }));
  return form;
}

/** A full candidate form: 5 answers, 10 skill responses, all 5 custom fields. */
export function fullCandidateForm(i = 0): CandidateForm {
  const form = candidateFormDefaults({
    questionCount: MAX_ANSWERS,
    skillCount: MAX_SKILL_RESPONSES,
  });
  Object.assign(form, {
    requirementid: seededOpenReqIds[i % seededOpenReqIds.length] ?? '40001',
    firstname: 'Ada',
    lastname: `Lovelace ${i}`,
    candemail: `ada.${i}@vendor.example`,
    engagementtype: String(1 + (i % 4)),
    iscandcurrentlyemployedbyvendor: 'Y',
    iscandcurrentlypaidbyvendor: 'N',
    availability: 'Two weeks notice',
    vendorcandidateid: `V-${i}`,
    summaryofqualifications: 'Ten years of distributed systems.',
    iscandindependantcontractor: 'N',
    wascandeveremployedbyclient: 'Y',
    candcitizenshipstatus: 'Other',
    candcitizenshipexplain: 'Work permit, valid to 2029',
    billrate: '90',
    vendorrate: '85.5',
    payrate: '70',
    budgetrate: '95',
    candidatecomments: 'Available for interviews on Tuesdays.',
  });
  for (let n = 1; n <= MAX_CANDIDATE_CUSTOM_FIELDS; n += 1)
    form[`candcustomfield${n}` as 'candcustomfield1'] = `response ${n}`;
  form.answers = form.answers.map((_, k) => ({ answer: `Answer ${k + 1}` }));
  form.skillResponses = form.skillResponses.map((_, k) => ({
    response: String(1 + (k % 4)),
    duration: String(2 + k),
    units: '4',
    expertiserating: String(1 + (k % 4)),
  }));
  return form;
}

/**
 * The smallest valid Insert requisition on the wire, written out by hand from decision 000's
 * Insert list (keys left out read as blank), so wire tests do not depend on the form conversion.
 */
export function validRequisitionWire(): Partial<RequisitionWire> {
  return {
    requesttype: 'I',
    orgid: '1001',
    reqclassid: '101',
    titlerole: 'Senior Java Developer',
    noofopenings: '2',
    clientinternalreq: 'CIR-000001',
    hoursunitsperday: '7.5',
    daysperweek: '5',
    engagementtype: '1',
    shortdescription: 'Build and maintain the payments platform.',
    reqownerid: 'mreyes',
  };
}

/**
 * The smallest valid Amend: decision 000 requires only requesttype, orgid and clientinternalreq.
 *
 */
export function validAmendWire(): Partial<RequisitionWire> {
  return { requesttype: 'A', orgid: '1001', clientinternalreq: 'CIR-000001' };
}

/** The smallest valid candidate on the wire (the five required fields of decision 000). */
export function validCandidateWire(): Partial<CandidateWire> {
  return {
    requirementid: '40001',
    firstname: 'Ada',
    lastname: 'Lovelace',
    candemail: 'ada@vendor.example',
    engagementtype: '1',
  };
}

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
