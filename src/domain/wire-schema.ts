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
  /** Why an undocumented key is wrong (e.g. `skill11`: at most 10 skills). */
  readonly unknownKey: (key: string) => string;
}

/**
 * The wire schema: one object exactly as sent. Every documented key is a string; a missing key
 * reads as blank (`''` in the output, which lists every key in documented order); an unknown key
 * is an error, never dropped (decisions.md, "Wire format").
 */
export function buildWireSchema<K extends string>(payload: WirePayload<K>, dateFormat: DateFormat) {
  const shape: Record<string, z.ZodType<string, string | undefined>> = {};
  for (const def of payload.catalog) {
    shape[def.key] = z
      .string({ error: `${def.label} must be sent as a JSON string, e.g. "1" rather than 1` })
      .check(
        z.superRefine((value, ctx) => {
          const problem = fieldProblem(def, value, dateFormat);
          if (problem !== null) ctx.addIssue({ code: 'custom', message: problem });
        }),
      )
      .default('');
  }

  return z
    .looseObject(shape, {
      error: `Each ${payload.name} must be a JSON object ({ "key": "value", … })`,
    })
    .check(
      z.superRefine(
        (item, ctx) => {
          const issues = new IssueList();
          for (const key of Object.keys(item)) {
            if (!Object.hasOwn(shape, key)) issues.add(key, payload.unknownKey(key));
          }
          const read: WireReader<K> = (key) => {
            const value: unknown = item[key];
            return typeof value === 'string' ? value : '';
          };
          payload.itemRules(read, issues, { dateFormat });
          for (const issue of issues.issues) {
            ctx.addIssue({ code: 'custom', path: [issue.field], message: issue.message });
          }
        },
        // Item rules run even when some fields failed, so one pass reports every problem; they
        // need an object to read, though.
        { when: (payload) => isPlainObject(payload.value) },
      ),
    )
    .transform((item) => {
      // Success implies no unknown keys; rebuild in documented order with every key present.
      const out = {} as WireRecord<K>;
      for (const def of payload.catalog) out[def.key] = String(item[def.key] ?? '');
      return out;
    });
}

export type WireSchema<K extends string> = ReturnType<typeof buildWireSchema<K>>;

export type ItemResult<K extends string> =
  { ok: true; value: WireRecord<K> } | { ok: false; issues: FieldIssue[] };

/** Zod issues → one FieldIssue per field (the first, most basic problem), field = wire key. */
export function toFieldIssues(error: z.ZodError): FieldIssue[] {
  const issues = new IssueList();
  for (const issue of error.issues) {
    const field = issue.path.length > 0 ? String(issue.path[0]) : '';
    issues.add(field, issue.message);
  }
  return issues.issues;
}

export function validateWith<K extends string>(
  schema: WireSchema<K>,
  item: unknown,
): ItemResult<K> {
  const result = schema.safeParse(item);
  return result.success
    ? { ok: true, value: result.data }
    : { ok: false, issues: toFieldIssues(result.error) };
}

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** For an unknown key: the documented key it most likely meant (same letters, other case). */
export function suggestKey(key: string, known: readonly string[]): string | undefined {
  const lower = key.toLowerCase().replace(/[^a-z0-9]/g, '');
  return known.find((candidate) => candidate === lower);
}
