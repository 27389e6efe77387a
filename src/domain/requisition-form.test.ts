import { describe, expect, it } from 'vitest';
import { fullRequisitionForm } from '@/test-support/test-data';
import { requisitionWireKeys } from './requisition-catalog';
import type { RequisitionForm } from './requisition-form';
import {
  blankSkillRow,
  requisitionFormDefaults,
  requisitionFormPath,
  requisitionFormSchema,
  requisitionFormToWire,
  requisitionWireToForm,
} from './requisition-form';
import { questionRowKeys, skillRowKeys, validateRequisitionItem } from './requisition-wire';

/** A small valid Insert form, filled as a recruiter would. */
function insertForm(): RequisitionForm {
  return {
    ...requisitionFormDefaults('I'),
    orgid: '1001',
    reqclassid: '101',
    titlerole: 'Java Developer',
    noofopenings: '1',
    clientinternalreq: 'CIR-1',
    hoursunitsperday: '8',
    daysperweek: '5',
    engagementtype: '1',
    shortdescription: 'Payments platform',
    reqownerid: 'U1001',
  };
}

const skill = (description: string, extra: Partial<ReturnType<typeof blankSkillRow>> = {}) => ({
  ...blankSkillRow(),
  description,
  ...extra,
});

/** Issues of the form schema as `path → message`. */
function formIssues(form: unknown): Map<string, string> {
  const result = requisitionFormSchema.safeParse(form);
  const issues = new Map<string, string>();
  if (!result.success)
    for (const issue of result.error.issues) issues.set(issue.path.join('.'), issue.message);
  return issues;
}

describe('requisitionFormDefaults', () => {
  it('starts every field blank, rows empty, and each choice on its first alternative', () => {
    const form = requisitionFormDefaults();
    expect(form.requesttype).toBe('I');
    expect(form.skills).toEqual([]);
    expect(form.questions).toEqual([]);
    for (const key of [
      'orgid',
      'titlerole',
      'startdate',
      'reqstatus',
      'customfieldvalue10',
      'projectid',
    ] as const)
      expect(form[key], key).toBe('');
    expect(form).toMatchObject({
      reqclassBy: 'id',
      clientcontactBy: 'id',
      reqownerBy: 'id',
      reportstoBy: 'id',
      worklocationBy: 'code',
      costcenterBy: 'code',
      glBy: 'code',
      projectBy: 'code',
    });
  });

  it('starts an Amend form with requesttype A', () => {
    expect(requisitionFormDefaults('A').requesttype).toBe('A');
  });

  it('holds no skill or question keys as scalars: those live in rows', () => {
    const form = requisitionFormDefaults();
    expect(Object.keys(form)).not.toContain('skilldescription1');
    expect(Object.keys(form)).not.toContain('question1');
  });
});

describe('requisitionFormToWire', () => {
  it('emits every documented key, in order, as strings, blanks as ""', () => {
    const wire = requisitionFormToWire(insertForm(), 'YYYY-MM-DD');
    expect(Object.keys(wire)).toEqual(requisitionWireKeys);
    expect(Object.values(wire).every((value) => typeof value === 'string')).toBe(true);
    expect(wire.titlerole).toBe('Java Developer');
    expect(wire.fullreqpath).toBe('');
    expect(wire.skill1).toBe('');
    expect(wire.skilldescription10).toBe('');
    expect(wire.question5).toBe('');
    expect(wire.customfieldvalue1).toBe('');
  });

  it('numbers skill and question rows from their order; the user never types numbers', () => {
    const form = insertForm();
    form.skills = [skill('Java', { requireddesired: '1' }), skill('SQL'), skill('Kafka')];
    form.questions = [{ description: 'Remote?' }, { description: 'Start date?' }];
    const wire = requisitionFormToWire(form, 'YYYY-MM-DD');
    expect([wire.skill1, wire.skill2, wire.skill3, wire.skill4]).toEqual(['1', '2', '3', '']);
    expect([wire.skilldescription1, wire.skilldescription2, wire.skilldescription3]).toEqual([
      'Java',
      'SQL',
      'Kafka',
    ]);
    expect(wire.requireddesired1).toBe('1');
    expect([wire.question1, wire.question2, wire.question3]).toEqual(['1', '2', '']);
    expect(wire.questiondescription2).toBe('Start date?');
  });

  it('renumbers the rows after a removed middle row', () => {
    const form = insertForm();
    form.skills = [
      skill('Java'),
      skill('SQL', { expertiserating: '4' }),
      skill('Kafka', { amountofexperience: '3' }),
    ];
    form.questions = [{ description: 'A?' }, { description: 'B?' }, { description: 'C?' }];
    form.skills.splice(1, 1);
    form.questions.splice(1, 1);
    const wire = requisitionFormToWire(form, 'YYYY-MM-DD');
    expect([wire.skill1, wire.skilldescription1, wire.skill2, wire.skilldescription2]).toEqual([
      '1',
      'Java',
      '2',
      'Kafka',
    ]);
    expect(wire.amountofexperience2).toBe('3');
    expect(wire.expertiserating2).toBe('');
    expect([wire.skill3, wire.skilldescription3]).toEqual(['', '']);
    expect([wire.question2, wire.questiondescription2, wire.question3]).toEqual(['2', 'C?', '']);
    expect(validateRequisitionItem(wire, { dateFormat: 'YYYY-MM-DD' }).ok).toBe(true);
  });

  it('writes dates in the configured format (both formats)', () => {
    const form = {
      ...insertForm(),
      startdate: '2026-12-01',
      enddate: '2027-06-30',
      nonewsubmittalsafter: '2026-11-30',
    };
    const iso = requisitionFormToWire(form, 'YYYY-MM-DD');
    expect([iso.startdate, iso.enddate, iso.nonewsubmittalsafter]).toEqual([
      '2026-12-01',
      '2027-06-30',
      '2026-11-30',
    ]);
    const us = requisitionFormToWire(form, 'MM/DD/YYYY');
    expect([us.startdate, us.enddate, us.nonewsubmittalsafter]).toEqual([
      '12/01/2026',
      '06/30/2027',
      '11/30/2026',
    ]);
    expect(validateRequisitionItem(us, { dateFormat: 'MM/DD/YYYY' }).ok).toBe(true);
  });

  it('sends the hidden alternative of each either/or choice blank', () => {
    const form: RequisitionForm = {
      ...insertForm(),
      reqclassBy: 'path',
      reqclassid: '101',
      fullreqpath: 'IT|Java',
      reqownerBy: 'name',
      reqownerid: 'U1001',
      reqownerfirstname: 'Grace',
      reqownerlastname: 'Hopper',
      clientcontactBy: 'id',
      clientcontactid: 'U2',
      clientcontactfirstname: 'Left',
      clientcontactlastname: 'Over',
      worklocationBy: 'id',
      worklocationrefcode: 'TOR-01',
      worklocationid: '77',
      projectBy: 'code',
      projectrefcode: 'PRJ-1',
      projectid: '9',
    };
    const wire = requisitionFormToWire(form, 'YYYY-MM-DD');
    expect([wire.reqclassid, wire.fullreqpath]).toEqual(['', 'IT|Java']);
    expect([wire.reqownerid, wire.reqownerfirstname, wire.reqownerlastname]).toEqual([
      '',
      'Grace',
      'Hopper',
    ]);
    expect([wire.clientcontactid, wire.clientcontactfirstname, wire.clientcontactlastname]).toEqual(
      ['U2', '', ''],
    );
    expect([wire.worklocationrefcode, wire.worklocationid]).toEqual(['', '77']);
    expect([wire.projectrefcode, wire.projectid]).toEqual(['PRJ-1', '']);
  });

  it('trims values, in scalars and in rows', () => {
    const form = {
      ...insertForm(),
      titlerole: '  Java Developer \n',
      hoursunitsperday: ' 7.5 ',
      startdate: ' 2026-12-01 ',
    };
    form.skills = [skill('  Java  ', { requireddesired: ' 2 ' })];
    form.questions = [{ description: '\tRemote? ' }];
    const wire = requisitionFormToWire(form, 'MM/DD/YYYY');
    expect(wire.titlerole).toBe('Java Developer');
    expect(wire.hoursunitsperday).toBe('7.5');
    expect(wire.startdate).toBe('12/01/2026');
    expect(wire.skilldescription1).toBe('Java');
    expect(wire.requireddesired1).toBe('2');
    expect(wire.questiondescription1).toBe('Remote?');
  });

  it('assembles a full form (10 skills, 5 questions, 10 custom fields) into a valid wire object', () => {
    const wire = requisitionFormToWire(fullRequisitionForm(3), 'MM/DD/YYYY');
    expect(validateRequisitionItem(wire, { dateFormat: 'MM/DD/YYYY' })).toMatchObject({ ok: true });
    expect(wire.skill10).toBe('10');
    expect(wire.question5).toBe('5');
    expect(wire.customfieldvalue10).toBe('custom 10');
  });
});

describe('requisitionWireToForm', () => {
  const wire = {
    requesttype: 'A',
    orgid: '1001',
    clientinternalreq: 'CIR-1',
    fullreqpath: 'IT|Java',
    startdate: '12/01/2026',
    enddate: '01/31/2027',
    reqownerfirstname: 'Grace',
    reqownerlastname: 'Hopper',
    reportstoid: 'U3',
    costcenterid: '55',
    glrefcode: 'GL-1',
    skill1: '1',
    skilldescription1: 'Java',
    requireddesired1: '2',
    skill2: '2',
    skilldescription2: 'SQL',
    question1: '1',
    questiondescription1: 'Remote?',
    customfieldvalue4: 'blue',
  };

  it('reads scalars, converts dates to ISO and infers each choice from what is filled', () => {
    const form = requisitionWireToForm(wire, 'MM/DD/YYYY');
    expect(form).toMatchObject({
      requesttype: 'A',
      orgid: '1001',
      startdate: '2026-12-01',
      enddate: '2027-01-31',
      reqclassBy: 'path',
      fullreqpath: 'IT|Java',
      reqownerBy: 'name',
      reportstoBy: 'id',
      clientcontactBy: 'id',
      costcenterBy: 'id',
      glBy: 'code',
      worklocationBy: 'code',
      customfieldvalue4: 'blue',
      titlerole: '',
    });
  });

  it('turns numbered rows back into rows', () => {
    const form = requisitionWireToForm(wire, 'MM/DD/YYYY');
    expect(form.skills).toEqual([skill('Java', { requireddesired: '2' }), skill('SQL')]);
    expect(form.questions).toEqual([{ description: 'Remote?' }]);
  });

  it('keeps a gap in a file visible as a blank row', () => {
    const form = requisitionWireToForm({ skill3: '3', skilldescription3: 'Go' }, 'YYYY-MM-DD');
    expect(form.skills).toEqual([blankSkillRow(), blankSkillRow(), skill('Go')]);
  });

  it('keeps requesttype as sent, so a missing one shows as missing', () => {
    expect(requisitionWireToForm({ requesttype: 'I' }, 'YYYY-MM-DD').requesttype).toBe('I');
    expect(requisitionWireToForm({ requesttype: 'A' }, 'YYYY-MM-DD').requesttype).toBe('A');
    expect(requisitionWireToForm({}, 'YYYY-MM-DD').requesttype).toBe('');
  });

  it('gives back the form it was made from', () => {
    const form = fullRequisitionForm(1);
    for (const format of ['YYYY-MM-DD', 'MM/DD/YYYY'] as const)
      expect(requisitionWireToForm(requisitionFormToWire(form, format), format)).toEqual(form);
  });
});

describe('requisitionFormSchema', () => {
  it('accepts a valid form', () => {
    expect(formIssues(insertForm())).toEqual(new Map());
    expect(formIssues(fullRequisitionForm(0))).toEqual(new Map());
  });

  it('puts a row problem on the row’s field: skills.2.description', () => {
    const form = insertForm();
    form.skills = [skill('Java'), skill('SQL'), skill('', { requireddesired: '1' })];
    const issues = formIssues(form);
    expect([...issues.keys()]).toEqual(['skills.2.description']);
    expect(issues.get('skills.2.description')).toMatch(/Skill 3 needs a description/);
  });

  it('puts a row value problem on its part: skills.0.requireddesired', () => {
    const form = insertForm();
    form.skills = [skill('Java', { requireddesired: '9' })];
    expect(formIssues(form).get('skills.0.requireddesired')).toMatch(/one of/);
  });

  it('ignores a row left blank: the rows after it move up, and their problems stay on them', () => {
    const form = insertForm();
    form.skills = [blankSkillRow(), skill('Java', { requireddesired: '9' })];
    form.questions = [{ description: '  ' }, { description: 'Years of Java?' }];
    const issues = formIssues(form);
    // No "skill 1 has no description; … or clear skill1" for the blank row.
    expect([...issues.keys()]).toEqual(['skills.1.requireddesired']);
    const wire: Record<string, string> = requisitionFormToWire(form, 'YYYY-MM-DD');
    const [skill1, skill2] = skillRowKeys;
    const [question1, question2] = questionRowKeys;
    expect([skill1, skill2, question1, question2].every(Boolean)).toBe(true);
    expect([wire[skill1?.sequence ?? ''], wire[skill1?.description ?? '']]).toEqual(['1', 'Java']);
    expect(wire[skill2?.sequence ?? '']).toBe('');
    expect([wire[question1?.sequence ?? ''], wire[question1?.description ?? '']]).toEqual([
      '1',
      'Years of Java?',
    ]);
    expect(wire[question2?.sequence ?? '']).toBe('');
  });

  it('puts the owner error on the owner’s first name when the owner is given by name', () => {
    const byName = { ...insertForm(), reqownerBy: 'name' as const, reqownerid: 'U1001' };
    const issues = formIssues(byName);
    // The hidden reqownerid is sent blank, so no owner is given.
    expect([...issues.keys()]).toEqual(['reqownerfirstname']);
    expect(issues.get('reqownerfirstname')).toMatch(/owner/i);
    expect(issues.get('reqownerfirstname')).toMatch(/first and last name/);

    const onlyFirst = { ...byName, reqownerfirstname: 'Grace' };
    expect([...formIssues(onlyFirst).keys()]).toEqual(['reqownerlastname']);
  });

  it('puts the owner error on reqownerid when the owner is given by ID', () => {
    expect([...formIssues({ ...insertForm(), reqownerid: '' }).keys()]).toEqual(['reqownerid']);
  });

  it('puts the req class error on the alternative in use', () => {
    const byPath = { ...insertForm(), reqclassBy: 'path' as const };
    expect([...formIssues(byPath).keys()]).toEqual(['fullreqpath']);
    expect([...formIssues({ ...insertForm(), reqclassid: '' }).keys()]).toEqual(['reqclassid']);
  });

  it('reports scalar problems on the field, with the recruiter’s message', () => {
    const issues = formIssues({
      ...insertForm(),
      hoursunitsperday: '7.125',
      startdate: '2026-02-30',
    });
    expect(issues.get('hoursunitsperday')).toMatch(/between 0 and 24 with at most 2 decimals/);
    expect(issues.get('startdate')).toMatch(/real date/);
  });

  it('refuses more than 10 skills and more than 5 questions', () => {
    const form = fullRequisitionForm(0);
    form.skills.push(skill('Eleventh'));
    form.questions.push({ description: 'Sixth?' });
    const issues = formIssues(form);
    expect(issues.get('skills')).toMatch(/at most 10 skills/);
    expect(issues.get('questions')).toMatch(/at most 5 questions/);
  });

  it('refuses a form that is not the form model, with issues rather than a crash', () => {
    for (const broken of [
      { ...insertForm(), skills: 'Java' },
      { ...insertForm(), skills: [null] },
      { ...insertForm(), titlerole: 42 },
      { ...insertForm(), reqownerBy: 'email' },
      null,
    ]) {
      expect(requisitionFormSchema.safeParse(broken).success).toBe(false);
    }
  });
});

describe('requisitionFormPath', () => {
  it('maps wire keys to form paths', () => {
    const form = insertForm();
    expect(requisitionFormPath('skilldescription3', form)).toBe('skills.2.description');
    expect(requisitionFormPath('skill3', form)).toBe('skills.2.description');
    expect(requisitionFormPath('expertiserating10', form)).toBe('skills.9.expertiserating');
    expect(requisitionFormPath('question2', form)).toBe('questions.1.description');
    expect(requisitionFormPath('titlerole', form)).toBe('titlerole');
    expect(requisitionFormPath('worklocationid', { ...form, worklocationBy: 'code' })).toBe(
      'worklocationrefcode',
    );
    expect(requisitionFormPath('worklocationid', { ...form, worklocationBy: 'id' })).toBe(
      'worklocationid',
    );
  });
});
