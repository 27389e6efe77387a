import { describe, expect, it } from 'vitest';
import { candidateCatalog } from './candidate-catalog';
import { erasedPlaceholder, maskPersonal, personalFields } from './personal-data';
import { requisitionCatalog } from './requisition-catalog';

/*
 * Which of the spec's fields hold personal data, read from the spec's field tables by hand: the
 * candidate's names, e-mail and own id, what they wrote or had written about them (availability,
 * qualifications, answers, comments, citizenship and its explanation, custom field responses),
 * their rates; and the requisition's people (its contact, owner and reports-to user by name) and
 * its alternate e-mail.
 */
const personalBySpec: Record<string, string> = {
  firstname: 'name',
  lastname: 'name',
  candemail: 'email',
  vendorcandidateid: 'identifier',
  availability: 'text',
  summaryofqualifications: 'text',
  answer1: 'text',
  answer2: 'text',
  answer3: 'text',
  answer4: 'text',
  answer5: 'text',
  candcitizenshipstatus: 'choice',
  candcitizenshipexplain: 'text',
  billrate: 'rate',
  vendorrate: 'rate',
  payrate: 'rate',
  budgetrate: 'rate',
  candidatecomments: 'text',
  candcustomfield1: 'text',
  candcustomfield2: 'text',
  candcustomfield3: 'text',
  candcustomfield4: 'text',
  candcustomfield5: 'text',
  altemail: 'email',
  clientcontactfirstname: 'name',
  clientcontactlastname: 'name',
  reqownerfirstname: 'name',
  reqownerlastname: 'name',
  reportstofirstname: 'name',
  reportstolastname: 'name',
};

/** What a field's name or label says when it is about a person, whatever catalog adds it. */
const speaksOfAPerson =
  /(first|last|middle|full|given|family|sur)\s*name|e-?mail|phone|mobile|address|birth|\bdob\b|social security|\bssn\b|passport|national id/i;

describe('personal fields', () => {
  it('are exactly those the spec describes as about a person, each with its kind', () => {
    expect(Object.fromEntries(personalFields)).toEqual(personalBySpec);
  });

  it('include every field, of any catalog, whose name or label speaks of a person', () => {
    const unmarked = [...requisitionCatalog, ...candidateCatalog]
      .filter(
        (field) =>
          !field.personal &&
          (field.format === 'email' ||
            speaksOfAPerson.test(field.key) ||
            speaksOfAPerson.test(field.label)),
      )
      .map((field) => field.key);
    expect(unmarked).toEqual([]);
  });

  it("include every candidate field that is the candidate's own words or rates", () => {
    const unmarked = candidateCatalog
      .filter((field) => !field.personal && (field.type === 'DECIMAL' || field.multiline))
      .map((field) => field.key);
    expect(unmarked).toEqual([]);
  });
});

describe('a masked value', () => {
  it('keeps the initials of a name and as many bullets as letters, at least two', () => {
    expect(maskPersonal('name', 'Jane Doe')).toBe('J••• D••');
    expect(maskPersonal('name', '  Li ')).toBe('L••');
    expect(maskPersonal('name', 'Zoë Ångström-Kirk')).toBe('Z•• Å••••••••••••');
  });

  it('keeps the first letter of an e-mail and its domain, not the mailbox length', () => {
    expect(maskPersonal('email', 'jane.doe@example.com')).toBe('j•••@example.com');
    expect(maskPersonal('email', 'j@example.com')).toBe('j•••@example.com');
    expect(maskPersonal('email', 'not an address')).toBe('•••');
  });

  it('shows nothing of a rate, an answer or an id, and leaves a blank blank', () => {
    expect(maskPersonal('rate', '85.50')).toBe('•••');
    expect(maskPersonal('text', 'I can start on Monday.')).toBe('•••');
    expect(maskPersonal('identifier', 'V-1234')).toBe('•••');
    expect(maskPersonal('text', '')).toBe('');
  });

  it('shows an erased value as the erasure left it, whatever the kind, so it reads as erased', () => {
    const placeholder = erasedPlaceholder(new Date('2026-11-30T12:00:00Z'));
    for (const kind of ['name', 'email', 'text'] as const) {
      expect(maskPersonal(kind, placeholder)).toBe('[erased 2026-11-30]');
    }
    // Only the placeholder itself: a name that merely starts like it is masked.
    expect(maskPersonal('name', '[erased 2026-11-30] Jane')).toBe('[•••••• 2•••••••••• J•••');
  });
});
