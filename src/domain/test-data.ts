/**
 * Test data for the domain's tests and the benchmark: one generator module (style.md). Valid,
 * complete payloads built from the catalogs' limits, varied by an index so items differ.
 */
import { MAX_ANSWERS, MAX_CANDIDATE_CUSTOM_FIELDS, MAX_SKILL_RESPONSES } from './candidate-catalog';
import type { CandidateForm } from './candidate-form';
import { candidateFormDefaults } from './candidate-form';
import { MAX_CUSTOM_FIELDS, MAX_QUESTIONS, MAX_SKILLS } from './requisition-catalog';
import type { RequisitionForm } from './requisition-form';
import { requisitionFormDefaults } from './requisition-form';
import type { CandidateWire } from './candidate-wire';
import type { RequisitionWire } from './requisition-wire';

/** A full Insert requisition form: 10 skills, 5 questions, all 10 custom fields. */
export function fullRequisitionForm(i = 0): RequisitionForm {
  const form = requisitionFormDefaults('I');
  Object.assign(form, {
    orgid: '1001',
    reqclassid: String(100 + (i % 7)),
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
    ratestructure: '12',
    billrangefrom: '95.50',
    billrangeto: '80',
    ratesalarydescription: 'Hourly, W2',
    maxpayrate: '70.25',
    payrateperiod: '1',
    nottoexceedrate: '100',
    nottoexceedratecode: '1',
    hoursunitsperday: '7.5',
    daysperweek: '5',
    maximumbillrate: String(i % 2),
    engagementtype: String(1 + (i % 3)),
    shortdescription: 'Build and maintain the payments platform.',
    completedescription: 'A long description of the role, its team and its responsibilities.',
    behaviorcharacteristics: 'Collaborative, curious, calm under pressure.',
    altemail: `hiring.${i}@client.example`,
    divbranch: 'Engineering / Toronto',
    clientcontactid: 'U1002',
    reqownerid: 'U1001',
    reportstoid: 'U1003',
    worklocationrefcode: 'TOR-01',
    costcenterrefcode: 'CC-200',
    glrefcode: 'GL-5000',
    projectrefcode: 'PRJ-42',
  });
  for (let n = 1; n <= MAX_CUSTOM_FIELDS; n += 1)
    form[`customfieldvalue${n}` as `customfieldvalue1`] = `custom ${n}`;
  form.skills = Array.from({ length: MAX_SKILLS }, (_, k) => ({
    description: `Skill ${k + 1} for item ${i}`,
    requireddesired: String(1 + (k % 5)),
    amountofexperience: String(1 + k),
    amountofexperiencetype: String(1 + (k % 4)),
    expertiserating: String(1 + (k % 4)),
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
    requirementid: String(5000 + (i % 20)),
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
 * The smallest valid Insert requisition on the wire, written out by hand from decisions.md's
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
    reqownerid: 'U1001',
  };
}

/** The smallest valid Amend: decisions.md requires only requesttype, orgid and clientinternalreq. */
export function validAmendWire(): Partial<RequisitionWire> {
  return { requesttype: 'A', orgid: '1001', clientinternalreq: 'CIR-000001' };
}

/** The smallest valid candidate on the wire (the five required fields of decisions.md). */
export function validCandidateWire(): Partial<CandidateWire> {
  return {
    requirementid: '5000',
    firstname: 'Ada',
    lastname: 'Lovelace',
    candemail: 'ada@vendor.example',
    engagementtype: '1',
  };
}
