import type { RequisitionWireKey } from './requisition-catalog';
import { requisitionField, requisitionPeople, requisitionReferences } from './requisition-catalog';

/**
 * The either/or fields of a requisition (spec rules 1, 3 and 8), defined once: the req class by
 * ID or by full path; the client contact, owner and reports-to user by user ID or by first and
 * last name; work location, cost center, GL and project by reference code or by VMS ID. The
 * form's choices and layout, the wire rules, and the sandbox's rules and storage derive from it.
 */
export interface AlternativeOption<V extends string = string> {
  value: V;
  /** The form's radio label. */
  label: string;
  /** How a message names it: "the req class ID". */
  phrase: string;
  keys: readonly RequisitionWireKey[];
}

export interface AlternativeGroup<C extends string = string, V extends string = string> {
  /** The form's choice field: reqclassBy, reqownerBy… */
  choice: C;
  legend: string;
  hint: string;
  /** The first option is the form's default. */
  options: readonly [AlternativeOption<V>, AlternativeOption<V>];
}

const reqclass = {
  choice: 'reqclassBy',
  legend: 'Req class',
  hint: 'Give the req class by its ID or by its full path in the org',
  options: [
    { value: 'id', label: 'By req class ID', phrase: 'the req class ID', keys: ['reqclassid'] },
    {
      value: 'path',
      label: 'By full req path',
      phrase: 'the full req path',
      keys: ['fullreqpath'],
    },
  ],
} as const satisfies AlternativeGroup;

const personHints: Record<(typeof requisitionPeople)[number]['stem'], string> = {
  clientcontact: 'Blank on Insert: the requisition owner',
  reqowner: 'The user who owns the requisition, by user ID or by name as in their profile',
  reportsto: 'Blank on Insert: the requisition owner',
};

const people = requisitionPeople.map(
  ({ stem, label }) =>
    ({
      choice: `${stem}By`,
      legend: label,
      hint: personHints[stem],
      options: [
        {
          value: 'id',
          label: 'By user ID',
          phrase: `the ${label.toLowerCase().replace('requisition ', '')} ID`,
          keys: [`${stem}id`],
        },
        {
          value: 'name',
          label: 'By first and last name',
          phrase: 'both first and last name',
          keys: [`${stem}firstname`, `${stem}lastname`],
        },
      ],
    }) as const satisfies AlternativeGroup,
);

const references = requisitionReferences.map(
  ({ stem, label }) =>
    ({
      choice: `${stem}By`,
      legend: label,
      hint:
        stem === 'project'
          ? 'By reference code or by VMS ID; one project per requisition'
          : 'By reference code or by VMS ID',
      options: [
        {
          value: 'code',
          label: 'By reference code',
          phrase: `the ${label} reference code`,
          keys: [`${stem}refcode`],
        },
        { value: 'id', label: 'By VMS ID', phrase: `the ${label} VMS ID`, keys: [`${stem}id`] },
      ],
    }) as const satisfies AlternativeGroup,
);

export const requisitionAlternatives = [reqclass, ...people, ...references] as const;

export type RequisitionChoiceKey = (typeof requisitionAlternatives)[number]['choice'];

/**
 * Required on Insert as one of its alternatives: read from the catalog, where such fields have
 * the requirement `either` (spec: "I, only if … is blank"; the owner's Y).
 */
export function requiredOnInsert(group: AlternativeGroup): boolean {
  return group.options.some((option) =>
    option.keys.some((key) => requisitionField(key)?.requirement === 'either'),
  );
}
