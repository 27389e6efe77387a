import type { FieldDef } from './catalog-types';
import { keyed, oneTo } from './catalog-types';
import {
  candidateCitizenships,
  candidateEngagementTypes,
  skillResponses,
  yesNo,
} from './enumerations';
import { skillExperienceUnit, skillExpertiseRating } from './skill-fields';

/**
 * The candidate payload, field by field, in the spec's documented order ("Candidate payload
 * object", answers 1–5 and candidate custom fields 1–5 in place, then skill responses 1–10).
 */
export const MAX_ANSWERS = 5;
export const MAX_SKILL_RESPONSES = 10;
export const MAX_CANDIDATE_CUSTOM_FIELDS = 5;

type AnswerN = 1 | 2 | 3 | 4 | 5;
type SkillResponseN = 1 | 2 | 3 | 4 | 5 | 6 | 7 | 8 | 9 | 10;
export type AnswerKey = `answer${AnswerN}`;
export type CandidateCustomFieldKey = `candcustomfield${AnswerN}`;
export type SkillResponseKey =
  | `skill${SkillResponseN}response`
  | `skill${SkillResponseN}amountofexperienceduration`
  | `skill${SkillResponseN}amountofexperienceunits`
  | `skill${SkillResponseN}expertiserating`;

const flagHint = 'Y = Yes, N = No';

/** An optional Y/N flag about the candidate's employment. */
function employmentFlag<const K extends string>(key: K, label: string, hint: string) {
  return {
    key,
    label,
    type: 'FLAG',
    requirement: 'optional',
    options: yesNo,
    section: 'Employment',
    hint,
  } as const satisfies FieldDef;
}

const identityFields = [
  {
    key: 'requirementid',
    label: 'Req ID',
    type: 'INTEGER',
    requirement: 'required',
    section: 'Requisition',
    hint: 'VMS Req ID of the requisition the candidate is submitted to',
  },
  {
    key: 'firstname',
    personal: 'name',
    label: 'First name',
    type: 'STRING',
    requirement: 'required',
    section: 'Candidate',
  },
  {
    key: 'lastname',
    personal: 'name',
    label: 'Last name',
    type: 'STRING',
    requirement: 'required',
    section: 'Candidate',
  },
  {
    key: 'candemail',
    personal: 'email',
    label: 'E-mail',
    type: 'STRING',
    requirement: 'required',
    format: 'email',
    section: 'Candidate',
    hint: 'Must be a validly formatted e-mail address',
  },
  {
    key: 'engagementtype',
    label: 'Engagement type',
    type: 'INTEGER',
    requirement: 'required',
    options: candidateEngagementTypes,
    section: 'Candidate',
  },
  employmentFlag('iscandcurrentlyemployedbyvendor', 'Currently employed by the vendor', flagHint),
  employmentFlag('iscandcurrentlypaidbyvendor', 'Currently paid by the vendor', flagHint),
  {
    key: 'availability',
    personal: 'text',
    label: 'Availability',
    type: 'STRING',
    requirement: 'optional',
    section: 'Candidate',
  },
  {
    key: 'vendorcandidateid',
    personal: 'identifier',
    label: 'Vendor candidate ID',
    type: 'STRING',
    requirement: 'optional',
    section: 'Candidate',
    hint: 'Your own ID for this candidate',
  },
  {
    key: 'summaryofqualifications',
    personal: 'text',
    multiline: true,
    label: 'Summary of qualifications',
    type: 'STRING',
    requirement: 'optional',
    section: 'Qualifications',
  },
] as const satisfies readonly FieldDef[];

const answerFields = keyed<AnswerKey>(
  oneTo(MAX_ANSWERS).map((n): FieldDef => ({
    key: `answer${n}`,
    personal: 'text',
    multiline: true,
    label: `Answer to question ${n}`,
    type: 'STRING',
    requirement: 'optional',
    section: 'Questions',
    row: { group: 'answers', n, part: 'answer' },
  })),
);

const middleFields = [
  employmentFlag(
    'iscandindependantcontractor',
    'Independent contractor',
    `${flagHint}; blank is sent as N`,
  ),
  employmentFlag(
    'wascandeveremployedbyclient',
    'Ever employed by the client',
    `${flagHint}; blank is sent as N`,
  ),
  {
    key: 'candcitizenshipstatus',
    personal: 'choice',
    label: 'Citizenship status',
    type: 'STRING',
    requirement: 'optional',
    options: candidateCitizenships,
    section: 'Citizenship',
  },
  {
    key: 'candcitizenshipexplain',
    personal: 'text',
    label: 'Citizenship explanation',
    type: 'STRING',
    requirement: 'optional',
    section: 'Citizenship',
    hint: 'Required when the citizenship status is Other',
  },
  {
    key: 'billrate',
    personal: 'rate',
    label: 'Bill rate',
    type: 'DECIMAL',
    requirement: 'optional',
    section: 'Rates',
    hint: 'Client rate',
  },
  {
    key: 'vendorrate',
    personal: 'rate',
    label: 'Vendor rate',
    type: 'DECIMAL',
    requirement: 'optional',
    section: 'Rates',
  },
  {
    key: 'payrate',
    personal: 'rate',
    label: 'Pay rate',
    type: 'DECIMAL',
    requirement: 'optional',
    section: 'Rates',
    hint: 'Direct labor rate',
  },
  {
    key: 'budgetrate',
    personal: 'rate',
    label: 'Budget rate',
    type: 'DECIMAL',
    requirement: 'optional',
    section: 'Rates',
  },
  {
    key: 'candidatecomments',
    personal: 'text',
    multiline: true,
    label: 'Comments',
    type: 'STRING',
    requirement: 'optional',
    section: 'Qualifications',
    hint: 'Candidate comments',
  },
] as const satisfies readonly FieldDef[];

const customFields = keyed<CandidateCustomFieldKey>(
  oneTo(MAX_CANDIDATE_CUSTOM_FIELDS).map((n): FieldDef => ({
    key: `candcustomfield${n}`,
    personal: 'text',
    label: `Custom field ${n}`,
    type: 'STRING',
    requirement: 'optional',
    section: 'Custom fields',
    hint: `Response to candidate custom field ${n}`,
    row: { group: 'customfields', n, part: 'value' },
  })),
);

const skillResponseFields = keyed<SkillResponseKey>(
  oneTo(MAX_SKILL_RESPONSES).flatMap((n): FieldDef[] => [
    {
      key: `skill${n}response`,
      label: `Skill ${n} response`,
      type: 'INTEGER',
      requirement: 'optional',
      options: skillResponses,
      section: 'Skills',
      row: { group: 'skillResponses', n, part: 'response' },
    },
    {
      key: `skill${n}amountofexperienceduration`,
      label: `Skill ${n} experience`,
      type: 'INTEGER',
      requirement: 'optional',
      section: 'Skills',
      hint: 'Amount of experience (duration)',
      row: { group: 'skillResponses', n, part: 'duration' },
    },
    {
      key: `skill${n}amountofexperienceunits`,
      ...skillExperienceUnit(n),
      row: { group: 'skillResponses', n, part: 'units' },
    },
    {
      key: `skill${n}expertiserating`,
      ...skillExpertiseRating(n),
      row: { group: 'skillResponses', n, part: 'expertiserating' },
    },
  ]),
);

type IdentityKey = (typeof identityFields)[number]['key'];
type MiddleKey = (typeof middleFields)[number]['key'];
export type CandidateWireKey =
  IdentityKey | AnswerKey | MiddleKey | CandidateCustomFieldKey | SkillResponseKey;

export const candidateCatalog: ReadonlyArray<FieldDef<CandidateWireKey>> = [
  ...identityFields,
  ...answerFields,
  ...middleFields,
  ...customFields,
  ...skillResponseFields,
];

export const candidateWireKeys: readonly CandidateWireKey[] = candidateCatalog.map((f) => f.key);

const byKey = new Map<string, FieldDef<CandidateWireKey>>(candidateCatalog.map((f) => [f.key, f]));

export function candidateField(key: string): FieldDef<CandidateWireKey> | undefined {
  return byKey.get(key);
}

/** Flags the spec says default to N: the portal sends N when they are left blank. */
export const defaultNoFlags = [
  'iscandindependantcontractor',
  'wascandeveremployedbyclient',
] as const;

/** The candidate form's sections, in page order; every field names one (catalog.test.ts). */
export const candidateSections = [
  'Requisition',
  'Candidate',
  'Citizenship',
  'Employment',
  'Rates',
  'Qualifications',
  'Skills',
  'Questions',
  'Custom fields',
] as const;

export const skillResponseParts = ['response', 'duration', 'units', 'expertiserating'] as const;
export type SkillResponsePart = (typeof skillResponseParts)[number];
