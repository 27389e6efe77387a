import { z } from 'zod';
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
 * The wire schema: one object exactly as sent. Every documented key is a string; a missing key
 * reads as blank (`''` in the output, which lists every key in documented order); an unknown key
 * is an error, never dropped (decisions.md, "Wire format").
 */
export function buildWireSchema<K extends string>(
  payload: WirePayload<K>,
  dateFormat: DateFormat,
): z.ZodType<WireRecord<K>> {
  const known = new Set<string>(payload.catalog.map((def) => def.key));
  // Fields whose values need checking beyond "is a string" (all but free-text STRING fields).
  const checked = payload.catalog.filter(
    (def) => def.type !== 'STRING' || def.options || def.format,
  );

  // One pass over the item rather than a strict zod object of 129 defaulted strings: the same
  // checks, about 4 µs less per item (10,000 requisitions: 826 → 785 ms in bench/validator.ts).
  return z.unknown().transform((input, ctx): WireRecord<K> => {
    if (!isPlainObject(input)) {
      ctx.addIssue({
        code: 'custom',
        path: [],
        message: `Each ${payload.name} must be a JSON object ({ "key": "value", … })`,
      });
      return z.NEVER;
    }
    const typeIssues = new IssueList();
    const item = {} as WireRecord<K>; // every catalog key is set below, in documented order
    for (const def of payload.catalog) {
      const value = input[def.key];
      if (value === undefined) {
        // A missing key reads as blank: the output lists every key, in documented order.
        item[def.key] = '';
      } else if (typeof value === 'string') {
        item[def.key] = value;
      } else {
        item[def.key] = '';
        typeIssues.add(
          def.key,
          `${def.label} must be sent as a JSON string, e.g. "1" rather than 1`,
        );
      }
    }
    for (const issue of typeIssues.issues)
      ctx.addIssue({ code: 'custom', path: [issue.field], message: issue.message });
    // An unknown key is an error, never dropped (decisions.md, "Wire format").
    for (const key of Object.keys(input)) {
      if (!known.has(key))
        ctx.addIssue({ code: 'custom', path: [key], message: key, params: { unknownKey: true } });
    }
    // Field rules: type, enumeration, bounds; then the rules that look at the whole item, which
    // run even when some fields failed, so one pass reports every problem.
    const issues = new IssueList();
    for (const def of checked) {
      const value = item[def.key];
      if (value === '' || typeIssues.has(def.key)) continue;
      const problem = fieldProblem(def, value, dateFormat);
      if (problem !== null) issues.add(def.key, problem);
    }
    payload.itemRules((key) => item[key], issues, { dateFormat });
    for (const issue of issues.issues) {
      ctx.addIssue({ code: 'custom', path: [issue.field], message: issue.message });
    }
    return item;
  });
}

export type WireSchema<K extends string> = z.ZodType<WireRecord<K>>;

export type ItemResult<K extends string> =
  { ok: true; value: WireRecord<K> } | { ok: false; issues: FieldIssue[] };

/**
 * Zod issues → one FieldIssue per field (the first, most basic problem), field = wire key. An
 * undocumented key gets its own issue, saying why (`unknownKey`).
 */
export function toFieldIssues(
  error: z.ZodError,
  unknownKey: (key: string) => string,
): FieldIssue[] {
  const issues = new IssueList();
  for (const issue of error.issues) {
    if (issue.code === 'custom' && issue.params?.['unknownKey'] === true) {
      const key = String(issue.path[0]);
      issues.add(key, unknownKey(key));
      continue;
    }
    const field = issue.path.length > 0 ? String(issue.path[0]) : '';
    issues.add(field, issue.message);
  }
  return issues.issues;
}

export function validateWith<K extends string>(
  schema: WireSchema<K>,
  item: unknown,
  unknownKey: (key: string) => string,
): ItemResult<K> {
  const result = schema.safeParse(item);
  return result.success
    ? { ok: true, value: result.data }
    : { ok: false, issues: toFieldIssues(result.error, unknownKey) };
}

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** For an unknown key: the documented key it most likely meant (same letters, other case). */
export function suggestKey(key: string, known: readonly string[]): string | undefined {
  const lower = key.toLowerCase().replace(/[^a-z0-9]/g, '');
  return known.find((candidate) => candidate === lower);
}

/**
 * Looks up the catalog's row fields (skill items, answers…) by group, item number and part:
 * `rowKey('skills', 3, 'description')` → `skilldescription3`. Built once per catalog.
 */
export function rowKeyLookup<K extends string>(
  catalog: ReadonlyArray<FieldDef<K>>,
  payloadName: string,
): (group: string, n: number, part: string) => K {
  const keys = new Map<string, K>();
  for (const def of catalog)
    if (def.row) keys.set(`${def.row.group}.${def.row.n}.${def.row.part}`, def.key);
  return (group, n, part) => {
    const key = keys.get(`${group}.${n}.${part}`);
    if (key === undefined)
      throw new RangeError(`The ${payloadName} has no ${group} field ${part} ${n}`);
    return key;
  };
}

/**
 * The row group a key would belong to if its number were in range: `skill11` → `skills`,
 * `answer6` → `answers`. Read from the catalog's rows, so a key beyond a row limit is named as
 * such instead of as a typo.
 */
export function rowGroupLookup(
  catalog: ReadonlyArray<FieldDef>,
): (key: string) => string | undefined {
  const shape = (key: string) => key.replace(/\d+/, '#');
  const groups = new Map<string, string>();
  for (const def of catalog) if (def.row) groups.set(shape(def.key), def.row.group);
  return (key) => groups.get(shape(key));
}

/** A payload's repeated rows, for messages about a key beyond their limit. */
export type RowLimits = Record<string, { limit: number; noun: string; range: string }>;

/**
 * Explains an unknown key in words: beyond a row's limit (`skill11`, `answer6`), or a likely typo
 * with the nearest documented key (`titleRole` → titlerole).
 */
export function unknownKeyExplainer(
  payload: string,
  catalog: ReadonlyArray<FieldDef>,
  rows: RowLimits,
): (key: string) => string {
  const groupOf = rowGroupLookup(catalog);
  const keys = catalog.map((def) => def.key);
  return (key) => {
    const row = rows[groupOf(key) ?? ''];
    if (row)
      return `${key} is not allowed: a ${payload} has at most ${row.limit} ${row.noun} (${row.range})`;
    const suggestion = suggestKey(key, keys);
    return suggestion
      ? `${key} is not a ${payload} field; did you mean ${suggestion}? Field names are lowercase.`
      : `${key} is not a ${payload} field; remove it or check its spelling against the specification`;
  };
}
