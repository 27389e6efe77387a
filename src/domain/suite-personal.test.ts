import { describe, expect, it } from 'vitest';
import { candidateCatalog } from './candidate-catalog';
import { personalFieldsOf } from './personal-data';
import { requisitionCatalog } from './requisition-catalog';
import { resolveItem } from './suite';
import { withGeneratedPersonalValues } from './suite-personal';

// A case saved from a real call holds no one's name, e-mail, identifier or words (decision 060).

/** A candidate as a recruiter sends one: every personal field filled with a value of a person. */
const candidate: Record<string, string> = {
  requirementid: '40008',
  firstname: 'Grace',
  lastname: 'Hopper',
  candemail: 'grace.hopper@navy.example',
  engagementtype: '1',
  vendorcandidateid: 'GH-1906',
  availability: 'From 9 December',
  summaryofqualifications: 'Wrote the first compiler; COBOL.',
  candcitizenshipstatus: '1',
  candcitizenshipexplain: 'Born in New York',
  billrate: '95.00',
  payrate: '70.00',
  candidatecomments: 'Prefers mornings',
  answer1: 'Two weeks from signing',
  candcustomfield1: 'Badge 4471',
};

const identifying = [
  'firstname',
  'lastname',
  'candemail',
  'vendorcandidateid',
  'availability',
  'summaryofqualifications',
  'candcitizenshipexplain',
  'candidatecomments',
  'answer1',
  'candcustomfield1',
];

describe('withGeneratedPersonalValues', () => {
  it('leaves no name, e-mail, identifier or free text of the person in a candidate case', () => {
    const saved = withGeneratedPersonalValues('candidate', candidate, { status: 'New' });
    const text = JSON.stringify(saved);
    for (const key of identifying) expect(text, key).not.toContain(candidate[key]);
    expect(saved).toMatchObject({
      firstname: '{{unique.name}}',
      lastname: '{{unique.name}}',
      candemail: '{{unique.email}}',
      vendorcandidateid: '{{unique.id}}',
      // What the VMS checks besides the person stays as it was sent.
      requirementid: '40008',
      engagementtype: '1',
      billrate: '95.00',
      candcitizenshipstatus: '1',
    });
    // Every identifying field the test fills is one the catalog marks: the list above is no
    // second list of personal fields, only the values this test gave.
    const marked = personalFieldsOf(candidateCatalog);
    expect(identifying.filter((key) => !marked.has(key))).toEqual([]);
  });

  it('replaces the personal fields of a requisition, and leaves blank and generated values alone', () => {
    const saved = withGeneratedPersonalValues(
      'requisition',
      { titlerole: 'Backend Developer', altemail: 'm.reyes@client.example', reqownerid: 'mreyes' },
      { status: 'Success' },
    );
    expect(saved).toEqual({
      titlerole: 'Backend Developer',
      altemail: '{{unique.email}}',
      reqownerid: 'mreyes',
    });
    expect(personalFieldsOf(requisitionCatalog).get('altemail')).toBe('email');
    expect(
      withGeneratedPersonalValues(
        'candidate',
        { firstname: ' ', candemail: 'qa+{{run.id}}@example.com' },
        { status: 'New' },
      ),
    ).toEqual({ firstname: ' ', candemail: 'qa+{{run.id}}@example.com' });
  });

  it('keeps the value a case expecting Error names, since that value is what the VMS refused', () => {
    const saved = withGeneratedPersonalValues('candidate', candidate, {
      status: 'Error',
      field: 'candemail',
    });
    expect(saved.candemail).toBe(candidate.candemail);
    expect(saved.firstname).toBe('{{unique.name}}');
  });
});

describe('the generated values of a run', () => {
  it('makes a name of letters and an identifier for each case of each run', () => {
    const item = { firstname: '{{unique.name}}', vendorcandidateid: '{{unique.id}}' };
    const first = resolveItem(item, { runId: 'ab12cd34', caseIndex: 0, created: new Map() });
    const second = resolveItem(item, { runId: 'ab12cd34', caseIndex: 1, created: new Map() });
    const other = resolveItem(item, { runId: '0f9e8d7c', caseIndex: 0, created: new Map() });
    expect(first.firstname).toMatch(/^[A-Za-z]+$/);
    expect(first.vendorcandidateid).toBe('qa-ab12cd34-1');
    expect(new Set([first.firstname, second.firstname, other.firstname]).size).toBe(3);
    expect(second.vendorcandidateid).toBe('qa-ab12cd34-2');
  });
});
