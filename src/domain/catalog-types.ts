/**
 * The shape of a field catalog entry. Each payload (requisition, candidate) has one catalog: the
 * single source from which schemas, labels, form defaults, wire assembly and docs derive.
 */

/** The spec's data type words ("Data type words used"). Every value travels as a JSON string. */
export type DataType = 'INTEGER' | 'DECIMAL' | 'STRING' | 'DATE' | 'FLAG';

/**
 * When a field must contain data.
 * - `insert`: required for Insert (I), optional for Amend.
 * - `insert-amend`: required for both (requesttype, orgid, clientinternalreq).
 * - `either`: required for Insert as one of an alternative pair (req class, owner); see rules.
 * - `conditional`: required by a server-side setting the portal cannot see (nottoexceedratecode).
 * - `required`: always required (candidate payload).
 * - `optional`: never required.
 */
export type Requirement =
  'insert' | 'insert-amend' | 'either' | 'conditional' | 'required' | 'optional';

export interface FieldOption {
  readonly value: string;
  readonly label: string;
}

/**
 * How a DATE is written: a date pattern of date-patterns.ts (`YYYY-MM-DD`, `MM/DD/YYYY`,
 * `DD.MM.YYYY`, `M/D/YYYY`…) or `iso-8601`, checked where it is set (a profile, VMS_DATE_FORMAT,
 * a connection).
 */
export type DateFormat = string;

/**
 * What kind of personal value a field holds, which decides its mask: a name shows its initials
 * (`J••• D••`), an e-mail its first letter and its domain (`j•••@example.com`), anything else
 * nothing of itself (`•••`).
 */
export type PersonalKind = 'name' | 'email' | 'identifier' | 'text' | 'rate' | 'choice';

/** Fields generated n times (skill items, question items, answers, custom fields…). */
export interface RowRef {
  readonly group: string;
  /** 1-based item number: skill<n>, answer<n>… */
  readonly n: number;
  /** The field's name inside its row in the form model (e.g. `description`). */
  readonly part: string;
}

export interface FieldDef<K extends string = string> {
  readonly key: K;
  /** Human label, from the spec's meaning column. */
  readonly label: string;
  readonly type: DataType;
  readonly requirement: Requirement;
  readonly options?: readonly FieldOption[];
  readonly min?: number;
  readonly max?: number;
  readonly maxDecimals?: number;
  /** STRING fields that must hold an e-mail address. */
  readonly format?: 'email';
  /** Form section the field belongs to. */
  readonly section: string;
  /** Short explanation shown under the field (from the spec). */
  readonly hint?: string;
  /** Free text that takes several lines: a textarea in the forms. */
  readonly multiline?: true;
  /**
   * Values worth suggesting from what was typed before and what the VMS lists (ids, codes,
   * names a recruiter types again and again); rows share one list per part.
   */
  readonly suggest?: true;
  /**
   * Personal data about a person (a candidate, or a client's contact), and how it is masked for
   * those who may not see it (personal-data.ts). Every place that shows, exports, finds or
   * erases personal values derives from this mark.
   */
  readonly personal?: PersonalKind;
  /** PascalCase name in GET Requisitions records (requisition catalog only). */
  readonly responseName?: string;
  readonly row?: RowRef;
}

/** Human text for a requirement, e.g. in hints and the docs' field tables. */
export function describeRequirement(requirement: Requirement): string {
  switch (requirement) {
    case 'insert':
      return 'Required for Insert';
    case 'insert-amend':
      return 'Required for Insert and Amend';
    case 'either':
      return 'Required for Insert, as one of two alternatives';
    case 'conditional':
      return 'Required when the client lets engagements exceed the hourly high';
    case 'required':
      return 'Required';
    case 'optional':
      return 'Optional';
  }
}

/** 1..n as an array, for generating the repeated fields. */
export function oneTo(n: number): number[] {
  return Array.from({ length: n }, (_, i) => i + 1);
}

/**
 * Fields generated n times get their keys from template strings at run time; TypeScript widens
 * those to `string`. This is the one place that narrows them back to the payload's key union.
 */
export function keyed<K extends string>(defs: readonly FieldDef[]): ReadonlyArray<FieldDef<K>> {
  return defs as ReadonlyArray<FieldDef<K>>;
}
