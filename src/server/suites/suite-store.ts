import type { Suite } from '@/domain/suite';
import {
  type Actor,
  type CaseResult,
  type SuiteRun,
  type SuiteRunStatus,
  type SuiteRunSummary,
  type SuiteVersion,
} from '@/domain/suite-run';

/**
 * Where QA suites and their runs are kept (decision 038): the portal database, SQLite or
 * PostgreSQL (decision 027), behind one asynchronous interface. Times are milliseconds since the
 * epoch; what it returns is in the API's terms (ISO times, parsed results).
 */

/** A stored suite as the list shows it. */
export interface SuiteListRow {
  id: number;
  name: string;
  version: number;
  caseCount: number;
  updatedAt: number;
  updatedBy: Actor;
}

/** One version of a stored suite. */
export interface SuiteRecord {
  id: number;
  name: string;
  version: number;
  latestVersion: number;
  savedAt: number;
  savedBy: Actor;
  /** The suite file, as saved (JSON text). */
  body: string;
}

export type SuiteWrite =
  | { kind: 'saved'; id: number; version: number }
  /** Another version was saved since `baseVersion`: nothing was written. */
  | { kind: 'conflict'; latestVersion: number }
  /** Another suite has that name (without regard to case). */
  | { kind: 'name_taken'; id: number }
  | { kind: 'missing' };

/** A run as it starts. */
export interface NewRun {
  suiteId: number | null;
  suiteName: string;
  suiteVersion: number | null;
  connection: string;
  clientOrgId: number;
  vendorOrgId: number;
  runToken: string;
  startedAt: number;
  startedBy: Actor;
  casesTotal: number;
}

/** How far a run has come. */
export interface RunProgressWrite {
  cases: CaseResult[];
  batches: number;
  at: number;
}

/** How a run ended: every case done, or interrupted with the cases done by then. */
export interface RunEnd extends RunProgressWrite {
  status: Exclude<SuiteRunStatus, 'running'>;
  interruption: string | null;
  previousRunId: number | null;
}

export interface SuiteStore {
  listSuites(): Promise<SuiteListRow[]>;
  /** A version of a suite (its latest when `version` is absent). */
  getSuite(id: number, version?: number): Promise<SuiteRecord | undefined>;
  suiteIdByName(name: string): Promise<number | undefined>;
  createSuite(suite: Suite, by: Actor, now: number): Promise<SuiteWrite>;
  /** A new version, when `baseVersion` is still the latest. */
  saveSuite(
    id: number,
    baseVersion: number,
    suite: Suite,
    by: Actor,
    now: number,
  ): Promise<SuiteWrite>;
  /** The suite, its versions and its runs; false when there was none. */
  deleteSuite(id: number): Promise<boolean>;
  /** Every version, the newest first. */
  suiteVersions(id: number): Promise<SuiteVersion[]>;

  createRun(run: NewRun): Promise<number>;
  /** Progress of a running run (also renews its heartbeat). */
  writeProgress(id: number, progress: RunProgressWrite): Promise<void>;
  /** Ends a run still running; false when it no longer was (marked interrupted meanwhile). */
  endRun(id: number, end: RunEnd): Promise<boolean>;
  /** Renews the heartbeat of runs this process is running. */
  heartbeat(ids: readonly number[], now: number): Promise<void>;
  getRun(id: number): Promise<SuiteRun | undefined>;
  /** How far a run is, without its cases: what a wait for progress reads again and again. */
  runState(id: number): Promise<{ casesDone: number; status: string } | undefined>;
  /** Runs, the newest first: a suite's, or every one. */
  /** The latest runs: of one stored suite, of suite files (`suiteId` null), or of all. */
  listRuns(filter: { suiteId?: number | null; limit: number }): Promise<SuiteRunSummary[]>;
  /** Each stored suite's latest run. */
  latestRuns(): Promise<Map<number, SuiteRunSummary>>;
  /**
   * The run `run` is compared with: the latest finished one before it of the same suite (a
   * stored suite by id, a file by its name) on the same connection.
   */
  previousRun(run: {
    id: number;
    suiteId: number | null;
    suiteName: string;
    connection: string;
  }): Promise<PreviousRun | undefined>;
  /** Marks interrupted the runs still `running` whose heartbeat is older than `before`. */
  interruptStale(before: number, reason: string, now: number): Promise<number>;
  /** Whether the suite has a run in progress. */
  hasRunning(suiteId: number): Promise<boolean>;
}

/** What a run is compared with: an earlier run's id and whether each of its cases passed. */
export interface PreviousRun {
  id: number;
  cases: { id: string; passed: boolean }[];
}
