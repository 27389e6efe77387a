import { z } from 'zod';
import { candidateCatalog } from './candidate-catalog';
import { payloadKinds, type PayloadKind } from './payload-kind';
import { requisitionCatalog } from './requisition-catalog';
import { fieldNamedIn } from './vms-message';

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

function isRegExp(pattern: string): boolean {
  try {
    new RegExp(pattern);
    return true;
  } catch {
    return false;
  }
}

const caseIdPattern = /^[a-z0-9][a-z0-9-]{0,59}$/;

const caseId = z.string().regex(caseIdPattern, 'a case id is a lowercase slug such as create-req');

/** Most cases one suite may have. */
export const suiteCaseLimit = 5000;

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
          .refine(isRegExp, {
            message:
              'the message pattern is not a regular expression; escape special characters such as ( or [ with a backslash',
          })
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
    cases: z.array(suiteCaseSchema).min(1).max(suiteCaseLimit),
  })
  .strict()
  .superRefine((suite, context) => {
    const seen = new Set<string>();
    const ids = new Set(suite.cases.map((entry) => entry.id));
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
            message: ids.has(ref)
              ? `{{${ref}.createdId}} names a later case; a case may refer only to those before it`
              : `{{${ref}.createdId}} names no case of this suite; check the id ("${ref}")`,
          });
        }
      }
      seen.add(entry.id);
    });
  });

export type Suite = z.output<typeof suiteSchema>;

export type SuiteCase = z.output<typeof suiteCaseSchema>;

export const placeholder = /\{\{\s*([A-Za-z0-9.-]+)\s*\}\}/g;

/** The earlier cases an item refers to (`{{create-req.createdId}}`). */
export function referencesOf(item: Readonly<Record<string, string>>): Set<string> {
  const refs = new Set<string>();
  for (const value of Object.values(item)) {
    // Most values refer to nothing: not worth a regular expression's search.
    if (!value.includes('{{')) continue;
    for (const [, name = ''] of value.matchAll(placeholder)) {
      const [ref, field] = name.split('.');
      if (ref !== undefined && ref !== 'run' && ref !== 'unique' && field === 'createdId')
        refs.add(ref);
    }
  }
  return refs;
}

/**
 * The item with the values a VMS refuses to see twice made afresh for each run, so a case
 * taken from one send passes again and again: a requisition Insert's client internal req gets
 * `-{{run.id}}`, a candidate's e-mail becomes `{{unique.email}}`. A value that already has a
 * reference is left as it is.
 */
export function withPerRunValues(
  kind: PayloadKind,
  item: Readonly<Record<string, string>>,
): Record<string, string> {
  const out = { ...item };
  const fresh = (value: string | undefined) =>
    value !== undefined && value.trim() !== '' && !value.includes('{{');
  if (kind === 'requisition') {
    if ((out.requesttype ?? '').trim().toUpperCase() === 'I' && fresh(out.clientinternalreq)) {
      out.clientinternalreq = `${(out.clientinternalreq ?? '').trim()}-{{run.id}}`;
    }
  } else if (fresh(out.candemail)) {
    out.candemail = '{{unique.email}}';
  }
  return out;
}

/** The fields `withPerRunValues` makes afresh, by kind: what a page says it will change. */
export const perRunFields: Record<PayloadKind, string> = {
  requisition: 'a new requisition’s client internal req (clientinternalreq)',
  candidate: 'the candidate’s e-mail (candemail)',
};

/**
 * What a case expects, taken from the outcome the VMS gave its item: the status, and for an
 * Error the field its message names (by wire name or label), if it names one. The message
 * itself is not made a pattern: its wording, the ids in it, change from run to run.
 */
export function expectationFrom(
  kind: PayloadKind,
  outcome: { status: string; message: string },
): SuiteCase['expect'] | null {
  const status = expectedStatuses.find((candidate) => candidate === outcome.status);
  if (status === undefined) return null;
  if (status !== 'Error') return { status };
  const field = fieldNamedIn(
    outcome.message,
    kind === 'requisition' ? requisitionCatalog : candidateCatalog,
  );
  return field === null ? { status } : { status, field };
}

/** The outcomes a case of each kind can expect, in the words of its results. */
export const expectedStatusesOf: Record<PayloadKind, readonly SuiteCase['expect']['status'][]> = {
  requisition: ['Success', 'Error'],
  candidate: ['New', 'Incomplete', 'Error'],
};

/**
 * Whether a case gets new values for each run (`withPerRunValues`): only one the VMS is expected to
 * accept. An accepted item leaves a requisition or a submission behind, which the same values
 * would duplicate on the next run; a refused one leaves nothing, and its refusal may be for those
 * very values (a client internal req already used, an e-mail already submitted, an id the VMS
 * does not know), so it keeps them and is refused the same way run after run.
 */
export const getsPerRunValues = (expect: SuiteCase['expect']) => expect.status !== 'Error';

/**
 * Cases made of items someone chose to keep (a journal call's, a batch's, an import's rows): each
 * under an id of its own (from `idBase`, unique among `taken` and each other), with the values a
 * VMS refuses twice made afresh per run when `perRun`, for the cases `getsPerRunValues` says.
 */
export function casesFromItems(
  kind: PayloadKind,
  entries: readonly {
    item: Readonly<Record<string, string>>;
    idBase: string;
    name: string;
    expect: SuiteCase['expect'];
  }[],
  options: { perRun: boolean; taken?: ReadonlySet<string> },
): SuiteCase[] {
  const taken = new Set(options.taken);
  return entries.map((entry) => {
    const id = freeCaseId(entry.idBase, taken);
    taken.add(id);
    return {
      id,
      name: entry.name.slice(0, 200),
      kind,
      item:
        options.perRun && getsPerRunValues(entry.expect)
          ? withPerRunValues(kind, entry.item)
          : { ...entry.item },
      expect: entry.expect,
    };
  });
}

/** What a case of `kind` expects until someone says otherwise: the VMS's yes. */
export const acceptedStatus: Record<PayloadKind, SuiteCase['expect']['status']> = {
  requisition: 'Success',
  candidate: 'New',
};

/** `base` made a case id (a lowercase slug), or `case` when nothing of it is left. */
function slug(base: string): string {
  const made = base
    .toLowerCase()
    .replace(/\{\{[^}]*\}\}/g, '')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 50)
    .replace(/-+$/, '');
  return made === '' ? 'case' : made;
}

/** A case id from `base` that none of `taken` has: `base`, else `base-2`, `base-3`… */
export function freeCaseId(base: string, taken: ReadonlySet<string>): string {
  const root = caseIdPattern.test(base) ? base : slug(base);
  if (!taken.has(root)) return root;
  for (let n = 2; ; n += 1) {
    const candidate = `${root.slice(0, 55).replace(/-+$/, '')}-${n}`;
    if (!taken.has(candidate)) return candidate;
  }
}

/** `item` with every `{{from.createdId}}` made `{{to.createdId}}`. */
function renamedRefs(item: Readonly<Record<string, string>>, from: string, to: string) {
  return Object.fromEntries(
    Object.entries(item).map(([key, value]) => [
      key,
      value.replace(placeholder, (whole, name: string) => {
        const [ref, field] = name.split('.');
        return ref === from && field === 'createdId' ? `{{${to}.createdId}}` : whole;
      }),
    ]),
  );
}

/** The cases with case `from` called `to`, and every reference to it following. */
export function renameCase(cases: readonly SuiteCase[], from: string, to: string): SuiteCase[] {
  return cases.map((entry) => ({
    ...entry,
    id: entry.id === from ? to : entry.id,
    item: renamedRefs(entry.item, from, to),
  }));
}

/**
 * The suite with `added` after its cases. An added case whose id the suite already has gets a
 * free one, and the added cases' references to it follow.
 */
export function appendCases(suite: Suite, added: readonly SuiteCase[]): Suite {
  const taken = new Set(suite.cases.map((entry) => entry.id));
  let renamed = [...added];
  for (const [position, entry] of added.entries()) {
    const id = freeCaseId(entry.id, taken);
    taken.add(id);
    if (id !== entry.id) {
      renamed = [
        ...renamed.slice(0, position),
        ...renameCase(renamed.slice(position), entry.id, id),
      ];
    }
  }
  return { ...suite, cases: [...suite.cases, ...renamed] };
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
