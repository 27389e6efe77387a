import { describe, expect, it } from 'vitest';
import { fullCandidateForm } from '@/test-support/test-data';
import { candidateWireKeys } from './candidate-catalog';
import type { CandidateForm } from './candidate-form';
import {
  blankSkillResponseRow,
  candidateFormDefaults,
  candidateFormPath,
  candidateFormSchema,
  candidateFormToWire,
  candidateWireToForm,
} from './candidate-form';
import { validateCandidateItem } from './candidate-wire';

const context = { skillCount: 3, questionCount: 2 };

/** A small valid candidate form for a requisition with 3 skills and 2 questions. */
function candidateForm(): CandidateForm {
  return {
    ...candidateFormDefaults(context, '5000'),
    firstname: 'Ada',
    lastname: 'Lovelace',
    candemail: 'ada@vendor.example',
    engagementtype: '4',
  };
}

function formIssues(form: unknown, requisition = context): Map<string, string> {
  const result = candidateFormSchema(requisition).safeParse(form);
  const issues = new Map<string, string>();
  if (!result.success)
    for (const issue of result.error.issues) issues.set(issue.path.join('.'), issue.message);
  return issues;
}

describe('candidateFormDefaults', () => {
  it('shapes the rows by the requisition: one answer per question, one response per skill', () => {
    const form = candidateFormDefaults(context);
    expect(form.answers).toEqual([{ answer: '' }, { answer: '' }]);
    expect(form.skillResponses).toEqual([
      blankSkillResponseRow(),
      blankSkillResponseRow(),
      blankSkillResponseRow(),
    ]);
    expect(blankSkillResponseRow()).toEqual({
      response: '',
      duration: '',
      units: '',
      expertiserating: '',
    });
  });

  it('offers 5 answers and 10 skill responses when the requisition is not known', () => {
    const form = candidateFormDefaults();
    expect(form.answers).toHaveLength(5);
    expect(form.skillResponses).toHaveLength(10);
  });

  it('starts the spec’s default-N flags at N, every other field blank', () => {
    const form = candidateFormDefaults(context, '5000');
    expect(form.iscandindependantcontractor).toBe('N');
    expect(form.wascandeveremployedbyclient).toBe('N');
    expect(form.iscandcurrentlyemployedbyvendor).toBe('');
    expect(form.iscandcurrentlypaidbyvendor).toBe('');
    expect(form.requirementid).toBe('5000');
    expect(form.firstname).toBe('');
    expect(form.candcustomfield5).toBe('');
    expect(candidateFormDefaults().requirementid).toBe('');
  });
});

describe('candidateFormToWire', () => {
  it('emits every documented key, in order, blanks as ""', () => {
    const wire = candidateFormToWire(candidateForm());
    expect(Object.keys(wire)).toEqual(candidateWireKeys);
    expect(Object.values(wire).every((value) => typeof value === 'string')).toBe(true);
    expect(wire.firstname).toBe('Ada');
    expect(wire.answer1).toBe('');
    expect(wire.answer5).toBe('');
    expect(wire.skill10response).toBe('');
  });

  it('sends the default-N flags as N when left blank, and keeps Y', () => {
    const blank = candidateFormToWire({
      ...candidateForm(),
      iscandindependantcontractor: '',
      wascandeveremployedbyclient: '  ',
    });
    expect(blank.iscandindependantcontractor).toBe('N');
    expect(blank.wascandeveremployedbyclient).toBe('N');
    // The other flags have no default in the spec: blank stays blank.
    expect(blank.iscandcurrentlyemployedbyvendor).toBe('');
    const yes = candidateFormToWire({ ...candidateForm(), wascandeveremployedbyclient: 'Y' });
    expect(yes.wascandeveremployedbyclient).toBe('Y');
  });

  it('writes answer rows to answer1.. and skill response rows to skill<n>…', () => {
    const form = candidateForm();
    form.answers = [{ answer: 'Yes' }, { answer: 'From May' }];
    form.skillResponses = [
      { response: '2', duration: '5', units: '4', expertiserating: '3' },
      blankSkillResponseRow(),
      { response: '4', duration: '', units: '', expertiserating: '' },
    ];
    const wire = candidateFormToWire(form);
    expect([wire.answer1, wire.answer2, wire.answer3]).toEqual(['Yes', 'From May', '']);
    expect([
      wire.skill1response,
      wire.skill1amountofexperienceduration,
      wire.skill1amountofexperienceunits,
      wire.skill1expertiserating,
    ]).toEqual(['2', '5', '4', '3']);
    expect(wire.skill2response).toBe('');
    expect(wire.skill3response).toBe('4');
    expect(validateCandidateItem(wire, { dateFormat: 'YYYY-MM-DD', requisition: context }).ok).toBe(
      true,
    );
  });

  it('trims values', () => {
    const form = { ...candidateForm(), firstname: '  Ada ', candemail: ' ada@vendor.example\n' };
    form.answers = [{ answer: ' Yes ' }, { answer: '' }];
    form.skillResponses[0] = { response: ' 1 ', duration: '2 ', units: ' 3', expertiserating: '' };
    const wire = candidateFormToWire(form);
    expect([wire.firstname, wire.candemail, wire.answer1]).toEqual([
      'Ada',
      'ada@vendor.example',
      'Yes',
    ]);
    expect([wire.skill1response, wire.skill1amountofexperienceduration]).toEqual(['1', '2']);
    expect(wire.skill1amountofexperienceunits).toBe('3');
  });

  it('assembles a full form (5 answers, 10 skill responses, 5 custom fields) into a valid wire object', () => {
    const wire = candidateFormToWire(fullCandidateForm(2));
    expect(validateCandidateItem(wire, { dateFormat: 'YYYY-MM-DD' })).toMatchObject({ ok: true });
    expect(wire.answer5).toBe('Answer 5');
    expect(wire.skill10response).not.toBe('');
    expect(wire.candcustomfield5).toBe('response 5');
  });
});

describe('candidateWireToForm', () => {
  const wire = {
    requirementid: '5000',
    firstname: 'Ada',
    lastname: 'Lovelace',
    candemail: 'ada@vendor.example',
    engagementtype: '1',
    answer2: 'Yes',
    skill2response: '3',
    skill2amountofexperienceunits: '4',
    iscandindependantcontractor: 'Y',
  };

  it('sizes the rows by the requisition when it is known', () => {
    const form = candidateWireToForm(wire, { skillCount: 4, questionCount: 3 });
    expect(form.answers).toEqual([{ answer: '' }, { answer: 'Yes' }, { answer: '' }]);
    expect(form.skillResponses).toHaveLength(4);
    expect(form.skillResponses[1]).toEqual({
      response: '3',
      duration: '',
      units: '4',
      expertiserating: '',
    });
    expect(form.firstname).toBe('Ada');
    expect(form.iscandindependantcontractor).toBe('Y');
  });

  it('runs the rows to the last filled one when the requisition is not known', () => {
    const form = candidateWireToForm(wire);
    expect(form.answers).toEqual([{ answer: '' }, { answer: 'Yes' }]);
    expect(form.skillResponses).toHaveLength(2);
  });

  it('keeps an answer beyond the requisition’s questions, so the form can show its error', () => {
    const form = candidateWireToForm(
      { ...wire, answer3: 'Extra' },
      { skillCount: 0, questionCount: 1 },
    );
    expect(form.answers).toHaveLength(3);
    expect(formIssues(form, { skillCount: 0, questionCount: 1 }).get('answers.2.answer')).toMatch(
      /1 question/,
    );
  });

  it('gives back the form it was made from', () => {
    const form = fullCandidateForm(4);
    expect(
      candidateWireToForm(candidateFormToWire(form), { skillCount: 10, questionCount: 5 }),
    ).toEqual(form);
  });
});

describe('candidateFormSchema', () => {
  it('accepts a valid form', () => {
    expect(formIssues(candidateForm())).toEqual(new Map());
    expect(formIssues(fullCandidateForm(0), { skillCount: 10, questionCount: 5 })).toEqual(
      new Map(),
    );
  });

  it('puts scalar problems on their field, with the recruiter’s message', () => {
    const issues = formIssues({ ...candidateForm(), candemail: 'ada@', lastname: '' });
    expect(issues.get('candemail')).toMatch(/valid e-mail address/);
    expect(issues.get('lastname')).toMatch(/Last name is required/);
  });

  it('puts row problems on the row’s field', () => {
    const form = candidateForm();
    form.skillResponses[1] = { ...blankSkillResponseRow(), response: '5', units: '9' };
    const issues = formIssues(form);
    expect(issues.get('skillResponses.1.response')).toMatch(/one of/);
    expect(issues.get('skillResponses.1.units')).toMatch(/one of/);
  });

  it('asks for the explanation when the citizenship status is Other', () => {
    const issues = formIssues({ ...candidateForm(), candcitizenshipstatus: 'Other' });
    expect([...issues.keys()]).toEqual(['candcitizenshipexplain']);
  });

  it('refuses a response to a skill the requisition does not have, on that row', () => {
    const form = candidateForm();
    form.skillResponses.push({ ...blankSkillResponseRow(), response: '1' });
    expect(formIssues(form).get('skillResponses.3.response')).toMatch(/3 skills/);
  });

  it('refuses more than 5 answers and 10 skill responses', () => {
    const form = fullCandidateForm(0);
    form.answers.push({ answer: 'Sixth' });
    form.skillResponses.push(blankSkillResponseRow());
    const issues = formIssues(form, { skillCount: 10, questionCount: 5 });
    expect(issues.get('answers')).toMatch(/at most 5 answers/);
    expect(issues.get('skillResponses')).toMatch(/at most 10 skill responses/);
  });

  it('refuses a form that is not the form model, with issues rather than a crash', () => {
    for (const broken of [
      { ...candidateForm(), answers: 'Yes' },
      { ...candidateForm(), skillResponses: [null] },
      { ...candidateForm(), firstname: 7 },
      null,
    ]) {
      expect(candidateFormSchema(context).safeParse(broken).success).toBe(false);
    }
  });
});

describe('candidateFormPath', () => {
  it('maps wire keys to form paths', () => {
    expect(candidateFormPath('answer2')).toBe('answers.1.answer');
    expect(candidateFormPath('skill10amountofexperienceduration')).toBe(
      'skillResponses.9.duration',
    );
    expect(candidateFormPath('skill1amountofexperienceunits')).toBe('skillResponses.0.units');
    expect(candidateFormPath('candcustomfield3')).toBe('candcustomfield3');
    expect(candidateFormPath('candemail')).toBe('candemail');
  });
});
