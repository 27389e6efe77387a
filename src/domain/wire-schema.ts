import { z } from 'zod';
import type { FieldDef } from './catalog-types';
import type { FieldIssue } from './field-issue';
import { IssueList } from './field-issue';
import type { WireCheck, WireRecord } from './wire-check';

/**
 * The wire schema: one object exactly as sent, checked by the payload's wire rules
 * (compileWireCheck). Every documented key is a string; a missing key reads as blank (`''` in the
 * output, which lists every key in documented order); an unknown key is an error, never dropped
 * (decision 000), reported with `unknownKey` for toFieldIssues to explain.
 */
export function buildWireSchema<K extends string>(rules: WireCheck<K>): WireSchema<K> {
  return z.unknown().transform((input, ctx): WireRecord<K> => {
    const issues = new IssueList();
    const read = rules.check(
      input,
      {
        add: (field, message) =>
          ctx.addIssue({ code: 'custom', path: field === '' ? [] : [field], message }),
        unknownKey: (key) =>
          ctx.addIssue({ code: 'custom', path: [key], message: key, params: { unknownKey: true } }),
      },
      issues,
    );
    if (read === null) return z.NEVER;
    for (const issue of issues.issues) {
      ctx.addIssue({ code: 'custom', path: [issue.field], message: issue.message });
    }
    return rules.record(read);
  });
}

export type WireSchema<K extends string> = z.ZodType<WireRecord<K>>;

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
