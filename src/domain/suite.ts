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

const placeholder = /\{\{\s*([A-Za-z0-9.-]+)\s*\}\}/g;

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

/** One batch a run sends: cases of one kind, in the suite's order. */
export interface PlannedBatch {
  kind: PayloadKind;
  /** Indexes into the suite's cases. */
  cases: number[];
}

/**
 * The batches a run sends, in waves: a wave's batches go out together, and the next wave waits
 * for their results. A case goes in the earliest wave after every case it refers to
 * (`{{<case>.createdId}}` is known only once that case's results are in), and never before an
 * earlier case of its own kind, so each kind's cases reach the VMS in the suite's order. A wave
 * holds one batch per kind (more only past `maxBatch` items). Cases of the two kinds keep no
 * order between them beyond their references: a case that relies on what an earlier case of the
 * other kind did says so with a reference.
 *
 * Then, fewer batches: the cases of one kind in a wave move to the kind's next wave when no case
 * that refers to them would then come too early, so independent cases of a kind share a batch
 * with later ones instead of making one of their own.
 */
export function planRun(
  cases: readonly SuiteCase[],
  maxBatch = Number.POSITIVE_INFINITY,
): PlannedBatch[][] {
  const indexOf = new Map(cases.map((entry, index) => [entry.id, index]));
  const refs = cases.map((entry, index) =>
    [...referencesOf(entry.item)].flatMap((ref) => {
      const at = indexOf.get(ref);
      return at !== undefined && at < index ? [at] : [];
    }),
  );
  const dependents = cases.map(() => [] as number[]);
  refs.forEach((list, index) => list.forEach((ref) => dependents[ref]?.push(index)));

  const wave: number[] = [];
  const lastOfKind = new Map<PayloadKind, number>();
  cases.forEach((entry, index) => {
    const before = lastOfKind.get(entry.kind);
    let earliest = before === undefined ? 0 : (wave[before] ?? 0);
    for (const ref of refs[index] ?? []) earliest = Math.max(earliest, (wave[ref] ?? 0) + 1);
    wave[index] = earliest;
    lastOfKind.set(entry.kind, index);
  });

  // Merge each kind's wave groups into its next one while every dependent stays after them.
  for (let changed = true; changed;) {
    changed = false;
    for (const kind of payloadKinds) {
      const waves = [
        ...new Set(
          cases.flatMap((entry, index) => (entry.kind === kind ? [wave[index] ?? 0] : [])),
        ),
      ].sort((a, b) => a - b);
      for (let at = waves.length - 2; at >= 0; at -= 1) {
        const from = waves[at] ?? 0;
        const to = waves[at + 1] ?? 0;
        const group = cases.flatMap((entry, index) =>
          entry.kind === kind && wave[index] === from ? [index] : [],
        );
        const movable = group.every((index) =>
          (dependents[index] ?? []).every((dependent) => (wave[dependent] ?? 0) > to),
        );
        if (!movable) continue;
        for (const index of group) wave[index] = to;
        waves.splice(at, 1);
        changed = true;
      }
    }
  }

  const used = [...new Set(wave)].sort((a, b) => a - b);
  return used.map((number) =>
    payloadKinds.flatMap((kind) => {
      const members = cases.flatMap((entry, index) =>
        entry.kind === kind && wave[index] === number ? [index] : [],
      );
      const batches: PlannedBatch[] = [];
      for (let start = 0; start < members.length; start += maxBatch) {
        batches.push({ kind, cases: members.slice(start, start + maxBatch) });
      }
      return batches;
    }),
  );
}

/** What a run knows of a batch's results when it decides when to read them again. */
export interface ResultsSoFar {
  /** Reads made so far. */
  polls: number;
  /** Since the batch was accepted. */
  elapsedMs: number;
  /** Rows no longer Pending at the last read, of `total`. */
  settled: number;
  total: number;
  /** The read before the last: its pace is the VMS's now, without its start. */
  before?: { elapsedMs: number; settled: number };
}

/**
 * How long a run waits before reading a batch's results again. Once the VMS is settling rows,
 * when it will have settled the rest at its pace between the last two reads (a little more):
 * so a batch is seen finished soon after it is, in few reads, however long it takes. Before
 * that, 25 ms, a quarter longer after each read. Never longer than the batch has taken so far
 * (a pace read early may be off), never less than 25 ms or more than a second, so the run's
 * progress moves at least once a second.
 */
export function resultsPollDelay(so: ResultsSoFar): number {
  const backoff = Math.min(1000, Math.round(25 * 1.25 ** Math.max(0, so.polls)));
  const since = so.before ?? { elapsedMs: 0, settled: 0 };
  const moved = so.settled - since.settled;
  const took = so.elapsedMs - since.elapsedMs;
  if (moved <= 0 || took <= 0 || so.settled >= so.total) return backoff;
  const left = ((so.total - so.settled) * took) / moved;
  const bound = Math.min(1000, Math.max(backoff, so.elapsedMs));
  return Math.max(25, Math.min(bound, Math.round(left * 1.05 + 5)));
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
