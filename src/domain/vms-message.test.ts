import { describe, expect, it } from 'vitest';
import { candidateCatalog } from './candidate-catalog';
import { requisitionCatalog } from './requisition-catalog';
import { fieldNamedIn, withFieldLabels } from './vms-message';

const labelOf = (key: string) => requisitionCatalog.find((field) => field.key === key)?.label ?? '';

describe('fieldNamedIn', () => {
  it('finds the wire name a sandbox message starts with', () => {
    expect(
      fieldNamedIn(
        'reqclassid: 999 is not a req class of org 1001; use one of 101 (IT|Software|Developer)',
        requisitionCatalog,
      ),
    ).toBe('reqclassid');
  });

  it('finds numbered row fields by their own number', () => {
    expect(fieldNamedIn('skilldescription3: is blank', requisitionCatalog)).toBe(
      'skilldescription3',
    );
    expect(fieldNamedIn('answer2 is required for this requisition', candidateCatalog)).toBe(
      'answer2',
    );
  });

  it('finds a field by its label, in any case', () => {
    const label = labelOf('titlerole');
    expect(label).not.toBe('');
    expect(fieldNamedIn(`The ${label.toUpperCase()} is too long`, requisitionCatalog)).toBe(
      'titlerole',
    );
  });

  it('takes the field named first when a message names several', () => {
    expect(
      fieldNamedIn('reqownerid: is blank; name the owner or give reqownerid', requisitionCatalog),
    ).toBe('reqownerid');
    expect(fieldNamedIn('enddate must be after startdate', requisitionCatalog)).toBe('enddate');
  });

  it('matches whole words only, and says so when no field is named', () => {
    // "orgid" is a field; "vendororgidx" is not a mention of it.
    expect(fieldNamedIn('vendororgidx was refused', requisitionCatalog)).toBeNull();
    expect(fieldNamedIn('The VMS is busy; try again later', requisitionCatalog)).toBeNull();
  });
});

describe('withFieldLabels', () => {
  it('puts the label first and the wire name second in each field: message part', () => {
    expect(
      withFieldLabels(
        'reqclassid: 999 is not a req class of org 1001; titlerole: is blank',
        requisitionCatalog,
      ),
    ).toBe(
      `${labelOf('reqclassid')} (reqclassid): 999 is not a req class of org 1001; ${labelOf('titlerole')} (titlerole): is blank`,
    );
  });

  it('labels numbered fields named in a list, as an Incomplete candidate’s message names them', () => {
    expect(
      withFieldLabels(
        'Submitted as Incomplete because these are blank: answer1, skill2response.',
        candidateCatalog,
      ),
    ).toBe(
      'Submitted as Incomplete because these are blank: Answer to question 1 (answer1), Skill 2 response (skill2response).',
    );
    // Labelled once, whichever way the message names it.
    expect(withFieldLabels('answer2: is blank', candidateCatalog)).toBe(
      'Answer to question 2 (answer2): is blank',
    );
    expect(withFieldLabels('Room 101 and B2B are not fields', candidateCatalog)).toBe(
      'Room 101 and B2B are not fields',
    );
  });

  it('leaves text that names no field as it is', () => {
    expect(withFieldLabels('Note: the VMS is busy', requisitionCatalog)).toBe(
      'Note: the VMS is busy',
    );
    expect(withFieldLabels('', requisitionCatalog)).toBe('');
  });
});
