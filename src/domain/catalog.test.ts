import { describe, expect, it } from 'vitest';
import { candidateCatalog, candidateField, candidateWireKeys } from './candidate-catalog';
import type { DataType, FieldDef, Requirement } from './catalog-types';
import type { RequisitionWireKey } from './requisition-catalog';
import {
  requisitionCatalog,
  requisitionField,
  requisitionResponseName,
  requisitionWireKeys,
} from './requisition-catalog';

/*
 * The spec's field tables, transcribed by hand (the interface specification,
 * "Resources and their fields"), in their documented order. Required column: "I, A" →
 * insert-amend; "Y" → insert (clientinternalreq → insert-amend, decision 000: Amend requires it);
 * the reqclassid/fullreqpath and reqowner alternatives → either; "conditional" → conditional;
 * candidate "Y" → required; "no" → optional.
 */
type SpecField = readonly [key: string, type: DataType, requirement: Requirement];

const requisitionHead: SpecField[] = [
  ['requesttype', 'FLAG', 'insert-amend'],
  ['orgid', 'INTEGER', 'insert-amend'],
  ['reqclassid', 'INTEGER', 'either'],
  ['fullreqpath', 'STRING', 'either'],
  ['titlerole', 'STRING', 'insert'],
  ['noofopenings', 'INTEGER', 'insert'],
  ['startdate', 'DATE', 'optional'],
  ['enddate', 'DATE', 'optional'],
  ['nonewsubmittalsafter', 'DATE', 'optional'],
  ['clientinternalreq', 'STRING', 'insert-amend'],
  ['reqpriority', 'INTEGER', 'optional'],
  ['citizenstatus', 'INTEGER', 'optional'],
  ['duration', 'INTEGER', 'optional'],
  ['durationtype', 'INTEGER', 'optional'],
  ['ratestructure', 'INTEGER', 'optional'],
  ['billrangefrom', 'DECIMAL', 'optional'],
  ['billrangeto', 'DECIMAL', 'optional'],
  ['ratesalarydescription', 'STRING', 'optional'],
  ['maxpayrate', 'DECIMAL', 'optional'],
  ['payrateperiod', 'INTEGER', 'optional'],
  ['nottoexceedrate', 'DECIMAL', 'optional'],
  ['nottoexceedratecode', 'INTEGER', 'conditional'],
  ['hoursunitsperday', 'DECIMAL', 'insert'],
  ['daysperweek', 'INTEGER', 'insert'],
  ['reqstatus', 'INTEGER', 'optional'],
  ['maximumbillrate', 'DECIMAL', 'optional'],
  ['engagementtype', 'INTEGER', 'insert'],
  ['shortdescription', 'STRING', 'insert'],
  ['completedescription', 'STRING', 'optional'],
  ['behaviorcharacteristics', 'STRING', 'optional'],
  ['altemail', 'STRING', 'optional'],
  ['divbranch', 'STRING', 'optional'],
];

const range = (count: number) => Array.from({ length: count }, (_, i) => i + 1);

const requisitionSkillItems: SpecField[] = range(10).flatMap((n): SpecField[] => [
  [`skill${n}`, 'INTEGER', 'optional'],
  [`skilldescription${n}`, 'STRING', 'optional'],
  [`requireddesired${n}`, 'INTEGER', 'optional'],
  [`amountofexperience${n}`, 'DECIMAL', 'optional'],
  [`amountofexperiencetype${n}`, 'INTEGER', 'optional'],
  [`expertiserating${n}`, 'INTEGER', 'optional'],
]);

const requisitionQuestionItems: SpecField[] = range(5).flatMap((n): SpecField[] => [
  [`question${n}`, 'INTEGER', 'optional'],
  [`questiondescription${n}`, 'STRING', 'optional'],
]);

const requisitionPeopleAndAccounting: SpecField[] = [
  ['clientcontactfirstname', 'STRING', 'optional'],
  ['clientcontactlastname', 'STRING', 'optional'],
  ['clientcontactid', 'STRING', 'optional'],
  ['reqownerfirstname', 'STRING', 'either'],
  ['reqownerlastname', 'STRING', 'either'],
  ['reqownerid', 'STRING', 'either'],
  ['reportstofirstname', 'STRING', 'optional'],
  ['reportstolastname', 'STRING', 'optional'],
  ['reportstoid', 'STRING', 'optional'],
  ['worklocationrefcode', 'STRING', 'optional'],
  ['worklocationid', 'INTEGER', 'optional'],
  ['costcenterrefcode', 'STRING', 'optional'],
  ['costcenterid', 'INTEGER', 'optional'],
  ['glrefcode', 'STRING', 'optional'],
  ['glid', 'INTEGER', 'optional'],
  ['projectrefcode', 'STRING', 'optional'],
  ['projectid', 'INTEGER', 'optional'],
  ...range(10).map((n): SpecField => [`customfieldvalue${n}`, 'STRING', 'optional']),
];

const specRequisition: SpecField[] = [
  ...requisitionHead,
  ...requisitionSkillItems,
  ...requisitionQuestionItems,
  ...requisitionPeopleAndAccounting,
];

const specCandidate: SpecField[] = [
  ['requirementid', 'INTEGER', 'required'],
  ['firstname', 'STRING', 'required'],
  ['lastname', 'STRING', 'required'],
  ['candemail', 'STRING', 'required'],
  ['engagementtype', 'INTEGER', 'required'],
  ['iscandcurrentlyemployedbyvendor', 'FLAG', 'optional'],
  ['iscandcurrentlypaidbyvendor', 'FLAG', 'optional'],
  ['availability', 'STRING', 'optional'],
  ['vendorcandidateid', 'STRING', 'optional'],
  ['summaryofqualifications', 'STRING', 'optional'],
  ...range(5).map((n): SpecField => [`answer${n}`, 'STRING', 'optional']),
  ['iscandindependantcontractor', 'FLAG', 'optional'],
  ['wascandeveremployedbyclient', 'FLAG', 'optional'],
  ['candcitizenshipstatus', 'STRING', 'optional'],
  ['candcitizenshipexplain', 'STRING', 'optional'],
  ['billrate', 'DECIMAL', 'optional'],
  ['vendorrate', 'DECIMAL', 'optional'],
  ['payrate', 'DECIMAL', 'optional'],
  ['budgetrate', 'DECIMAL', 'optional'],
  ['candidatecomments', 'STRING', 'optional'],
  ...range(5).map((n): SpecField => [`candcustomfield${n}`, 'STRING', 'optional']),
  ...range(10).flatMap((n): SpecField[] => [
    [`skill${n}response`, 'INTEGER', 'optional'],
    [`skill${n}amountofexperienceduration`, 'INTEGER', 'optional'],
    [`skill${n}amountofexperienceunits`, 'INTEGER', 'optional'],
    [`skill${n}expertiserating`, 'INTEGER', 'optional'],
  ]),
];

/** The spec's allowed values with their labels, transcribed from its meaning column. */
const durationUnitSpec = [
  ['1', 'Days'],
  ['2', 'Weeks'],
  ['3', 'Months'],
  ['4', 'Years'],
] as const;
const yesNoSpec = [
  ['Y', 'Yes'],
  ['N', 'No'],
] as const;
const specRequisitionOptions: Record<string, ReadonlyArray<readonly [string, string]>> = {
  requesttype: [
    ['I', 'Insert'],
    ['A', 'Amend'],
  ],
  reqpriority: [
    ['1', 'High'],
    ['2', 'Medium'],
    ['3', 'Low'],
  ],
  citizenstatus: [
    ['1', 'US Citizen'],
    ['2', 'Authorised US Worker'],
    ['3', 'Open'],
    ['4', 'Authorised Cdn Worker'],
    ['5', 'Cdn Citizen'],
    ['6', 'Landed Immigrant'],
  ],
  durationtype: durationUnitSpec,
  reqstatus: [
    ['4', 'Open'],
    ['5', 'Interview occurring'],
    ['6', 'Filled'],
    ['8', 'Closed/Cancelled'],
    ['9', 'On Hold'],
  ],
  maximumbillrate: [
    ['0', 'No'],
    ['1', 'Yes'],
  ],
  engagementtype: [
    ['1', 'Contract'],
    ['2', 'Contract To Perm'],
    ['3', 'Perm'],
  ],
  ...Object.fromEntries(
    range(10).flatMap((n) => [
      [
        `requireddesired${n}`,
        [
          ['1', 'Required'],
          ['2', 'Highly Desired'],
          ['3', 'Desired'],
          ['4', 'Nice to Have'],
          ['5', 'Not Required'],
        ],
      ],
      [`amountofexperiencetype${n}`, durationUnitSpec],
    ]),
  ),
};

const citizenshipSpec = [
  'US Citizen',
  'H1B',
  'K1',
  'Green card',
  'F1',
  'Other',
  'Authorized Canadian Worker',
  'Canadian Citizen',
  'Landed Immigrant',
  'Authorized UK Worker',
];

const specCandidateOptions: Record<string, ReadonlyArray<readonly [string, string]>> = {
  engagementtype: [
    ['1', 'Contract'],
    ['2', 'Contract To Perm'],
    ['3', 'Perm'],
    ['4', 'Project'],
  ],
  iscandcurrentlyemployedbyvendor: yesNoSpec,
  iscandcurrentlypaidbyvendor: yesNoSpec,
  iscandindependantcontractor: yesNoSpec,
  wascandeveremployedbyclient: yesNoSpec,
  // A STRING whose value is the status itself.
  candcitizenshipstatus: citizenshipSpec.map((status) => [status, status] as const),
  ...Object.fromEntries(
    range(10).flatMap((n) => [
      [
        `skill${n}response`,
        [
          ['1', 'Close'],
          ['2', 'Exceeds'],
          ['3', 'Meets'],
          ['4', 'Not at all'],
        ],
      ],
      [`skill${n}amountofexperienceunits`, durationUnitSpec],
    ]),
  ),
};

const optionPairs = (def: FieldDef | undefined) =>
  def?.options?.map((option) => [option.value, option.label]);

describe.each([
  {
    payload: 'requisition',
    catalog: requisitionCatalog,
    keys: requisitionWireKeys as readonly string[],
    spec: specRequisition,
    options: specRequisitionOptions,
  },
  {
    payload: 'candidate',
    catalog: candidateCatalog,
    keys: candidateWireKeys as readonly string[],
    spec: specCandidate,
    options: specCandidateOptions,
  },
])('the $payload catalog', ({ catalog, keys, spec, options }) => {
  it('lists every field of the spec, in the documented order, and nothing else', () => {
    expect(catalog.map((def) => def.key)).toEqual(spec.map(([key]) => key));
    expect(keys).toEqual(spec.map(([key]) => key));
  });

  it('gives each field the spec’s data type and requirement', () => {
    const actual = catalog.map((def) => [def.key, def.type, def.requirement]);
    expect(actual).toEqual(spec.map((field) => [...field]));
  });

  it('gives every field a human label and a form section', () => {
    for (const def of catalog) {
      expect(def.label.trim(), def.key).not.toBe('');
      expect(def.label, def.key).not.toBe(def.key);
      expect(def.section.trim(), def.key).not.toBe('');
    }
    const labels = catalog.map((def) => def.label);
    expect(new Set(labels).size).toBe(labels.length);
  });

  it('numbers the labels of generated fields, so "skill 3" and "skill 4" differ', () => {
    for (const def of catalog) {
      const n = /(\d+)/.exec(def.key)?.[1];
      if (n !== undefined) expect(def.label, def.key).toContain(n);
    }
  });

  it('has exactly the spec’s allowed values, with the spec’s labels', () => {
    const withOptions = catalog.filter((def) => def.options !== undefined).map((def) => def.key);
    expect(withOptions.sort()).toEqual(Object.keys(options).sort());
    for (const [key, pairs] of Object.entries(options)) {
      const def = catalog.find((d) => d.key === key);
      expect(optionPairs(def), key).toEqual(pairs.map((pair) => [...pair]));
    }
  });

  it('keeps each generated group in one section', () => {
    const groups = new Map<string, Set<string>>();
    for (const def of catalog) {
      if (!def.row) continue;
      const sections = groups.get(def.row.group) ?? new Set<string>();
      sections.add(def.section);
      groups.set(def.row.group, sections);
    }
    for (const [group, sections] of groups) expect([...sections], group).toHaveLength(1);
  });
});

describe('generated items', () => {
  const count = (catalog: readonly FieldDef[], pattern: RegExp) =>
    catalog.filter((def) => pattern.test(def.key)).map((def) => def.key);

  it('gives the requisition exactly skill items 1–10, six fields each', () => {
    for (const stem of [
      'skill',
      'skilldescription',
      'requireddesired',
      'amountofexperience',
      'amountofexperiencetype',
      'expertiserating',
    ]) {
      expect(count(requisitionCatalog, new RegExp(`^${stem}\\d+$`)), stem).toEqual(
        range(10).map((n) => `${stem}${n}`),
      );
    }
    expect(requisitionCatalog.filter((def) => def.row?.group === 'skills')).toHaveLength(60);
  });

  it('gives the requisition exactly question items 1–5, two fields each, and 10 custom fields', () => {
    expect(count(requisitionCatalog, /^question\d+$/)).toEqual(range(5).map((n) => `question${n}`));
    expect(count(requisitionCatalog, /^questiondescription\d+$/)).toEqual(
      range(5).map((n) => `questiondescription${n}`),
    );
    expect(count(requisitionCatalog, /^customfieldvalue\d+$/)).toEqual(
      range(10).map((n) => `customfieldvalue${n}`),
    );
  });

  it('gives the candidate exactly answers 1–5, skill responses 1–10 (four fields) and 5 custom fields', () => {
    expect(count(candidateCatalog, /^answer\d+$/)).toEqual(range(5).map((n) => `answer${n}`));
    expect(count(candidateCatalog, /^candcustomfield\d+$/)).toEqual(
      range(5).map((n) => `candcustomfield${n}`),
    );
    for (const suffix of [
      'response',
      'amountofexperienceduration',
      'amountofexperienceunits',
      'expertiserating',
    ]) {
      expect(count(candidateCatalog, new RegExp(`^skill\\d+${suffix}$`)), suffix).toEqual(
        range(10).map((n) => `skill${n}${suffix}`),
      );
    }
  });

  it('places each generated field in its row: group, 1-based n', () => {
    expect(requisitionField('skilldescription7')?.row).toMatchObject({ group: 'skills', n: 7 });
    expect(requisitionField('questiondescription5')?.row).toMatchObject({
      group: 'questions',
      n: 5,
    });
    expect(candidateField('answer3')?.row).toMatchObject({ group: 'answers', n: 3 });
    expect(candidateField('skill10amountofexperienceunits')?.row).toMatchObject({
      group: 'skillResponses',
      n: 10,
    });
    expect(requisitionField('skilldescription11')).toBeUndefined();
    expect(candidateField('answer6')).toBeUndefined();
  });
});

describe('bounds and formats from the spec and decision 000', () => {
  it('bounds hoursunitsperday to 0–24 with 2 decimals and daysperweek to 0–7', () => {
    expect(requisitionField('hoursunitsperday')).toMatchObject({ min: 0, max: 24, maxDecimals: 2 });
    expect(requisitionField('daysperweek')).toMatchObject({ min: 0, max: 7 });
  });

  it('needs at least one opening (decision 000: noofopenings ≥ 1)', () => {
    expect(requisitionField('noofopenings')?.min).toBe(1);
  });

  it('checks e-mail addresses: candemail (spec) and altemail', () => {
    expect(candidateField('candemail')?.format).toBe('email');
    expect(requisitionField('altemail')?.format).toBe('email');
  });

  it('labels the bill range as the spec reads it: from = hourly high, to = hourly low', () => {
    expect(requisitionField('billrangefrom')?.label).toMatch(/hourly high/i);
    expect(requisitionField('billrangeto')?.label).toMatch(/hourly low/i);
  });
});

describe('requisitionResponseName', () => {
  it('gives the PascalCase names of GET Requisitions records (the real service’s documentation, decision 031)', () => {
    const documented: Array<[RequisitionWireKey, string]> = [
      ['altemail', 'AltEmail'],
      ['amountofexperience1', 'AmountOfExperience1'],
      ['amountofexperience10', 'AmountOfExperience10'],
      ['amountofexperiencetype1', 'AmountOfExperienceType1'],
      ['amountofexperiencetype10', 'AmountOfExperienceType10'],
      ['skill1', 'Skill1'],
      ['skilldescription1', 'SkillDescription1'],
      ['requireddesired1', 'RequiredDesired1'],
      ['question1', 'Question1'],
      ['reqstatus', 'ReqStatus'],
      ['titlerole', 'TitleRole'],
    ];
    for (const [key, name] of documented) expect(requisitionResponseName(key)).toBe(name);
  });

  it('names every field in PascalCase, the same letters as its wire key', () => {
    for (const key of requisitionWireKeys) {
      const name = requisitionResponseName(key);
      expect(name, key).toMatch(/^[A-Z][A-Za-z0-9]*$/);
      expect(name.toLowerCase(), key).toBe(key);
      // PascalCase, not just a capitalised key: long keys are split into words.
      if (key.length > 12) expect(name.slice(1), key).toMatch(/[A-Z]/);
    }
  });
});

describe('sections', () => {
  it('every field names one of its form’s sections', async () => {
    const { requisitionCatalog, requisitionSections } = await import('./requisition-catalog');
    const { candidateCatalog, candidateSections } = await import('./candidate-catalog');
    const requisition: readonly string[] = requisitionSections;
    const candidate: readonly string[] = candidateSections;
    expect(requisitionCatalog.filter((def) => !requisition.includes(def.section))).toEqual([]);
    expect(candidateCatalog.filter((def) => !candidate.includes(def.section))).toEqual([]);
  });
});
