import { z } from 'zod';
import type { Suite } from '@/domain/suite';
import {
  caseResultSchema,
  caseVerdicts,
  suiteRunStatuses,
  verdictCounts,
  type Actor,
  type CaseResult,
  type CaseVerdict,
  type SuiteRun,
  type SuiteRunSummary,
  type SuiteVersion,
} from '@/domain/suite-run';
import type {
  NewRun,
  PreviousRun,
  RunEnd,
  RunProgressWrite,
  SuiteListRow,
  SuiteRecord,
} from './suite-store';

/*
 * How both suite stores write and read their rows: the columns, the values of each statement in
 * their order, and each row read back as the domain's shape. The SQLite and PostgreSQL stores
 * differ only in their SQL and how they run it; what goes in and comes out is written here once.
 */

/**
 * Only each case's id and whether it passed, read without a schema's full parse: the run's
 * results were written by this store, and a comparison needs no more of them.
 */
export function toPreviousRun(row: { id: number; cases: string }): PreviousRun {
  const read: unknown = JSON.parse(row.cases);
  const cases = (Array.isArray(read) ? read : []).flatMap((entry: unknown) => {
    const id: unknown = typeof entry === 'object' && entry ? Reflect.get(entry, 'id') : undefined;
    const passed: unknown =
      typeof entry === 'object' && entry ? Reflect.get(entry, 'passed') : undefined;
    return typeof id === 'string' && typeof passed === 'boolean' ? [{ id, passed }] : [];
  });
  return { id: row.id, cases };
}

/** Lowercased and trimmed: names are unique by this key. */
export const nameKey = (name: string) => name.trim().toLowerCase();

/** Counts and verdicts of a run's cases. */
function tally(cases: readonly CaseResult[]) {
  const passed = cases.filter((entry) => entry.passed).length;
  return { casesDone: cases.length, passed, failed: cases.length - passed };
}

export interface RunRow {
  id: number;
  suite_id: number | null;
  suite_name: string;
  suite_version: number | null;
  connection: string;
  client_org_id: number;
  vendor_org_id: number;
  run_token: string;
  status: string;
  started_at: number;
  finished_at: number | null;
  started_by_id: string | null;
  started_by_email: string | null;
  cases_total: number;
  cases_done: number;
  passed: number;
  failed: number;
  batches: number;
  previous_run_id: number | null;
  interruption: string | null;
  verdicts: string | null;
}

export interface RunRowWithCases extends RunRow {
  cases: string;
}

/** A suite's row as both databases keep it. */
export interface SuiteRow {
  id: number;
  name: string;
  version: number;
  case_count: number;
  updated_at: number;
  updated_by_id: string | null;
  updated_by_email: string | null;
}

export const suiteColumns =
  'id, name, version, case_count, updated_at, updated_by_id, updated_by_email';

/**
 * The values each store's statements take, in the order of their placeholders: the two
 * databases' SQL differs (placeholders, ids returned), what it is given does not.
 */
type ActorValues = [id: string | null, email: string | null];

const actorValues = (by: Actor): ActorValues => [by?.userId ?? null, by?.email ?? null];

/** `INSERT INTO suites`: name, name_key, case_count, created_at, updated_at, updated_by_*. */
export function newSuiteValues(
  suite: Suite,
  by: Actor,
  now: number,
): [string, string, number, number, number, ...ActorValues] {
  return [suite.name, nameKey(suite.name), suite.cases.length, now, now, ...actorValues(by)];
}

/** A version of suite `id` being saved: what it holds, who saved it and when. */
export interface SavedVersion {
  id: number;
  version: number;
  suite: Suite;
  by: Actor;
  now: number;
}

/** `UPDATE suites`: name, name_key, version, case_count, updated_at, updated_by_*, then the id. */
export function suiteUpdateValues({
  id,
  version,
  suite,
  by,
  now,
}: SavedVersion): [string, string, number, number, number, ...ActorValues, number] {
  return [
    suite.name,
    nameKey(suite.name),
    version,
    suite.cases.length,
    now,
    ...actorValues(by),
    id,
  ];
}

/** `INSERT INTO suite_versions`: suite_id, version, name, body, case_count, saved_at, saved_by_*. */
export function versionValues({
  id,
  version,
  suite,
  by,
  now,
}: SavedVersion): [number, number, string, string, number, number, ...ActorValues] {
  return [
    id,
    version,
    suite.name,
    JSON.stringify(suite),
    suite.cases.length,
    now,
    ...actorValues(by),
  ];
}

/**
 * `INSERT INTO suite_runs`: suite_id, suite_name, suite_version, connection, client_org_id,
 * vendor_org_id, run_token, started_at, heartbeat_at, started_by_*, cases_total.
 */
export function newRunValues(
  run: NewRun,
): [
  number | null,
  string,
  number | null,
  string,
  number,
  number,
  string,
  number,
  number,
  ...ActorValues,
  number,
] {
  return [
    run.suiteId,
    run.suiteName,
    run.suiteVersion,
    run.connection,
    run.clientOrgId,
    run.vendorOrgId,
    run.runToken,
    run.startedAt,
    run.startedAt,
    ...actorValues(run.startedBy),
    run.casesTotal,
  ];
}

/** A running run's progress: cases_done, passed, failed, batches, cases, heartbeat_at, then the id. */
export function progressValues(
  id: number,
  progress: RunProgressWrite,
): [number, number, number, number, string, number, number] {
  const { casesDone, passed, failed } = tally(progress.cases);
  return [
    casesDone,
    passed,
    failed,
    progress.batches,
    JSON.stringify(progress.cases),
    progress.at,
    id,
  ];
}

/**
 * A run's end: status, finished_at, cases_done, passed, failed, batches, cases, heartbeat_at,
 * interruption, previous_run_id, verdicts (only when every case was compared), then the id.
 */
export function endValues(
  id: number,
  end: RunEnd,
): [
  string,
  number,
  number,
  number,
  number,
  number,
  string,
  number,
  string | null,
  number | null,
  string | null,
  number,
] {
  const { casesDone, passed, failed } = tally(end.cases);
  const compared = end.cases.every((entry) => entry.verdict !== null);
  return [
    end.status,
    end.at,
    casesDone,
    passed,
    failed,
    end.batches,
    JSON.stringify(end.cases),
    end.at,
    end.interruption,
    end.previousRunId,
    compared ? JSON.stringify(verdictCounts(end.cases.map((entry) => entry.verdict))) : null,
    id,
  ];
}

export function toSuiteListRow(row: SuiteRow): SuiteListRow {
  return {
    id: row.id,
    name: row.name,
    version: row.version,
    caseCount: row.case_count,
    updatedAt: row.updated_at,
    updatedBy: actorOf(row.updated_by_id, row.updated_by_email),
  };
}

/** A version of suite `id` as read, with the suite's latest version number. */
export function toSuiteRecord(
  id: number,
  row: VersionRow & { body: string },
  latestVersion: number,
): SuiteRecord {
  return {
    id,
    name: row.name,
    version: row.version,
    latestVersion,
    savedAt: row.saved_at,
    savedBy: actorOf(row.saved_by_id, row.saved_by_email),
    body: row.body,
  };
}

export const runSummaryColumns = `id, suite_id, suite_name, suite_version, connection, client_org_id,
  vendor_org_id, run_token, status, started_at, finished_at, started_by_id, started_by_email,
  cases_total, cases_done, passed, failed, batches, previous_run_id, interruption, verdicts`;

const verdictCountsSchema = z.record(z.enum(caseVerdicts), z.number().int().nonnegative());

export function actorOf(id: string | null, email: string | null): Actor {
  return id === null ? null : { userId: id, email: email ?? '' };
}

export function toRunSummary(row: RunRow): SuiteRunSummary {
  const verdicts =
    row.verdicts === null ? null : verdictCountsSchema.safeParse(JSON.parse(row.verdicts));
  return {
    id: row.id,
    suiteId: row.suite_id,
    suiteName: row.suite_name,
    suiteVersion: row.suite_version,
    connection: row.connection,
    clientOrgId: row.client_org_id,
    vendorOrgId: row.vendor_org_id,
    runToken: row.run_token,
    status: suiteRunStatuses.find((status) => status === row.status) ?? 'interrupted',
    startedBy: actorOf(row.started_by_id, row.started_by_email),
    startedAt: new Date(row.started_at).toISOString(),
    finishedAt: row.finished_at === null ? null : new Date(row.finished_at).toISOString(),
    durationMs: row.finished_at === null ? null : row.finished_at - row.started_at,
    casesTotal: row.cases_total,
    casesDone: row.cases_done,
    passed: row.passed,
    failed: row.failed,
    batches: row.batches,
    previousRunId: row.previous_run_id,
    interruption: row.interruption,
    verdicts: verdicts?.success ? (verdicts.data as Record<CaseVerdict, number>) : null,
  };
}

export function toRun(row: RunRowWithCases): SuiteRun {
  return {
    ...toRunSummary(row),
    cases: z.array(caseResultSchema).parse(JSON.parse(row.cases)),
  };
}

export interface VersionRow {
  version: number;
  name: string;
  case_count: number;
  saved_at: number;
  saved_by_id: string | null;
  saved_by_email: string | null;
}

export function toVersion(row: VersionRow): SuiteVersion {
  return {
    version: row.version,
    name: row.name,
    caseCount: row.case_count,
    savedAt: new Date(row.saved_at).toISOString(),
    savedBy: actorOf(row.saved_by_id, row.saved_by_email),
  };
}
