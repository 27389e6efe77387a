import { z } from 'zod';
import { payloadKinds, type PayloadKind } from './payload-kind';

/**
 * A QA suite: an ordered list of cases, each one payload item with the outcome the VMS is
 * expected to give it. Kept as a JSON file (docs/suite.schema.json), so it can live in a
 * repository and run from CI (`npm run suite`).
 *
 * A case's item may refer to what an earlier case produced (`{{create-req.createdId}}`: the id
 * the VMS gave that case's item) and to values made afresh for each run (`{{run.id}}`,
 * `{{unique.email}}`), so a suite that creates data runs again and again without tripping the
 * VMS's duplicate rules.
 */

export const expectedStatuses = ['Success', 'Error', 'New', 'Incomplete'] as const;

const caseId = z
  .string()
  .regex(/^[a-z0-9][a-z0-9-]{0,59}$/, 'a case id is a lowercase slug such as create-req');

export const suiteCaseSchema = z
  .object({
    id: caseId.meta({ description: 'How later cases refer to this one: {{<id>.createdId}}.' }),
    name: z.string().min(1).max(200).optional().meta({ description: 'What the case checks.' }),
    kind: z.enum(payloadKinds).meta({ description: 'requisition (Insert or Amend) or candidate.' }),
    item: z
      .record(z.string(), z.string())
      .meta({ description: 'The payload item, its values text, with {{…}} references.' }),
    expect: z
      .object({
        status: z.enum(expectedStatuses),
        message: z
          .string()
          .optional()
          .meta({ description: 'A regular expression the VMS message must match.' }),
        field: z
          .string()
          .optional()
          .meta({ description: 'A wire key the VMS message must name (e.g. reqclassid).' }),
      })
      .strict(),
  })
  .strict();

export const suiteSchema = z
  .object({
    $schema: z.string().optional(),
    name: z.string().min(1).max(200),
    cases: z.array(suiteCaseSchema).min(1).max(5000),
  })
  .strict()
  .superRefine((suite, context) => {
    const seen = new Set<string>();
    suite.cases.forEach((entry, index) => {
      if (seen.has(entry.id)) {
        context.addIssue({
          code: 'custom',
          path: ['cases', index, 'id'],
          message: `case id "${entry.id}" is used twice; give each case its own`,
        });
      }
      for (const ref of referencesOf(entry.item)) {
        if (!seen.has(ref)) {
          context.addIssue({
            code: 'custom',
            path: ['cases', index, 'item'],
            message: `{{${ref}.createdId}} names no earlier case; a case may refer only to those before it`,
          });
        }
      }
      seen.add(entry.id);
    });
  });

export type Suite = z.output<typeof suiteSchema>;
export type SuiteCase = z.output<typeof suiteCaseSchema>;

const placeholder = /\{\{\s*([A-Za-z0-9.-]+)\s*\}\}/g;

/** The earlier cases an item refers to (`{{create-req.createdId}}`). */
export function referencesOf(item: Readonly<Record<string, string>>): Set<string> {
  const refs = new Set<string>();
  for (const value of Object.values(item)) {
    for (const [, name = ''] of value.matchAll(placeholder)) {
      const [ref, field] = name.split('.');
      if (ref !== undefined && ref !== 'run' && ref !== 'unique' && field === 'createdId')
        refs.add(ref);
    }
  }
  return refs;
}

/**
 * An item with its references filled in: `{{run.id}}` the run's id, `{{unique.email}}` an
 * address made for this case in this run, `{{<case>.createdId}}` what the VMS created for that
 * case. An unknown name is left as written, for the VMS (and the expectation) to judge.
 */
export function resolveItem(
  item: Readonly<Record<string, string>>,
  context: { runId: string; caseIndex: number; created: ReadonlyMap<string, string> },
): Record<string, string> {
  return Object.fromEntries(
    Object.entries(item).map(([key, value]) => [
      key,
      value.replace(placeholder, (whole, name: string) => {
        if (name === 'run.id') return context.runId;
        if (name === 'unique.email')
          return `qa.${context.runId}.${context.caseIndex + 1}@example.com`;
        const [ref, field] = name.split('.');
        if (field === 'createdId' && ref !== undefined) return context.created.get(ref) ?? whole;
        return whole;
      }),
    ]),
  );
}

/**
 * The batches a run sends, in order: consecutive cases of one kind, cut where a case refers to
 * one in the batch being made (its id is known only once that batch's results are in).
 */
export function planBatches(cases: readonly SuiteCase[]): number[][] {
  const batches: number[][] = [];
  let current: number[] = [];
  let kind: PayloadKind | null = null;
  let inCurrent = new Set<string>();
  cases.forEach((entry, index) => {
    const refersIn = [...referencesOf(entry.item)].some((ref) => inCurrent.has(ref));
    if (current.length > 0 && (entry.kind !== kind || refersIn)) {
      batches.push(current);
      current = [];
      inCurrent = new Set();
    }
    current.push(index);
    inCurrent.add(entry.id);
    kind = entry.kind;
  });
  if (current.length > 0) batches.push(current);
  return batches;
}

export interface CaseOutcome {
  status: string;
  message: string;
  createdId: string;
}

/** Why a case's outcome is not what it expected, or null when it is. */
export function caseFailure(expected: SuiteCase['expect'], actual: CaseOutcome): string | null {
  if (actual.status !== expected.status) {
    return `expected ${expected.status}, got ${actual.status}${actual.message ? `: ${actual.message}` : ''}`;
  }
  if (expected.message !== undefined && !new RegExp(expected.message).test(actual.message)) {
    return `the message "${actual.message}" does not match /${expected.message}/`;
  }
  if (
    expected.field !== undefined &&
    !actual.message.toLowerCase().includes(expected.field.toLowerCase())
  ) {
    return `the message "${actual.message}" does not name ${expected.field}`;
  }
  return null;
}

/** The suite file's JSON Schema (docs/suite.schema.json), from the schema a run reads it with. */
export function suiteJsonSchema(): Record<string, unknown> {
  return {
    ...z.toJSONSchema(suiteSchema, { target: 'draft-7', io: 'input' }),
    $id: 'https://vms-portal.example/schemas/suite.schema.json',
    title: 'VMS portal QA suite',
    description:
      'An ordered list of cases, each a payload item and the outcome the VMS should give it; run with npm run suite -- run <file> --portal <url>.',
  };
}
