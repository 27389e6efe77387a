// Data: the requisition fields of the VMS interface, one entry per field with its rules.
import type { FieldDef } from './catalog-types';
import { keyed, oneTo } from './catalog-types';
import {
  citizenStatuses,
  durationUnits,
  maximumBillRateChoices,
  reqPriorities,
  reqStatuses,
  requestTypes,
  requiredDesired,
  requisitionEngagementTypes,
} from './enumerations';
import { skillExperienceUnit, skillExpertiseRating } from './skill-fields';

/**
 * The requisition payload, field by field, in the spec's documented order
 * (the interface specification, "Requisition payload object", then skill items 1–10, question items 1–5,
 * people, accounting references and custom fields 1–10).
 */
export const MAX_SKILLS = 10;
export const MAX_QUESTIONS = 5;
export const MAX_CUSTOM_FIELDS = 10;

type SkillN = 1 | 2 | 3 | 4 | 5 | 6 | 7 | 8 | 9 | 10;
type QuestionN = 1 | 2 | 3 | 4 | 5;

export type SkillKey =
  | `skill${SkillN}`
  | `skilldescription${SkillN}`
  | `requireddesired${SkillN}`
  | `amountofexperience${SkillN}`
  | `amountofexperiencetype${SkillN}`
  | `expertiserating${SkillN}`;
export type QuestionKey = `question${QuestionN}` | `questiondescription${QuestionN}`;
export type CustomFieldKey = `customfieldvalue${SkillN}`;

const headFields = [
  {
    key: 'requesttype',
    label: 'Request type',
    type: 'FLAG',
    requirement: 'insert-amend',
    options: requestTypes,
    section: 'Basics',
    hint: 'I = Insert (new requisition), A = Amend (change an existing one)',
    responseName: 'RequestType',
  },
  {
    key: 'orgid',
    suggest: true,
    label: 'Org ID',
    type: 'INTEGER',
    requirement: 'insert-amend',
    section: 'Basics',
    hint: 'Org ID of the client where the requisition is inserted or amended',
    responseName: 'OrgId',
  },
  {
    key: 'reqclassid',
    suggest: true,
    label: 'Req class ID',
    type: 'INTEGER',
    requirement: 'either',
    section: 'Classification',
    hint: 'Must match a valid req class id in the org; give this or the full req path',
    responseName: 'ReqClassId',
  },
  {
    key: 'fullreqpath',
    suggest: true,
    label: 'Full req path',
    type: 'STRING',
    requirement: 'either',
    section: 'Classification',
    hint: 'Full path of a valid req class in the org, levels separated by |',
    responseName: 'FullReqPath',
  },
  {
    key: 'titlerole',
    label: 'Job title',
    type: 'STRING',
    requirement: 'insert',
    section: 'Basics',
    responseName: 'TitleRole',
  },
  {
    key: 'noofopenings',
    label: 'Number of openings',
    type: 'INTEGER',
    requirement: 'insert',
    min: 1,
    section: 'Basics',
    hint: 'Number of openings/positions',
    responseName: 'NoOfOpenings',
  },
  {
    key: 'startdate',
    label: 'Start date',
    type: 'DATE',
    requirement: 'optional',
    section: 'Schedule',
    responseName: 'StartDate',
  },
  {
    key: 'enddate',
    label: 'End date',
    type: 'DATE',
    requirement: 'optional',
    section: 'Schedule',
    responseName: 'EndDate',
  },
  {
    key: 'nonewsubmittalsafter',
    label: 'No new submittals after',
    type: 'DATE',
    requirement: 'optional',
    section: 'Schedule',
    hint: 'Last date for submitting candidates',
    responseName: 'NoNewSubmittalsAfter',
  },
  {
    key: 'clientinternalreq',
    label: 'Client internal req',
    type: 'STRING',
    requirement: 'insert-amend',
    section: 'Basics',
    hint: 'Unique within the client organization; on Amend, this or the VMS Req ID identifies the requisition',
    responseName: 'ClientInternalReq',
  },
  {
    key: 'reqpriority',
    label: 'Priority',
    type: 'INTEGER',
    requirement: 'optional',
    options: reqPriorities,
    section: 'Basics',
    hint: 'Blank on Insert defaults to Medium',
    responseName: 'ReqPriority',
  },
  {
    key: 'citizenstatus',
    label: 'Citizenship status',
    type: 'INTEGER',
    requirement: 'optional',
    options: citizenStatuses,
    section: 'Classification',
    responseName: 'CitizenStatus',
  },
  {
    key: 'duration',
    label: 'Duration',
    type: 'INTEGER',
    requirement: 'optional',
    section: 'Schedule',
    responseName: 'Duration',
  },
  {
    key: 'durationtype',
    label: 'Duration unit',
    type: 'INTEGER',
    requirement: 'optional',
    options: durationUnits,
    section: 'Schedule',
    responseName: 'DurationType',
  },
  {
    key: 'ratestructure',
    suggest: true,
    label: 'Rate structure ID',
    type: 'INTEGER',
    requirement: 'optional',
    section: 'Rates',
    hint: 'VMS system ID of the rate structure used',
    responseName: 'RateStructure',
  },
  {
    key: 'billrangefrom',
    label: 'Bill rate, hourly high',
    type: 'DECIMAL',
    requirement: 'optional',
    section: 'Rates',
    hint: 'The spec names this field "from" but it is the Hourly High',
    responseName: 'BillRangeFrom',
  },
  {
    key: 'billrangeto',
    label: 'Bill rate, hourly low',
    type: 'DECIMAL',
    requirement: 'optional',
    section: 'Rates',
    hint: 'The spec names this field "to" but it is the Hourly Low',
    responseName: 'BillRangeTo',
  },
  {
    key: 'ratesalarydescription',
    label: 'Rate/salary description',
    type: 'STRING',
    requirement: 'optional',
    section: 'Rates',
    responseName: 'RateSalaryDescription',
  },
  {
    key: 'maxpayrate',
    label: 'Max pay rate',
    type: 'DECIMAL',
    requirement: 'optional',
    section: 'Rates',
    responseName: 'MaxPayRate',
  },
  {
    key: 'payrateperiod',
    suggest: true,
    label: 'Pay rate period',
    type: 'INTEGER',
    requirement: 'optional',
    section: 'Rates',
    hint: 'A number; the allowed values depend on the client',
    responseName: 'PayRatePeriod',
  },
  {
    key: 'nottoexceedrate',
    label: 'Not-to-exceed rate',
    type: 'DECIMAL',
    requirement: 'optional',
    section: 'Rates',
    responseName: 'NotToExceedRate',
  },
  {
    key: 'nottoexceedratecode',
    suggest: true,
    label: 'Not-to-exceed rate code',
    type: 'INTEGER',
    requirement: 'conditional',
    section: 'Rates',
    hint: 'Required when the client lets new engagements exceed the hourly high',
    responseName: 'NotToExceedRateCode',
  },
  {
    key: 'hoursunitsperday',
    label: 'Hours per day',
    type: 'DECIMAL',
    requirement: 'insert',
    min: 0,
    max: 24,
    maxDecimals: 2,
    section: 'Schedule',
    hint: '0 to 24, up to 2 decimal places',
    responseName: 'HoursUnitsPerDay',
  },
  {
    key: 'daysperweek',
    label: 'Days per week',
    type: 'INTEGER',
    requirement: 'insert',
    min: 0,
    max: 7,
    section: 'Schedule',
    hint: '0 to 7',
    responseName: 'DaysPerWeek',
  },
  {
    key: 'reqstatus',
    label: 'Status',
    type: 'INTEGER',
    requirement: 'optional',
    options: reqStatuses,
    section: 'Basics',
    hint: 'Amend only: every new requisition starts Open',
    responseName: 'ReqStatus',
  },
  {
    key: 'maximumbillrate',
    label: 'Candidates may be submitted above the maximum bill rate',
    type: 'DECIMAL',
    requirement: 'optional',
    options: maximumBillRateChoices,
    section: 'Rates',
    hint: 'Only on requisitions where the client has configured it',
    responseName: 'MaximumBillRate',
  },
  {
    key: 'engagementtype',
    label: 'Engagement type',
    type: 'INTEGER',
    requirement: 'insert',
    options: requisitionEngagementTypes,
    section: 'Basics',
    hint: 'A single choice; on Amend it changes the type',
    responseName: 'EngagementType',
  },
  {
    key: 'shortdescription',
    multiline: true,
    label: 'Short description',
    type: 'STRING',
    requirement: 'insert',
    section: 'Description',
    responseName: 'ShortDescription',
  },
  {
    key: 'completedescription',
    multiline: true,
    label: 'Complete description',
    type: 'STRING',
    requirement: 'optional',
    section: 'Description',
    hint: 'Long description text',
    responseName: 'CompleteDescription',
  },
  {
    key: 'behaviorcharacteristics',
    multiline: true,
    label: 'Behavior characteristics',
    type: 'STRING',
    requirement: 'optional',
    section: 'Description',
    responseName: 'BehaviorCharacteristics',
  },
  {
    key: 'altemail',
    personal: 'email',
    label: 'Alternate e-mail',
    type: 'STRING',
    requirement: 'optional',
    format: 'email',
    section: 'People',
    responseName: 'AltEmail',
  },
  {
    key: 'divbranch',
    suggest: true,
    label: 'Division / branch',
    type: 'STRING',
    requirement: 'optional',
    section: 'Classification',
    responseName: 'DivBranch',
  },
] as const satisfies readonly FieldDef[];

const skillFields = keyed<SkillKey>(
  oneTo(MAX_SKILLS).flatMap((n): FieldDef[] => [
    {
      key: `skill${n}`,
      label: `Skill ${n} sequence number`,
      type: 'INTEGER',
      requirement: 'optional',
      section: 'Skills',
      hint: 'Derived from the row order',
      responseName: `Skill${n}`,
      row: { group: 'skills', n, part: 'sequence' },
    },
    {
      key: `skilldescription${n}`,
      multiline: true,
      label: `Skill ${n} description`,
      type: 'STRING',
      requirement: 'optional',
      section: 'Skills',
      responseName: `SkillDescription${n}`,
      row: { group: 'skills', n, part: 'description' },
    },
    {
      key: `requireddesired${n}`,
      label: `Skill ${n} required/desired`,
      type: 'INTEGER',
      requirement: 'optional',
      options: requiredDesired,
      section: 'Skills',
      responseName: `RequiredDesired${n}`,
      row: { group: 'skills', n, part: 'requireddesired' },
    },
    {
      key: `amountofexperience${n}`,
      label: `Skill ${n} amount of experience`,
      type: 'DECIMAL',
      requirement: 'optional',
      section: 'Skills',
      responseName: `AmountOfExperience${n}`,
      row: { group: 'skills', n, part: 'amountofexperience' },
    },
    {
      key: `amountofexperiencetype${n}`,
      ...skillExperienceUnit(n),
      responseName: `AmountOfExperienceType${n}`,
      row: { group: 'skills', n, part: 'amountofexperiencetype' },
    },
    {
      key: `expertiserating${n}`,
      suggest: true,
      ...skillExpertiseRating(n),
      responseName: `ExpertiseRating${n}`,
      row: { group: 'skills', n, part: 'expertiserating' },
    },
  ]),
);

const questionFields = keyed<QuestionKey>(
  oneTo(MAX_QUESTIONS).flatMap((n): FieldDef[] => [
    {
      key: `question${n}`,
      label: `Question ${n} sequence number`,
      type: 'INTEGER',
      requirement: 'optional',
      section: 'Questions',
      hint: 'Derived from the row order',
      responseName: `Question${n}`,
      row: { group: 'questions', n, part: 'sequence' },
    },
    {
      key: `questiondescription${n}`,
      multiline: true,
      label: `Question ${n} text`,
      type: 'STRING',
      requirement: 'optional',
      section: 'Questions',
      responseName: `QuestionDescription${n}`,
      row: { group: 'questions', n, part: 'description' },
    },
  ]),
);

const person = (
  prefix: string,
  who: string,
  section: string,
  required: boolean,
  responseStem: string,
): FieldDef[] => [
  {
    suggest: true,
    key: `${prefix}firstname`,
    personal: 'name',
    label: `${who} first name`,
    type: 'STRING',
    requirement: required ? 'either' : 'optional',
    section,
    hint: `Must match the user profile exactly; not needed if the ${who.toLowerCase()} ID is used`,
    responseName: `${responseStem}FirstName`,
  },
  {
    suggest: true,
    key: `${prefix}lastname`,
    personal: 'name',
    label: `${who} last name`,
    type: 'STRING',
    requirement: required ? 'either' : 'optional',
    section,
    hint: `Must match the user profile exactly; not needed if the ${who.toLowerCase()} ID is used`,
    responseName: `${responseStem}LastName`,
  },
  {
    suggest: true,
    key: `${prefix}id`,
    label: `${who} ID`,
    type: 'STRING',
    requirement: required ? 'either' : 'optional',
    section,
    hint: 'User ID or client internal ID; must match the profile exactly; not needed if the names are used',
    responseName: `${responseStem}Id`,
  },
];

const reference = (stem: string, what: string, responseStem: string): FieldDef[] => [
  {
    suggest: true,
    key: `${stem}refcode`,
    label: `${what} reference code`,
    type: 'STRING',
    requirement: 'optional',
    section: 'Accounting',
    hint: `Give the reference code or the VMS ID`,
    responseName: `${responseStem}RefCode`,
  },
  {
    suggest: true,
    key: `${stem}id`,
    label: `${what} VMS ID`,
    type: 'INTEGER',
    requirement: 'optional',
    section: 'Accounting',
    hint: `Give the reference code or the VMS ID`,
    responseName: `${responseStem}Id`,
  },
];

const peopleAndAccountingFields = keyed<PeopleAndAccountingKey>([
  ...person('clientcontact', 'Client contact', 'People', false, 'ClientContact'),
  ...person('reqowner', 'Requisition owner', 'People', true, 'ReqOwner'),
  ...person('reportsto', 'Reports-to user', 'People', false, 'ReportsTo'),
  ...reference('worklocation', 'Work location', 'WorkLocation'),
  ...reference('costcenter', 'Cost center', 'CostCenter'),
  ...reference('gl', 'GL', 'Gl'),
  ...reference('project', 'Project', 'Project'),
]);

type PersonKey<P extends string> = `${P}firstname` | `${P}lastname` | `${P}id`;
type ReferenceKey<S extends string> = `${S}refcode` | `${S}id`;
export type PeopleAndAccountingKey =
  | PersonKey<'clientcontact' | 'reqowner' | 'reportsto'>
  | ReferenceKey<'worklocation' | 'costcenter' | 'gl' | 'project'>;

const customFields = keyed<CustomFieldKey>(
  oneTo(MAX_CUSTOM_FIELDS).map((n): FieldDef => ({
    key: `customfieldvalue${n}`,
    label: `Custom field ${n}`,
    type: 'STRING',
    requirement: 'optional',
    section: 'Custom fields',
    responseName: `CustomFieldValue${n}`,
    row: { group: 'customfields', n, part: 'value' },
  })),
);

export type RequisitionHeadKey = (typeof headFields)[number]['key'];
export type RequisitionWireKey =
  RequisitionHeadKey | SkillKey | QuestionKey | PeopleAndAccountingKey | CustomFieldKey;

export const requisitionCatalog: ReadonlyArray<FieldDef<RequisitionWireKey>> = [
  ...headFields,
  ...skillFields,
  ...questionFields,
  ...peopleAndAccountingFields,
  ...customFields,
];

export const requisitionWireKeys: readonly RequisitionWireKey[] = requisitionCatalog.map(
  (f) => f.key,
);

const byKey = new Map<string, FieldDef<RequisitionWireKey>>(
  requisitionCatalog.map((f) => [f.key, f]),
);

export function requisitionField(key: string): FieldDef<RequisitionWireKey> | undefined {
  return byKey.get(key);
}

/**
 * PascalCase name of a field in GET Requisitions records (the real service's documentation,
 * decision 031).
 */
export function requisitionResponseName(key: RequisitionWireKey): string {
  return byKey.get(key)?.responseName ?? key;
}

/** The requisition form's sections, in page order; every field names one (catalog.test.ts). */
export const requisitionSections = [
  'Basics',
  'Classification',
  'Schedule',
  'Rates',
  'Description',
  'People',
  'Accounting',
  'Skills',
  'Questions',
  'Custom fields',
] as const;
export type RequisitionSection = (typeof requisitionSections)[number];

export function isRequisitionSection(section: string): section is RequisitionSection {
  return requisitionSections.some((candidate) => candidate === section);
}

/** The people identified by an id or a first+last name pair (spec rule 3). */
export const requisitionPeople = [
  { stem: 'clientcontact', label: 'Client contact' },
  { stem: 'reqowner', label: 'Requisition owner' },
  { stem: 'reportsto', label: 'Reports-to user' },
] as const;

/** Accounting references given by a code or a VMS ID (spec rule 8). */
export const requisitionReferences = [
  { stem: 'worklocation', label: 'Work location' },
  { stem: 'costcenter', label: 'Cost center' },
  { stem: 'gl', label: 'GL' },
  { stem: 'project', label: 'Project' },
] as const;

/** The parts of a skill row and of a question row in the form model, in wire order. */
export const skillRowParts = [
  'description',
  'requireddesired',
  'amountofexperience',
  'amountofexperiencetype',
  'expertiserating',
] as const;
export type SkillRowPart = (typeof skillRowParts)[number];
