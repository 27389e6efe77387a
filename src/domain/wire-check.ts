import type { DateFormat, FieldDef } from './catalog-types';
import type { FieldIssue } from './field-issue';
import { IssueList } from './field-issue';
import { fieldProblem } from './field-rules';

/** Reads an item's values for the item rules: a missing or non-string value reads as ''. */
export type WireReader<K extends string> = (key: K) => string;

export type WireRecord<K extends string> = Record<K, string>;

export interface WirePayload<K extends string> {
  /** `requisition` or `candidate`, for messages. */
  readonly name: string;
  readonly catalog: ReadonlyArray<FieldDef<K>>;
  /** Rules that look at the whole item: what is required, alternatives, cross-field checks. */
  readonly itemRules: (
    read: WireReader<K>,
    issues: IssueList,
    options: { dateFormat: DateFormat },
  ) => void;
}

/**
 * Where a check puts what it finds, in this order: the item itself when it is not an object, or
 * each value sent as something other than a string (`add`); each undocumented key
 * (`unknownKey`, explained by the payload); then the field and item rules' problems, in the
 * IssueList given beside it.
 */
export interface WireProblems {
  add(field: string, message: string): void;
  unknownKey(key: string): void;
}

/** A payload's rules for one date format, compiled once (compileWireCheck). */
export interface WireCheck<K extends string> {
  /**
   * Checks one item, reporting every problem (see WireProblems); returns the item's reader, or
   * null when the item is not an object.
   */
  check(input: unknown, problems: WireProblems, issues: IssueList): WireReader<K> | null;
  /** Every catalog key, in documented order, with the item's value ('' when missing). */
  record(read: WireReader<K>): WireRecord<K>;
}

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * The wire rules, the one place they are applied: every documented key is a string; a missing key
 * reads as blank; an unknown key is an error, never dropped (decision 000); each
 * field's type, enumeration and bounds (field-rules.ts); then the payload's item rules, which run
 * even when some fields failed, so one pass reports every problem. The zod schema
 * (wire-schema.ts) and the direct checks below both run it.
 */
export function compileWireCheck<K extends string>(
  payload: WirePayload<K>,
  dateFormat: DateFormat,
): WireCheck<K> {
  const order: readonly string[] = payload.catalog.map((def) => def.key);
  const known = new Set<string>(order);
  // Fields whose values need checking beyond "is a string" (all but free-text STRING fields).
  const fields = payload.catalog.map((def) => ({
    def,
    checked: def.type !== 'STRING' || def.options !== undefined || def.format !== undefined,
    notString: `${def.label} must be sent as a JSON string, e.g. "1" rather than 1`,
  }));
  const notObject = `Each ${payload.name} must be a JSON object ({ "key": "value", … })`;
  const options = { dateFormat };
  // Each record starts as a copy of this one: about half the time of adding 129 keys one by one.
  const blank = Object.fromEntries(payload.catalog.map((def) => [def.key, ''])) as WireRecord<K>;

  const check: WireCheck<K>['check'] = (input, problems, issues) => {
    if (!isPlainObject(input)) {
      problems.add('', notObject);
      return null;
    }
    // One read of each documented key. A value's field problem is found here but reported after
    // the unknown keys, in catalog order, as the order above promises.
    let found: { key: K; problem: string }[] | undefined;
    for (const { def, checked, notString } of fields) {
      const value = input[def.key];
      if (typeof value === 'string') {
        if (checked && value !== '') {
          const problem = fieldProblem(def, value, dateFormat);
          if (problem !== null) (found ??= []).push({ key: def.key, problem });
        }
      } else if (value !== undefined) {
        problems.add(def.key, notString);
      }
    }
    // Items written by the portal list their keys in documented order: a key in its documented
    // place is known without the set lookup.
    const keys = Object.keys(input);
    for (let i = 0; i < keys.length; i += 1) {
      const key = keys[i] ?? '';
      if (key !== order[i] && !known.has(key)) problems.unknownKey(key);
    }
    if (found) for (const { key, problem } of found) issues.add(key, problem);

    const read: WireReader<K> = (key) => {
      const value = input[key];
      return typeof value === 'string' ? value : '';
    };
    payload.itemRules(read, issues, options);
    return read;
  };
  const record = (read: WireReader<K>): WireRecord<K> => {
    const item = { ...blank };
    for (const { def } of fields) item[def.key] = read(def.key);
    return item;
  };
  return { check, record };
}

/** An item's problems, first per field, with each unknown key explained. */
class ItemIssues extends IssueList implements WireProblems {
  private readonly explain: (key: string) => string;

  constructor(explain: (key: string) => string) {
    super();
    this.explain = explain;
  }

  unknownKey(key: string): void {
    this.add(key, this.explain(key));
  }
}

/**
 * An item's problems by wire key, [] when it is valid: the same list as the zod schema's issues
 * through toFieldIssues (one per field, the first found), without building the output record.
 */
export function wireItemIssues<K extends string>(
  rules: WireCheck<K>,
  item: unknown,
  unknownKey: (key: string) => string,
): FieldIssue[] {
  const issues = new ItemIssues(unknownKey);
  rules.check(item, issues, issues);
  return issues.issues;
}

export type ItemResult<K extends string> =
  { ok: true; value: WireRecord<K> } | { ok: false; issues: FieldIssue[] };

/** An item checked: its record (every key, documented order) when valid, else its problems. */
export function checkWireItem<K extends string>(
  rules: WireCheck<K>,
  item: unknown,
  unknownKey: (key: string) => string,
): ItemResult<K> {
  const issues = new ItemIssues(unknownKey);
  const read = rules.check(item, issues, issues);
  return read !== null && issues.issues.length === 0
    ? { ok: true, value: rules.record(read) }
    : { ok: false, issues: issues.issues };
}
