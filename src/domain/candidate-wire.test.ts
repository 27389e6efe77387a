import { describe, expect, it } from 'vitest';
import { expectIssueIn } from '@/test-support/issue-expectations';
import { validCandidateWire } from '@/test-support/test-data';
import { candidateField, candidateWireKeys } from './candidate-catalog';
import type { RequisitionContext } from './candidate-wire';
import { blankCandidateWire, candidateWireSchema, validateCandidateItem } from './candidate-wire';
import type { FieldIssue } from './field-issue';

/*
 * The candidate wire rules: the spec's types, enumerations and bounds, and decision 000's
 * "Candidate rules that can be checked locally". Expected values are the spec's, transcribed.
 */
type Item = Record<string, unknown>;

function issuesOf(item: unknown, requisition?: RequisitionContext): FieldIssue[] {
  const result = validateCandidateItem(item, {
    dateFormat: 'YYYY-MM-DD',
    ...(requisition ? { requisition } : {}),
  });
  return result.ok ? [] : result.issues;
}

function expectValid(item: unknown, requisition?: RequisitionContext): void {
  expect(issuesOf(item, requisition)).toEqual([]);
}

function expectIssue(
  item: unknown,
  field: string,
  patterns: Array<RegExp | string> = [],
  requisition?: RequisitionContext,
): FieldIssue {
  return expectIssueIn(issuesOf(item, requisition), field, patterns);
}

const label = (key: string) => candidateField(key)?.label ?? key;
const candidate = (extra: Item = {}): Item => ({ ...validCandidateWire(), ...extra });

/** A candidate answering `answers` questions and responding to `skills` skills. */
function withRows(answers: number, skills: number, extra: Item = {}): Item {
  const item = candidate();
  for (let n = 1; n <= answers; n += 1) item[`answer${n}`] = `Answer ${n}`;
  for (let n = 1; n <= skills; n += 1) {
    item[`skill${n}response`] = '3';
    item[`skill${n}amountofexperienceduration`] = '4';
    item[`skill${n}amountofexperienceunits`] = '4';
    item[`skill${n}expertiserating`] = '2';
  }
  return { ...item, ...extra };
}

describe('a valid candidate', () => {
  it('passes with the five required fields', () => {
    expectValid(candidate());
  });

  it('comes out with every documented key, in order, missing keys as ""', () => {
    const result = validateCandidateItem(candidate(), { dateFormat: 'YYYY-MM-DD' });
    if (!result.ok) throw new Error(JSON.stringify(result.issues));
    expect(Object.keys(result.value)).toEqual(candidateWireKeys);
    expect(result.value.answer1).toBe('');
    expect(Object.keys(blankCandidateWire())).toEqual(candidateWireKeys);
  });

  it('is what candidateWireSchema(format, context).safeParse accepts', () => {
    const context = { skillCount: 2, questionCount: 1 };
    expect(candidateWireSchema('YYYY-MM-DD', context).safeParse(withRows(1, 2)).success).toBe(true);
    expect(candidateWireSchema('YYYY-MM-DD', context).safeParse(withRows(2, 2)).success).toBe(
      false,
    );
    expect(candidateWireSchema('MM/DD/YYYY').safeParse(withRows(5, 10)).success).toBe(true);
  });
});

describe('required fields (decision 000)', () => {
  it.each(['requirementid', 'firstname', 'lastname', 'candemail', 'engagementtype'])(
    '%s is required',
    (field) => {
      const item = candidate();
      delete item[field];
      expectIssue(item, field, [label(field), /required/]);
      expectIssue(candidate({ [field]: '  ' }), field, [/required/]);
    },
  );

  it('checks requirementid is a whole number', () => {
    expectIssue(candidate({ requirementid: 'R-5000' }), 'requirementid', [/whole number/]);
  });
});

describe('candemail must be a valid address', () => {
  it.each(['ada@vendor.example', 'ada.lovelace+cv@mail.vendor.co.uk'])('accepts %j', (email) => {
    expectValid(candidate({ candemail: email }));
  });
  it.each([
    'ada',
    'ada@vendor',
    'ada@@vendor.example',
    'ada lovelace@vendor.example',
    '@vendor.example',
  ])('refuses %j', (email) => {
    expectIssue(candidate({ candemail: email }), 'candemail', [/valid e-mail address/]);
  });
});

describe('enumerations: each allowed value passes, its neighbours fail naming the allowed values', () => {
  const skillResponses: Array<[string, string]> = [
    ['1', 'Close'],
    ['2', 'Exceeds'],
    ['3', 'Meets'],
    ['4', 'Not at all'],
  ];
  const units: Array<[string, string]> = [
    ['1', 'Days'],
    ['2', 'Weeks'],
    ['3', 'Months'],
    ['4', 'Years'],
  ];
  const yesNo: Array<[string, string]> = [
    ['Y', 'Yes'],
    ['N', 'No'],
  ];
  const cases: Array<{ field: string; allowed: Array<[string, string]>; refused: string[] }> = [
    {
      field: 'engagementtype',
      allowed: [
        ['1', 'Contract'],
        ['2', 'Contract To Perm'],
        ['3', 'Perm'],
        ['4', 'Project'],
      ],
      refused: ['0', '5', 'Contract'],
    },
    ...[
      'iscandcurrentlyemployedbyvendor',
      'iscandcurrentlypaidbyvendor',
      'iscandindependantcontractor',
      'wascandeveremployedbyclient',
    ].map((field) => ({ field, allowed: yesNo, refused: ['y', 'Yes', '1', 'T'] })),
    ...[1, 4, 10].flatMap((n) => [
      { field: `skill${n}response`, allowed: skillResponses, refused: ['0', '5'] },
      { field: `skill${n}amountofexperienceunits`, allowed: units, refused: ['0', '5'] },
    ]),
  ];

  describe.each(cases)('$field', ({ field, allowed, refused }) => {
    it.each(allowed)('accepts %j (%s)', (value) => {
      expectValid(candidate({ [field]: value }));
    });
    it.each(refused)('refuses %j', (value) => {
      const issue = expectIssue(candidate({ [field]: value }), field, [label(field), /one of/]);
      for (const [allowedValue, allowedLabel] of allowed) {
        expect(issue.message).toContain(allowedValue);
        expect(issue.message).toContain(allowedLabel);
      }
    });
  });

  it('checks skill<n>response and skill<n>amountofexperienceunits for every n 1–10', () => {
    for (let n = 1; n <= 10; n += 1) {
      expectIssue(candidate({ [`skill${n}response`]: '5' }), `skill${n}response`);
      expectIssue(
        candidate({ [`skill${n}amountofexperienceunits`]: '0' }),
        `skill${n}amountofexperienceunits`,
      );
    }
  });

  describe('candcitizenshipstatus takes the spec’s exact strings', () => {
    const statuses = [
      'US Citizen',
      'H1B',
      'K1',
      'Green card',
      'F1',
      'Authorized Canadian Worker',
      'Canadian Citizen',
      'Landed Immigrant',
      'Authorized UK Worker',
    ];
    it.each(statuses)('accepts %j', (status) => {
      expectValid(candidate({ candcitizenshipstatus: status }));
    });
    it('accepts "Other" with an explanation', () => {
      expectValid(candidate({ candcitizenshipstatus: 'Other', candcitizenshipexplain: 'TN visa' }));
    });
    it.each(['us citizen', 'Green Card', 'H-1B', 'Authorised Canadian Worker', 'other', '1'])(
      'refuses %j, listing the statuses',
      (status) => {
        const issue = expectIssue(
          candidate({ candcitizenshipstatus: status }),
          'candcitizenshipstatus',
          [/one of/],
        );
        for (const allowed of [...statuses, 'Other']) expect(issue.message).toContain(allowed);
      },
    );
  });
});

describe('types on the wire', () => {
  it('checks the DECIMAL rates', () => {
    for (const field of ['billrate', 'vendorrate', 'payrate', 'budgetrate']) {
      expectValid(candidate({ [field]: '85.50' }));
      expectIssue(candidate({ [field]: '$85' }), field, [label(field), /number/]);
    }
  });

  it('checks the INTEGER skill experience and rating', () => {
    expectValid(candidate({ skill2amountofexperienceduration: '6', skill2expertiserating: '3' }));
    expectIssue(
      candidate({ skill2amountofexperienceduration: '2.5' }),
      'skill2amountofexperienceduration',
      [/whole number/],
    );
    expectIssue(candidate({ skill2expertiserating: 'high' }), 'skill2expertiserating', [
      /whole number/,
    ]);
  });

  it.each([5000, null, false, ['x']])(
    'refuses a non-string value %j, asking for a JSON string',
    (value) => {
      expectIssue(candidate({ requirementid: value }), 'requirementid', [/JSON string/]);
    },
  );

  it.each([null, [], 'candidate', 7])('refuses the item %j: it must be a JSON object', (item) => {
    const issues = issuesOf(item);
    expect(issues).toHaveLength(1);
    expect(issues[0]?.message).toMatch(/JSON object/);
  });
});

describe('bounds', () => {
  it('takes 5 answers; answer6 is an error', () => {
    expectValid(withRows(5, 0));
    expectIssue(withRows(5, 0, { answer6: 'x' }), 'answer6', [/at most 5 answers/]);
  });

  it('takes 10 skill responses; skill11response and its fields are errors', () => {
    expectValid(withRows(0, 10));
    for (const key of [
      'skill11response',
      'skill11amountofexperienceduration',
      'skill11amountofexperienceunits',
      'skill11expertiserating',
    ]) {
      expectIssue(withRows(0, 10, { [key]: '1' }), key, [/at most 10 skill responses/]);
    }
  });

  it('takes 5 custom fields; candcustomfield6 is an error', () => {
    const five = candidate(
      Object.fromEntries([1, 2, 3, 4, 5].map((n) => [`candcustomfield${n}`, `r${n}`])),
    );
    expectValid(five);
    expectIssue({ ...five, candcustomfield6: 'x' }, 'candcustomfield6', [
      /at most 5 custom fields/,
    ]);
  });
});

describe('unknown keys', () => {
  it('suggests the documented key for a wrongly cased one', () => {
    expectIssue(candidate({ candEmail: 'a@b.example' }), 'candEmail', [/did you mean candemail/]);
    expectIssue(candidate({ FirstName: 'Ada' }), 'FirstName', [/did you mean firstname/]);
  });
  it('refuses a requisition field in a candidate', () => {
    expectIssue(candidate({ titlerole: 'Developer' }), 'titlerole', [/not a candidate field/]);
  });
});

describe('flags', () => {
  it('the default-N flags may be blank on the wire (the form sends N)', () => {
    expectValid(candidate({ iscandindependantcontractor: '', wascandeveremployedbyclient: '' }));
  });
});

describe('candcitizenshipexplain is required when the status is Other', () => {
  it('refuses Other without an explanation', () => {
    expectIssue(candidate({ candcitizenshipstatus: 'Other' }), 'candcitizenshipexplain', [
      /Citizenship explanation/,
      /required/,
      /Other/,
    ]);
    expectIssue(
      candidate({ candcitizenshipstatus: 'Other', candcitizenshipexplain: '   ' }),
      'candcitizenshipexplain',
    );
  });
  it('does not ask for it with another status', () => {
    expectValid(candidate({ candcitizenshipstatus: 'H1B' }));
    expectValid(
      candidate({ candcitizenshipstatus: 'H1B', candcitizenshipexplain: 'Renewed 2025' }),
    );
  });
});

describe('with the requisition known: only its questions and skills can be answered', () => {
  const context = { skillCount: 3, questionCount: 2 };

  it('accepts answers and responses within the requisition’s counts', () => {
    expectValid(withRows(2, 3), context);
  });

  it('refuses an answer to a question the requisition does not have', () => {
    expectIssue(
      withRows(2, 3, { answer3: 'Yes' }),
      'answer3',
      [/2 questions/, /clear answer3/],
      context,
    );
    expectIssue(candidate({ answer1: 'Yes' }), 'answer1', [/0 questions/], {
      skillCount: 0,
      questionCount: 0,
    });
  });

  it('refuses a response to skill 7 of a requisition with 3 skills, on the field given', () => {
    expectIssue(
      withRows(0, 3, { skill7response: '1' }),
      'skill7response',
      [/3 skills/, /skill 7/],
      context,
    );
    expectIssue(
      withRows(0, 3, { skill4amountofexperienceunits: '2' }),
      'skill4amountofexperienceunits',
      [/3 skills/],
      context,
    );
  });

  it('without a requisition, answers 1–5 and skill responses 1–10 are all accepted', () => {
    expectValid(withRows(5, 10));
  });
});
