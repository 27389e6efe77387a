import type Database from 'better-sqlite3';
import type { Suite } from '@/domain/suite';
import type { Actor } from '@/domain/suite-run';
import * as stored from './suite-rows';
import type { SuiteStore, SuiteWrite } from './suite-store';

/** QA suites and runs in the portal's SQLite file (decision 038). */
export function createSqliteSuiteStore(db: Database.Database): SuiteStore {
  const statements = {
    list: db.prepare<[], stored.SuiteRow>(
      `SELECT ${stored.suiteColumns}
       FROM suites ORDER BY name_key`,
    ),
    latest: db.prepare<[number], stored.SuiteRow>(
      `SELECT ${stored.suiteColumns}
       FROM suites WHERE id = ?`,
    ),
    version: db.prepare<[number, number], stored.VersionRow & { body: string }>(
      `SELECT version, name, case_count, saved_at, saved_by_id, saved_by_email, body
       FROM suite_versions WHERE suite_id = ? AND version = ?`,
    ),
    byName: db.prepare<[string], { id: number }>('SELECT id FROM suites WHERE name_key = ?'),
    insertSuite: db.prepare<ReturnType<typeof stored.newSuiteValues>>(
      `INSERT INTO suites (name, name_key, version, case_count, created_at, updated_at, updated_by_id, updated_by_email)
       VALUES (?, ?, 1, ?, ?, ?, ?, ?)`,
    ),
    updateSuite: db.prepare<ReturnType<typeof stored.suiteUpdateValues>>(
      `UPDATE suites SET name = ?, name_key = ?, version = ?, case_count = ?, updated_at = ?,
         updated_by_id = ?, updated_by_email = ? WHERE id = ?`,
    ),
    insertVersion: db.prepare<ReturnType<typeof stored.versionValues>>(
      `INSERT INTO suite_versions (suite_id, version, name, body, case_count, saved_at, saved_by_id, saved_by_email)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
    ),
    deleteSuite: db.prepare<[number]>('DELETE FROM suites WHERE id = ?'),
    deleteVersions: db.prepare<[number]>('DELETE FROM suite_versions WHERE suite_id = ?'),
    deleteRuns: db.prepare<[number]>('DELETE FROM suite_runs WHERE suite_id = ?'),
    deleteScheduleRuns: db.prepare<[number]>(
      'DELETE FROM suite_schedule_runs WHERE schedule_id IN (SELECT id FROM suite_schedules WHERE suite_id = ?)',
    ),
    deleteSchedules: db.prepare<[number]>('DELETE FROM suite_schedules WHERE suite_id = ?'),
    versions: db.prepare<[number], stored.VersionRow>(
      `SELECT version, name, case_count, saved_at, saved_by_id, saved_by_email
       FROM suite_versions WHERE suite_id = ? ORDER BY version DESC`,
    ),
    insertRun: db.prepare<ReturnType<typeof stored.newRunValues>>(
      `INSERT INTO suite_runs (suite_id, suite_name, suite_version, connection, client_org_id,
         vendor_org_id, run_token, status, started_at, heartbeat_at, started_by_id, started_by_email,
         cases_total, cases_done, passed, failed, batches, cases)
       VALUES (?, ?, ?, ?, ?, ?, ?, 'running', ?, ?, ?, ?, ?, 0, 0, 0, 0, '[]')`,
    ),
    progress: db.prepare<ReturnType<typeof stored.progressValues>>(
      `UPDATE suite_runs SET cases_done = ?, passed = ?, failed = ?, batches = ?, cases = ?,
         heartbeat_at = ? WHERE id = ? AND status = 'running'`,
    ),
    end: db.prepare<ReturnType<typeof stored.endValues>>(
      `UPDATE suite_runs SET status = ?, finished_at = ?, cases_done = ?, passed = ?, failed = ?,
         batches = ?, cases = ?, heartbeat_at = ?, interruption = ?, previous_run_id = ?, verdicts = ?
       WHERE id = ? AND status = 'running'`,
    ),
    getRun: db.prepare<[number], stored.RunRowWithCases>(
      `SELECT ${stored.runSummaryColumns}, cases FROM suite_runs WHERE id = ?`,
    ),
    runsOf: db.prepare<[number, number], stored.RunRow>(
      `SELECT ${stored.runSummaryColumns} FROM suite_runs WHERE suite_id = ? ORDER BY id DESC LIMIT ?`,
    ),
    runsOfFiles: db.prepare<[number], stored.RunRow>(
      `SELECT ${stored.runSummaryColumns} FROM suite_runs WHERE suite_id IS NULL ORDER BY id DESC LIMIT ?`,
    ),
    runs: db.prepare<[number], stored.RunRow>(
      `SELECT ${stored.runSummaryColumns} FROM suite_runs ORDER BY id DESC LIMIT ?`,
    ),
    latestRuns: db.prepare<[], stored.RunRow>(
      `SELECT ${stored.runSummaryColumns} FROM suite_runs
       WHERE id IN (SELECT max(id) FROM suite_runs WHERE suite_id IS NOT NULL GROUP BY suite_id)`,
    ),
    state: db.prepare<[number], { casesDone: number; status: string }>(
      'SELECT cases_done AS casesDone, status FROM suite_runs WHERE id = ?',
    ),
    previousOfSuite: db.prepare<[number, string, number], { id: number; cases: string }>(
      `SELECT id, cases FROM suite_runs
       WHERE suite_id = ? AND connection = ? AND id < ? AND status = 'finished'
       ORDER BY id DESC LIMIT 1`,
    ),
    previousOfFile: db.prepare<[string, string, number], { id: number; cases: string }>(
      `SELECT id, cases FROM suite_runs
       WHERE suite_id IS NULL AND suite_name = ? AND connection = ? AND id < ? AND status = 'finished'
       ORDER BY id DESC LIMIT 1`,
    ),
    interruptStale: db.prepare<[string, number, number]>(
      `UPDATE suite_runs SET status = 'interrupted', interruption = ?, finished_at = ?
       WHERE status = 'running' AND heartbeat_at < ?`,
    ),
    hasRunning: db.prepare<[number], { one: number }>(
      `SELECT 1 AS one FROM suite_runs WHERE suite_id = ? AND status = 'running' LIMIT 1`,
    ),
  };

  const byKey = (name: string) => statements.byName.get(stored.nameKey(name))?.id;

  const create = db.transaction((suite: Suite, by: Actor, now: number): SuiteWrite => {
    const taken = byKey(suite.name);
    if (taken !== undefined) return { kind: 'name_taken', id: taken };
    const id = Number(
      statements.insertSuite.run(...stored.newSuiteValues(suite, by, now)).lastInsertRowid,
    );
    statements.insertVersion.run(...stored.versionValues({ id, version: 1, suite, by, now }));
    return { kind: 'saved', id, version: 1 };
  });

  const save = db.transaction(
    (id: number, baseVersion: number, suite: Suite, by: Actor, now: number): SuiteWrite => {
      const current = statements.latest.get(id);
      if (!current) return { kind: 'missing' };
      if (current.version !== baseVersion)
        return { kind: 'conflict', latestVersion: current.version };
      const taken = byKey(suite.name);
      if (taken !== undefined && taken !== id) return { kind: 'name_taken', id: taken };
      const version = current.version + 1;
      const saved = { id, version, suite, by, now };
      statements.updateSuite.run(...stored.suiteUpdateValues(saved));
      statements.insertVersion.run(...stored.versionValues(saved));
      return { kind: 'saved', id, version };
    },
  );

  const remove = db.transaction((id: number): boolean => {
    const deleted = statements.deleteSuite.run(id).changes > 0;
    statements.deleteVersions.run(id);
    statements.deleteRuns.run(id);
    statements.deleteScheduleRuns.run(id);
    statements.deleteSchedules.run(id);
    return deleted;
  });

  return {
    async listSuites() {
      return statements.list.all().map(stored.toSuiteListRow);
    },
    async getSuite(id, version) {
      const latest = statements.latest.get(id);
      if (!latest) return undefined;
      const row = statements.version.get(id, version ?? latest.version);
      return row ? stored.toSuiteRecord(id, row, latest.version) : undefined;
    },
    async suiteIdByName(name) {
      return byKey(name);
    },
    async createSuite(suite, by, now) {
      return create(suite, by, now);
    },
    async saveSuite(id, baseVersion, suite, by, now) {
      return save(id, baseVersion, suite, by, now);
    },
    async deleteSuite(id) {
      return remove(id);
    },
    async suiteVersions(id) {
      return statements.versions.all(id).map(stored.toVersion);
    },
    async createRun(run) {
      return Number(statements.insertRun.run(...stored.newRunValues(run)).lastInsertRowid);
    },
    async writeProgress(id, progress) {
      statements.progress.run(...stored.progressValues(id, progress));
    },
    async endRun(id, end) {
      return statements.end.run(...stored.endValues(id, end)).changes > 0;
    },
    async heartbeat(ids, now) {
      if (ids.length === 0) return;
      db.prepare(
        `UPDATE suite_runs SET heartbeat_at = ? WHERE status = 'running' AND id IN (${ids.map(() => '?').join(', ')})`,
      ).run(now, ...ids);
    },
    async getRun(id) {
      const row = statements.getRun.get(id);
      return row ? stored.toRun(row) : undefined;
    },
    async runState(id) {
      return statements.state.get(id);
    },
    async listRuns({ suiteId, limit }) {
      const rows =
        suiteId === undefined
          ? statements.runs.all(limit)
          : suiteId === null
            ? statements.runsOfFiles.all(limit)
            : statements.runsOf.all(suiteId, limit);
      return rows.map(stored.toRunSummary);
    },
    async latestRuns() {
      return new Map(
        statements.latestRuns.all().map((row) => [row.suite_id ?? 0, stored.toRunSummary(row)]),
      );
    },
    async previousRun({ id, suiteId, suiteName, connection }) {
      const row =
        suiteId === null
          ? statements.previousOfFile.get(suiteName, connection, id)
          : statements.previousOfSuite.get(suiteId, connection, id);
      return row ? stored.toPreviousRun(row) : undefined;
    },
    async interruptStale(before, reason, now) {
      return statements.interruptStale.run(reason, now, before).changes;
    },
    async hasRunning(suiteId) {
      return statements.hasRunning.get(suiteId) !== undefined;
    },
  };
}
