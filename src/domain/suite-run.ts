import { z } from 'zod';
import { payloadKinds } from './payload-kind';
import { suiteCaseSchema, suiteSchema } from './suite-cases';

/**
 * QA suites kept on the portal server and their runs (decision 038): the HTTP shapes the server
 * answers with and the browser and `npm run suite` read, and how a run compares with the one
 * before it. Pure: no storage, no HTTP.
 */

/** Who did something: their id and e-mail as they were then; null with sign-in off. */
export const actorSchema = z.object({ userId: z.string(), email: z.string() }).nullable();
export type Actor = z.infer<typeof actorSchema>;

/**
 * A case's result against the run before it (the same suite on the same connection):
 * - `newly-failing`: it passed then and fails now, what a release broke;
 * - `fixed`: it failed then and passes now;
 * - `still-failing`, `passing`: as before;
 * - `new`: the earlier run had no result for it (a case added since, or none ran before).
 */
export const caseVerdicts = ['newly-failing', 'fixed', 'still-failing', 'passing', 'new'] as const;
export type CaseVerdict = (typeof caseVerdicts)[number];

export const caseVerdictLabels: Record<CaseVerdict, string> = {
  'newly-failing': 'Newly failing',
  fixed: 'Fixed',
  'still-failing': 'Still failing',
  passing: 'Passing',
  new: 'New case',
};

/** The verdict of one case, from whether it passed now and its result in the earlier run. */
export function caseVerdict(passed: boolean, before: { passed: boolean } | undefined): CaseVerdict {
  if (before === undefined) return 'new';
  if (passed) return before.passed ? 'passing' : 'fixed';
  return before.passed ? 'newly-failing' : 'still-failing';
}

/** Each case of `current` against the earlier run's results, matched by case id. */
export function compareRuns(
  current: readonly { id: string; passed: boolean }[],
  previous: readonly { id: string; passed: boolean }[] | null,
): CaseVerdict[] {
  const before = new Map((previous ?? []).map((entry) => [entry.id, entry]));
  return current.map((entry) => caseVerdict(entry.passed, before.get(entry.id)));
}

/** What the VMS gave a case's item. */
export const caseOutcomeSchema = z.object({
  status: z.string(),
  message: z.string(),
  createdId: z.string(),
});

/** One case of a run: what it expected beside what came, and against the run before. */
export const caseResultSchema = z.object({
  id: z.string(),
  name: z.string(),
  kind: z.enum(payloadKinds),
  passed: z.boolean(),
  expected: suiteCaseSchema.shape.expect,
  /** Null when no answer came for it (its batch refused, no row). */
  actual: caseOutcomeSchema.nullable(),
  /** Why it failed, in words; null when it passed. */
  failure: z.string().nullable(),
  batchId: z.string().nullable(),
  /** From sending its batch to having its result. */
  durationMs: z.number().nonnegative(),
  /** Null until the run is over and compared. */
  verdict: z.enum(caseVerdicts).nullable(),
});
export type CaseResult = z.infer<typeof caseResultSchema>;

/**
 * `running` while it goes; `finished` when every case has its result; `interrupted` when the
 * portal stopped (a restart, a crash) before then: the cases done so far are kept, the rest did
 * not run.
 */
export const suiteRunStatuses = ['running', 'finished', 'interrupted'] as const;
export type SuiteRunStatus = (typeof suiteRunStatuses)[number];

/**
 * A run's page in the portal: under its stored suite, or `/suites/runs/<id>`, which opens any run
 * and is the only address of a suite file's run (it has no stored suite).
 */
export function suiteRunPath(runId: number, suiteId: number | null = null): string {
  return suiteId === null ? `/suites/runs/${runId}` : `/suites/${suiteId}/runs/${runId}`;
}

/** A run as lists show it. */
export const suiteRunSummarySchema = z.object({
  id: z.number().int().positive(),
  /** The stored suite; null for a suite file sent with the run (`npm run suite` with a file). */
  suiteId: z.number().int().positive().nullable(),
  suiteName: z.string(),
  /** The stored suite's version that ran; null for a file. */
  suiteVersion: z.number().int().positive().nullable(),
  connection: z.string(),
  clientOrgId: z.number().int(),
  vendorOrgId: z.number().int(),
  /** The run's `{{run.id}}`: in the values it sent (client internal reqs, e-mails). */
  runToken: z.string(),
  status: z.enum(suiteRunStatuses),
  startedBy: actorSchema,
  startedAt: z.iso.datetime(),
  finishedAt: z.iso.datetime().nullable(),
  durationMs: z.number().nonnegative().nullable(),
  casesTotal: z.number().int().nonnegative(),
  casesDone: z.number().int().nonnegative(),
  passed: z.number().int().nonnegative(),
  failed: z.number().int().nonnegative(),
  /** Batches sent so far. */
  batches: z.number().int().nonnegative(),
  /** The run this one is compared with; null when there was none. */
  previousRunId: z.number().int().positive().nullable(),
  /** Why it stopped before the end, for an interrupted run. */
  interruption: z.string().nullable(),
  /** Cases per verdict, once compared (every verdict present, 0 when none). */
  verdicts: z.record(z.enum(caseVerdicts), z.number().int().nonnegative()).nullable(),
});
export type SuiteRunSummary = z.infer<typeof suiteRunSummarySchema>;

/** `GET /api/suite-runs/:id`: the run with each case done so far. The JSON report. */
export const suiteRunSchema = suiteRunSummarySchema.extend({
  cases: z.array(caseResultSchema),
});
export type SuiteRun = z.infer<typeof suiteRunSchema>;

export const suiteRunListSchema = z.object({ runs: z.array(suiteRunSummarySchema) });

/** Cases per verdict, every verdict present. */
export function verdictCounts(
  verdicts: readonly (CaseVerdict | null)[],
): Record<CaseVerdict, number> {
  const counts = Object.fromEntries(caseVerdicts.map((verdict) => [verdict, 0])) as Record<
    CaseVerdict,
    number
  >;
  for (const verdict of verdicts) if (verdict !== null) counts[verdict] += 1;
  return counts;
}

/**
 * `POST /api/suite-runs`: what to run, and where. One of `suiteId` (a stored suite), `suiteName`
 * (a stored suite by name, as `npm run suite` names it) or `suite` (a suite file's content).
 */
export const startRunSchema = z
  .object({
    suiteId: z.number().int().positive().optional(),
    suiteName: z.string().min(1).max(200).optional(),
    /** A stored suite's version; its latest when absent. */
    version: z.number().int().positive().optional(),
    suite: z.unknown().optional(),
    /** The connection to run on; the deployment's default when absent. */
    connection: z.string().min(1).max(40).optional(),
    /** The client org the batches are sent for; the first the connection and the user share. */
    clientOrgId: z.number().int().positive().optional(),
  })
  .strict()
  .refine(
    (body) =>
      [body.suiteId, body.suiteName, body.suite].filter((value) => value !== undefined).length ===
      1,
    { message: 'say what to run: one of suiteId, suiteName or suite' },
  );
export type StartRun = z.infer<typeof startRunSchema>;

/** A stored suite as the list shows it. */
export const suiteSummarySchema = z.object({
  id: z.number().int().positive(),
  name: z.string(),
  version: z.number().int().positive(),
  caseCount: z.number().int().nonnegative(),
  updatedAt: z.iso.datetime(),
  updatedBy: actorSchema,
  /** Its latest run on any connection, if any. */
  lastRun: suiteRunSummarySchema.nullable(),
});
export type SuiteSummary = z.infer<typeof suiteSummarySchema>;
export const suiteListSchema = z.object({ suites: z.array(suiteSummarySchema) });

/** `GET /api/suites/:id[?version=]`: one version of a stored suite, its file as it is. */
export const suiteDetailSchema = z.object({
  id: z.number().int().positive(),
  name: z.string(),
  /** The version shown. */
  version: z.number().int().positive(),
  /** The suite's newest version: an edit is based on it. */
  latestVersion: z.number().int().positive(),
  savedAt: z.iso.datetime(),
  savedBy: actorSchema,
  suite: suiteSchema,
});
export type SuiteDetail = z.infer<typeof suiteDetailSchema>;

export const suiteVersionSchema = z.object({
  version: z.number().int().positive(),
  name: z.string(),
  caseCount: z.number().int().nonnegative(),
  savedAt: z.iso.datetime(),
  savedBy: actorSchema,
});
export type SuiteVersion = z.infer<typeof suiteVersionSchema>;
export const suiteVersionListSchema = z.object({ versions: z.array(suiteVersionSchema) });

/** `PUT /api/suites/:id`: a new version, made from the version the editor started from. */
export const updateSuiteSchema = z
  .object({ baseVersion: z.number().int().positive(), suite: z.unknown() })
  .strict();

/** `POST /api/suites/:id/cases`: cases added at the end (a new version). */
export const addCasesSchema = z.object({ cases: z.array(z.unknown()).min(1).max(5000) }).strict();

/** `POST /api/suites`: a new suite from its file (an import, or the first cases saved). */
export const createSuiteSchema = z.object({ suite: z.unknown() }).strict();
