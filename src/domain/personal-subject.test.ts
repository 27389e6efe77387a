import { describe, expect, it } from 'vitest';
import { erasedPlaceholder } from './personal-data';
import { eraseSubject, findSubject, subjectName, type PersonalSubject } from './personal-subject';

const jane: PersonalSubject = {
  email: 'Jane.Quill@Example.com',
  name: { first: 'Jane', last: 'Quill' },
};
const at = new Date('2026-11-29T22:00:00Z');

const theirs = {
  requirementid: 'REQ-7',
  firstname: 'Jane',
  lastname: 'Quill',
  candemail: 'jane.quill@example.com',
  billrate: 95,
  answer1: 'Five years of Kotlin',
  engagementtype: 'Contract',
};
const someoneElse = {
  requirementid: 'REQ-7',
  firstname: 'Omar',
  lastname: 'Reyes',
  candemail: 'omar@example.com',
  billrate: 80,
};

describe('findSubject', () => {
  it('finds the item whose e-mail field is theirs, in any case, and not the others', () => {
    const body = JSON.stringify({ candidates: [theirs, someoneElse] });
    const found = findSubject(body, { email: 'JANE.QUILL@example.COM' });
    expect(found.items).toEqual([theirs]);
    expect(found.mentions).toBe(0);
  });

  it('finds an item by first and last name when a name is given and the e-mail differs', () => {
    const body = JSON.stringify([{ ...theirs, candemail: 'jq@elsewhere.org' }]);
    expect(findSubject(body, jane).items).toHaveLength(1);
    expect(findSubject(body, { email: jane.email }).items).toHaveLength(0);
  });

  it('does not take an item with only the first name for theirs', () => {
    const body = JSON.stringify([{ ...someoneElse, firstname: 'Jane' }]);
    expect(findSubject(body, jane).items).toHaveLength(0);
  });

  it('counts the e-mail and the name mentioned in plain text elsewhere in the body', () => {
    const body = JSON.stringify({
      errors: [
        { message: 'Candidate jane.quill@example.com already exists' },
        { message: 'Quill, Jane was submitted twice' },
      ],
    });
    const found = findSubject(body, jane);
    expect(found.items).toEqual([]);
    expect(found.mentions).toBe(2);
  });

  it('finds nothing in a body about someone else', () => {
    expect(findSubject(JSON.stringify([someoneElse]), jane)).toEqual({ items: [], mentions: 0 });
  });

  it("finds a requisition's contact by the name fields of that person", () => {
    const body = JSON.stringify({
      requisitionid: 'R-1',
      clientcontactfirstname: 'Jane',
      clientcontactlastname: 'Quill',
    });
    expect(findSubject(body, jane).items).toHaveLength(1);
  });
});

describe('eraseSubject', () => {
  it('replaces every personal value of their items with the dated placeholder, keeping the rest', () => {
    const body = JSON.stringify({
      status: 'accepted',
      count: 2,
      candidates: [theirs, someoneElse],
    });
    const erased = eraseSubject(body, jane, at);
    expect(erased.changed).toBe(true);
    expect(JSON.parse(erased.text)).toEqual({
      status: 'accepted',
      count: 2,
      candidates: [
        {
          requirementid: 'REQ-7',
          firstname: '[erased 2026-11-29]',
          lastname: '[erased 2026-11-29]',
          candemail: '[erased 2026-11-29]',
          billrate: '[erased 2026-11-29]',
          answer1: '[erased 2026-11-29]',
          engagementtype: 'Contract',
        },
        someoneElse,
      ],
    });
  });

  it('replaces mentions in plain text elsewhere, whatever their case', () => {
    const body = JSON.stringify({ message: 'Candidate JANE.QUILL@example.com already exists' });
    const erased = eraseSubject(body, jane, at);
    expect(JSON.parse(erased.text)).toEqual({
      message: 'Candidate [erased 2026-11-29] already exists',
    });
    expect(erased.mentions).toBe(1);
  });

  it('leaves a body about someone else exactly as it was', () => {
    const body = '{ "candidates": [ {"firstname":"Omar", "candemail":"omar@example.com"} ] }';
    expect(eraseSubject(body, jane, at)).toEqual({
      text: body,
      changed: false,
      items: [],
      mentions: 0,
    });
  });

  it('erases the e-mail and each half of the name from a body cut short (not JSON)', () => {
    const body =
      '[{"firstname":"Jane","lastname":"Quill","candemail":"jane.quill@example.com","answ';
    const erased = eraseSubject(body, jane, at);
    expect(erased.text).toBe(
      '[{"firstname":"[erased 2026-11-29]","lastname":"[erased 2026-11-29]","candemail":"[erased 2026-11-29]","answ',
    );
    expect(erased.text.toLowerCase()).not.toContain('quill');
  });

  it('keeps a blank personal value blank: that nothing was sent is not personal', () => {
    const erased = eraseSubject(JSON.stringify([{ ...theirs, answer1: '' }]), jane, at);
    expect((JSON.parse(erased.text) as Array<Record<string, unknown>>)[0]?.answer1).toBe('');
  });
});

describe('subjectName and erasedPlaceholder', () => {
  it('reads the first word as the first name and the rest as the last', () => {
    expect(subjectName('  Jane  van Quill ')).toEqual({ first: 'Jane', last: 'van Quill' });
    expect(subjectName('Jane')).toBeUndefined();
    expect(subjectName(undefined)).toBeUndefined();
  });

  it('dates the placeholder by the UTC day', () => {
    expect(erasedPlaceholder(new Date('2026-01-02T23:59:59Z'))).toBe('[erased 2026-01-02]');
  });
});
