import { describe, expect, it } from 'vitest';
import { expectIssueIn } from '@/test-support/issue-expectations';
import { validAmendWire, validRequisitionWire } from '@/test-support/test-data';
import type { DateFormat } from './catalog-types';
import type { FieldIssue } from './field-issue';
import { requisitionField, requisitionWireKeys } from './requisition-catalog';
import {
  blankRequisitionWire,
  requisitionWireSchema,
  validateRequisitionItem,
} from './requisition-wire';

/*
 * The requisition wire rules: the spec's types, enumerations and bounds, and decision 000's
 * "Requisition rules that can be checked locally". Expected values are the spec's, transcribed.
 */
type Item = Record<string, unknown>;

function issuesOf(item: unknown, dateFormat: DateFormat = 'YYYY-MM-DD'): FieldIssue[] {
  const result = validateRequisitionItem(item, { dateFormat });
  return result.ok ? [] : result.issues;
}

function expectValid(item: unknown, dateFormat: DateFormat = 'YYYY-MM-DD'): void {
  expect(issuesOf(item, dateFormat)).toEqual([]);
}

/** The one issue on `field`; it must exist, and its message must match every pattern. */
function expectIssue(
  item: unknown,
  field: string,
  patterns: Array<RegExp | string> = [],
  dateFormat: DateFormat = 'YYYY-MM-DD',
): FieldIssue {
  return expectIssueIn(issuesOf(item, dateFormat), field, patterns);
}

const label = (key: string) => requisitionField(key)?.label ?? key;
const insert = (extra: Item = {}): Item => ({ ...validRequisitionWire(), ...extra });
const amend = (extra: Item = {}): Item => ({ ...validAmendWire(), ...extra });

/** An Insert with `count` well-formed skill rows. */
function withSkills(count: number, extra: Item = {}): Item {
  const item = insert();
  for (let n = 1; n <= count; n += 1) {
    item[`skill${n}`] = String(n);
    item[`skilldescription${n}`] = `Skill ${n}`;
    item[`requireddesired${n}`] = '1';
    item[`amountofexperience${n}`] = '2.5';
    item[`amountofexperiencetype${n}`] = '4';
    item[`expertiserating${n}`] = '3';
  }
  return { ...item, ...extra };
}

function withQuestions(count: number, extra: Item = {}): Item {
  const item = insert();
  for (let n = 1; n <= count; n += 1) {
    item[`question${n}`] = String(n);
    item[`questiondescription${n}`] = `Question ${n}?`;
  }
  return { ...item, ...extra };
}

describe('a valid requisition', () => {
  it('passes: the smallest Insert and the smallest Amend', () => {
    expectValid(insert());
    expectValid(amend());
  });

  it('comes out with every documented key, in order, missing keys as ""', () => {
    const result = validateRequisitionItem(insert(), { dateFormat: 'YYYY-MM-DD' });
    if (!result.ok) throw new Error(JSON.stringify(result.issues));
    expect(Object.keys(result.value)).toEqual(requisitionWireKeys);
    expect(result.value.titlerole).toBe('Senior Java Developer');
    expect(result.value.skilldescription1).toBe('');
    expect(result.value.customfieldvalue10).toBe('');
  });

  it('is also what requisitionWireSchema(format).safeParse accepts', () => {
    expect(requisitionWireSchema('YYYY-MM-DD').safeParse(insert()).success).toBe(true);
    expect(requisitionWireSchema('MM/DD/YYYY').safeParse(insert()).success).toBe(true);
    expect(requisitionWireSchema('YYYY-MM-DD').safeParse(insert({ orgid: 'x' })).success).toBe(
      false,
    );
  });

  it('blankRequisitionWire has every key blank', () => {
    const blank = blankRequisitionWire();
    expect(Object.keys(blank)).toEqual(requisitionWireKeys);
    expect(Object.values(blank).every((value) => value === '')).toBe(true);
  });
});

describe('enumerations: each allowed value passes, its neighbours fail naming the allowed values', () => {
  const cases: Array<{
    field: string;
    allowed: Array<[string, string]>;
    refused: string[];
    base: () => Item;
  }> = [
    {
      field: 'reqpriority',
      allowed: [
        ['1', 'High'],
        ['2', 'Medium'],
        ['3', 'Low'],
      ],
      refused: ['0', '4', 'High', '02'],
      base: insert,
    },
    {
      field: 'citizenstatus',
      allowed: [
        ['1', 'US Citizen'],
        ['2', 'Authorised US Worker'],
        ['3', 'Open'],
        ['4', 'Authorised Cdn Worker'],
        ['5', 'Cdn Citizen'],
        ['6', 'Landed Immigrant'],
      ],
      refused: ['0', '7'],
      base: insert,
    },
    {
      field: 'durationtype',
      allowed: [
        ['1', 'Days'],
        ['2', 'Weeks'],
        ['3', 'Months'],
        ['4', 'Years'],
      ],
      refused: ['0', '5', 'Weeks'],
      base: insert,
    },
    {
      field: 'reqstatus',
      allowed: [
        ['4', 'Open'],
        ['5', 'Interview occurring'],
        ['6', 'Filled'],
        ['8', 'Closed/Cancelled'],
        ['9', 'On Hold'],
      ],
      refused: ['3', '7', '10', '1'],
      base: amend,
    },
    {
      field: 'maximumbillrate',
      allowed: [
        ['0', 'No'],
        ['1', 'Yes'],
      ],
      refused: ['2', 'Y', '0.5'],
      base: insert,
    },
    {
      field: 'engagementtype',
      allowed: [
        ['1', 'Contract'],
        ['2', 'Contract To Perm'],
        ['3', 'Perm'],
      ],
      // 4 (Project) is a candidate engagement type only.
      refused: ['0', '4'],
      base: insert,
    },
    ...[1, 5, 10].flatMap((n) => [
      {
        field: `requireddesired${n}`,
        allowed: [
          ['1', 'Required'],
          ['2', 'Highly Desired'],
          ['3', 'Desired'],
          ['4', 'Nice to Have'],
          ['5', 'Not Required'],
        ] as Array<[string, string]>,
        refused: ['0', '6'],
        base: () => withSkills(10),
      },
      {
        field: `amountofexperiencetype${n}`,
        allowed: [
          ['1', 'Days'],
          ['2', 'Weeks'],
          ['3', 'Months'],
          ['4', 'Years'],
        ] as Array<[string, string]>,
        refused: ['0', '5'],
        base: () => withSkills(10),
      },
    ]),
  ];

  describe.each(cases)('$field', ({ field, allowed, refused, base }) => {
    it.each(allowed)('accepts %j (%s)', (value) => {
      expectValid({ ...base(), [field]: value });
    });
    it.each(refused)('refuses %j', (value) => {
      const issue = expectIssue({ ...base(), [field]: value }, field, [label(field), /one of/]);
      for (const [allowedValue, allowedLabel] of allowed) {
        expect(issue.message).toContain(allowedValue);
        expect(issue.message).toContain(allowedLabel);
      }
    });
  });

  it('checks requireddesired and amountofexperiencetype on every skill row 1–10', () => {
    for (let n = 1; n <= 10; n += 1) {
      expectIssue(withSkills(10, { [`requireddesired${n}`]: '6' }), `requireddesired${n}`);
      expectIssue(
        withSkills(10, { [`amountofexperiencetype${n}`]: '5' }),
        `amountofexperiencetype${n}`,
      );
    }
  });

  it('requesttype takes I and A only', () => {
    expectValid(insert({ requesttype: 'I' }));
    expectValid(amend({ requesttype: 'A' }));
    for (const value of ['i', 'U', 'D', 'Insert']) {
      expectIssue(insert({ requesttype: value }), 'requesttype', [
        /one of/,
        'I (Insert)',
        'A (Amend)',
      ]);
    }
  });
});

describe('types on the wire', () => {
  it('checks INTEGER fields (orgid, reqclassid, duration, worklocationid…)', () => {
    for (const field of [
      'orgid',
      'reqclassid',
      'duration',
      'ratestructure',
      'payrateperiod',
      'nottoexceedratecode',
      'worklocationid',
      'costcenterid',
      'glid',
      'projectid',
      'expertiserating1',
    ]) {
      expectIssue(withSkills(1, { [field]: '1.5' }), field, [label(field), /whole number/]);
      expectValid(withSkills(1, { [field]: '12' }));
    }
  });

  it('checks DECIMAL fields (rates, amount of experience)', () => {
    for (const field of ['billrangefrom', 'maxpayrate', 'nottoexceedrate', 'amountofexperience1']) {
      expectIssue(withSkills(1, { [field]: 'ten' }), field, [label(field), /number/]);
    }
    expectValid(
      withSkills(1, { maxpayrate: '70.255', nottoexceedrate: '100', amountofexperience1: '0.5' }),
    );
  });

  it('checks DATE fields in the configured format, refusing impossible dates', () => {
    for (const field of ['startdate', 'enddate', 'nonewsubmittalsafter']) {
      expectValid(insert({ [field]: '2026-12-01' }));
      expectIssue(insert({ [field]: '2026-02-30' }), field, [label(field), 'YYYY-MM-DD']);
      expectValid(insert({ [field]: '12/01/2026' }), 'MM/DD/YYYY');
      expectIssue(insert({ [field]: '02/30/2026' }), field, ['MM/DD/YYYY'], 'MM/DD/YYYY');
      expectIssue(insert({ [field]: '2026-12-01' }), field, ['MM/DD/YYYY'], 'MM/DD/YYYY');
    }
    expectValid(insert({ startdate: '2028-02-29' }));
    expectIssue(insert({ startdate: '2027-02-29' }), 'startdate');
    expectValid(insert({ startdate: '02/29/2028' }), 'MM/DD/YYYY');
    expectIssue(insert({ startdate: '02/29/2027' }), 'startdate', [], 'MM/DD/YYYY');
  });

  it('checks the e-mail STRING altemail', () => {
    expectValid(insert({ altemail: 'hiring@client.example' }));
    expectIssue(insert({ altemail: 'hiring at client' }), 'altemail', [/valid e-mail/]);
  });
});

describe('bounds', () => {
  it.each(['0', '24', '7.25', '7.5', '24.00', '0.01'])('hoursunitsperday accepts %j', (value) => {
    expectValid(insert({ hoursunitsperday: value }));
  });
  it.each(['-1', '24.01', '25', '7.125', 'abc'])('hoursunitsperday refuses %j', (value) => {
    expectIssue(insert({ hoursunitsperday: value }), 'hoursunitsperday', [
      'Hours per day',
      /between 0 and 24/,
      /at most 2 decimals/,
    ]);
  });
  it('hoursunitsperday refuses "7,5", saying to write 7.5', () => {
    expectIssue(insert({ hoursunitsperday: '7,5' }), 'hoursunitsperday', [
      'Hours per day',
      /decimal comma/,
      /with a point: 7\.5$/,
    ]);
  });

  it.each(['0', '7', '5'])('daysperweek accepts %j', (value) => {
    expectValid(insert({ daysperweek: value }));
  });
  it.each(['8', '2.5', '-1', 'five'])('daysperweek refuses %j', (value) => {
    expectIssue(insert({ daysperweek: value }), 'daysperweek', [
      'Days per week',
      /between 0 and 7/,
    ]);
  });

  it.each(['1', '2', '40'])('noofopenings accepts %j', (value) => {
    expectValid(insert({ noofopenings: value }));
  });
  it.each(['0', '1.5', '-2'])('noofopenings refuses %j', (value) => {
    expectIssue(insert({ noofopenings: value }), 'noofopenings', [
      'Number of openings',
      /at least 1/,
    ]);
  });

  it('takes 10 skills; skill11 and its other fields are errors', () => {
    expectValid(withSkills(10));
    for (const key of [
      'skill11',
      'skilldescription11',
      'requireddesired11',
      'amountofexperience11',
      'amountofexperiencetype11',
      'expertiserating11',
    ]) {
      expectIssue(withSkills(10, { [key]: '1' }), key, [/at most 10 skills/]);
    }
  });

  it('takes 5 questions; question6 and questiondescription6 are errors', () => {
    expectValid(withQuestions(5));
    expectIssue(withQuestions(5, { question6: '6' }), 'question6', [/at most 5 questions/]);
    expectIssue(withQuestions(5, { questiondescription6: 'Why?' }), 'questiondescription6', [
      /at most 5 questions/,
    ]);
  });

  it('takes 10 custom fields; customfieldvalue11 is an error', () => {
    const ten = insert(
      Object.fromEntries(
        Array.from({ length: 10 }, (_, i) => [`customfieldvalue${i + 1}`, `v${i + 1}`]),
      ),
    );
    expectValid(ten);
    expectIssue({ ...ten, customfieldvalue11: 'x' }, 'customfieldvalue11', [
      /at most 10 custom fields/,
    ]);
  });
});

describe('unknown keys are errors, never dropped', () => {
  it('suggests the documented key for a wrongly cased one (titleRole → titlerole)', () => {
    expectIssue(insert({ titleRole: 'Developer' }), 'titleRole', [
      /titlerole/,
      /not a requisition field/,
    ]);
    expectIssue(insert({ ReqOwnerId: 'U1' }), 'ReqOwnerId', [/did you mean reqownerid/]);
  });

  it('says to remove or check a key that is not in the spec at all', () => {
    expectIssue(insert({ salary: '100' }), 'salary', [
      /not a requisition field/,
      /remove it|spelling/,
    ]);
    // A candidate field is not a requisition field either.
    expectIssue(insert({ candemail: 'a@b.example' }), 'candemail', [/not a requisition field/]);
  });

  it('does not let an unknown key hide the other problems of the item', () => {
    const issues = issuesOf(insert({ titleRole: 'x', daysperweek: '9' }));
    expect(issues.map((issue) => issue.field).sort()).toEqual(['daysperweek', 'titleRole']);
  });
});

describe('values that are not strings, items that are not objects', () => {
  it.each([1001, null, true, { id: 1 }, ['1001']])(
    'refuses orgid = %j, asking for a JSON string',
    (value) => {
      expectIssue(insert({ orgid: value }), 'orgid', [/Org ID/, /JSON string/]);
    },
  );

  it('reports every non-string field, each by its key', () => {
    const issues = issuesOf(insert({ noofopenings: 2, daysperweek: 5 }));
    expect(issues.map((issue) => issue.field).sort()).toEqual(['daysperweek', 'noofopenings']);
  });

  it.each([null, [], 'requisition', 42, [insert()]])(
    'refuses the item %j: it must be a JSON object',
    (item) => {
      const issues = issuesOf(item);
      expect(issues).toHaveLength(1);
      expect(issues[0]?.message).toMatch(/JSON object/);
    },
  );
});

describe('Insert requirements (decision 000)', () => {
  it.each([
    'orgid',
    'titlerole',
    'noofopenings',
    'clientinternalreq',
    'hoursunitsperday',
    'daysperweek',
    'engagementtype',
    'shortdescription',
  ])('%s is required for Insert', (field) => {
    const item = insert();
    delete item[field];
    expectIssue(item, field, [label(field), /required/]);
    expectIssue(insert({ [field]: '   ' }), field, [/required/]);
  });

  it('requesttype is required, saying what I and A mean', () => {
    const item = insert();
    delete item.requesttype;
    expectIssue(item, 'requesttype', [/required/, /I.*insert/i, /A.*amend/i]);
  });

  it('needs a req class: reqclassid or fullreqpath', () => {
    expectValid(insert({ reqclassid: '101' }));
    expectValid(insert({ reqclassid: '', fullreqpath: 'IT|Development|Java' }));
    expectIssue(insert({ reqclassid: '', fullreqpath: '' }), 'reqclassid', [
      /req class ID/,
      /full req path/,
    ]);
  });

  it('needs an owner: reqownerid, or both reqownerfirstname and reqownerlastname', () => {
    expectValid(insert({ reqownerid: 'U1001' }));
    expectValid(insert({ reqownerid: '', reqownerfirstname: 'Grace', reqownerlastname: 'Hopper' }));
    expectIssue(insert({ reqownerid: '' }), 'reqownerid', [
      /owner/i,
      /required/,
      /ID/,
      /first and last name/,
    ]);
    expectIssue(insert({ reqownerid: '', reqownerfirstname: 'Grace' }), 'reqownerlastname', [
      /last name/,
    ]);
    expectIssue(insert({ reqownerid: '', reqownerlastname: 'Hopper' }), 'reqownerfirstname', [
      /first name/,
    ]);
  });

  it('refuses reqstatus on Insert: every new requisition starts Open', () => {
    for (const status of ['4', '5', '6', '8', '9']) {
      expectIssue(insert({ reqstatus: status }), 'reqstatus', [/Amend/]);
    }
  });
});

describe('Amend requirements (decision 000)', () => {
  it('needs only requesttype, orgid and clientinternalreq', () => {
    expectValid(amend());
    for (const field of ['orgid', 'clientinternalreq']) {
      const item = amend();
      delete item[field];
      expectIssue(item, field, [label(field), /required/]);
    }
    const noType = amend();
    delete noType.requesttype;
    expectIssue(noType, 'requesttype', [/required/]);
  });

  it('explains that clientinternalreq identifies the requisition on Amend', () => {
    expectIssue(amend({ clientinternalreq: '' }), 'clientinternalreq', [
      /identifies the requisition/,
    ]);
  });

  it('leaves the Insert-only requirements out (a blank field means "leave unchanged")', () => {
    expectValid(amend({ reqclassid: '', titlerole: '', reqownerid: '', engagementtype: '' }));
  });

  it('accepts reqstatus 4, 5, 6, 8, 9 on Amend', () => {
    for (const status of ['4', '5', '6', '8', '9']) expectValid(amend({ reqstatus: status }));
  });

  it('still checks the values it is given', () => {
    expectIssue(amend({ hoursunitsperday: '25' }), 'hoursunitsperday', [/between 0 and 24/]);
    expectIssue(amend({ noofopenings: '0' }), 'noofopenings', [/at least 1/]);
  });
});

describe('a person given by name needs both names (decision 000, spec rule 3)', () => {
  it.each([
    ['clientcontact', 'Client contact'],
    ['reqowner', 'Requisition owner'],
    ['reportsto', 'Reports-to user'],
  ])('%s', (stem, who) => {
    const base = stem === 'reqowner' ? insert({ reqownerid: '' }) : insert();
    expectValid({ ...base, [`${stem}firstname`]: 'Grace', [`${stem}lastname`]: 'Hopper' });
    expectValid({ ...base, [`${stem}id`]: 'U77' });
    expectIssue({ ...base, [`${stem}firstname`]: 'Grace' }, `${stem}lastname`, [
      who,
      /both first and last name/,
    ]);
    expectIssue({ ...base, [`${stem}lastname`]: 'Hopper' }, `${stem}firstname`, [
      who,
      /both first and last name/,
    ]);
    // On Amend too.
    expectIssue(amend({ [`${stem}firstname`]: 'Grace' }), `${stem}lastname`);
  });
});

describe('dates: enddate is not before startdate', () => {
  it('accepts an end after or on the start, or either one alone', () => {
    expectValid(insert({ startdate: '2026-12-01', enddate: '2027-06-30' }));
    expectValid(insert({ startdate: '2026-12-01', enddate: '2026-12-01' }));
    expectValid(insert({ startdate: '2026-12-01' }));
    expectValid(insert({ enddate: '2026-12-01' }));
  });

  it('refuses an end before the start, on enddate', () => {
    expectIssue(insert({ startdate: '2026-12-01', enddate: '2026-11-30' }), 'enddate', [
      /before the start/,
    ]);
  });

  it('compares real dates in MM/DD/YYYY, not the text', () => {
    // As text "01/31/2027" < "12/01/2026"; as dates it is later.
    expectValid(insert({ startdate: '12/01/2026', enddate: '01/31/2027' }), 'MM/DD/YYYY');
    expectIssue(
      insert({ startdate: '01/31/2027', enddate: '12/01/2026' }),
      'enddate',
      [],
      'MM/DD/YYYY',
    );
  });
});

describe('bill range: billrangefrom is the Hourly High, billrangeto the Hourly Low', () => {
  it('accepts high ≥ low, or one of them alone', () => {
    expectValid(insert({ billrangefrom: '95.50', billrangeto: '80' }));
    expectValid(insert({ billrangefrom: '80', billrangeto: '80.00' }));
    // Compared as numbers: "100" < "95" as text.
    expectValid(insert({ billrangefrom: '100', billrangeto: '95' }));
    expectValid(insert({ billrangeto: '80' }));
  });

  it('refuses high < low, explaining which field is which', () => {
    expectIssue(insert({ billrangefrom: '80', billrangeto: '95.50' }), 'billrangefrom', [
      /hourly high/,
      /hourly low/,
      /billrangefrom is the high/,
    ]);
  });
});

describe('skill and question rows: sequence numbers from their position, no gaps', () => {
  it('accepts rows 1..n numbered 1..n', () => {
    expectValid(withSkills(3));
    expectValid(withQuestions(3));
  });

  it('refuses a skill sequence number that is not the row’s position, or missing', () => {
    expectIssue(withSkills(3, { skill2: '3' }), 'skill2', [/must be 2/]);
    expectIssue(withSkills(3, { skill2: '' }), 'skill2', [/must be 2/]);
  });

  it('refuses a skill row without a description', () => {
    expectIssue(withSkills(2, { skilldescription2: '' }), 'skilldescription2', [/description/]);
    expectIssue(insert({ skill1: '1', requireddesired1: '1' }), 'skilldescription1', [
      /needs a description/,
    ]);
  });

  it('refuses a sequence number on an empty skill row', () => {
    expectIssue(insert({ skill1: '1' }), 'skilldescription1', [
      /sequence number but no description/,
    ]);
  });

  it('refuses a gap in the skill rows, on the empty row', () => {
    const gap = withSkills(3);
    for (const part of [
      'skill',
      'skilldescription',
      'requireddesired',
      'amountofexperience',
      'amountofexperiencetype',
      'expertiserating',
    ])
      gap[`${part}2`] = '';
    gap.skill3 = '3';
    expectIssue(gap, 'skilldescription2', [/without gaps/]);
  });

  it('refuses a question sequence number that is not the row’s position', () => {
    expectIssue(withQuestions(2, { question2: '1' }), 'question2', [/must be 2/]);
    expectIssue(withQuestions(2, { question2: '' }), 'question2', [/must be 2/]);
  });

  it('refuses a question number without text, and a gap in the questions', () => {
    expectIssue(insert({ question1: '1' }), 'questiondescription1', [/no text/]);
    expectIssue(
      withQuestions(3, { question2: '', questiondescription2: '' }),
      'questiondescription2',
      [/without gaps/],
    );
  });
});
