import { inTransaction, type PortalPool, type Queryable } from '@/server/store/postgres/pool';
import * as stored from './suite-rows';
import type { SuiteStore, SuiteWrite } from './suite-store';

/**
 * QA suites and runs in PostgreSQL (decision 038), for portals that share one database. A write
 * to a suite locks its row (or, for a new one, its name), so two processes saving the same suite
 * at once make one version each in turn, or one conflict.
 */
export function createPostgresSuiteStore(pool: PortalPool): SuiteStore {
  async function idByName(db: Queryable, name: string): Promise<number | undefined> {
    const { rows } = await db.query<{ id: number }>('SELECT id FROM suites WHERE name_key = $1', [
      stored.nameKey(name),
    ]);
    return rows[0]?.id;
  }

  async function insertVersion(db: Queryable, saved: stored.SavedVersion): Promise<void> {
    await db.query(
      `INSERT INTO suite_versions (suite_id, version, name, body, case_count, saved_at, saved_by_id, saved_by_email)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
      stored.versionValues(saved),
    );
  }

  return {
    async listSuites() {
      const { rows } = await pool.query<stored.SuiteRow>(
        `SELECT ${stored.suiteColumns} FROM suites ORDER BY name_key`,
      );
      return rows.map(stored.toSuiteListRow);
    },
    async getSuite(id, version) {
      const { rows } = await pool.query<stored.VersionRow & { body: string; latest: number }>(
        `SELECT v.version, v.name, v.case_count, v.saved_at, v.saved_by_id, v.saved_by_email, v.body,
           s.version AS latest
         FROM suites s JOIN suite_versions v ON v.suite_id = s.id
         WHERE s.id = $1 AND v.version = coalesce($2::integer, s.version)`,
        [id, version ?? null],
      );
      const row = rows[0];
      return row ? stored.toSuiteRecord(id, row, row.latest) : undefined;
    },
    async suiteIdByName(name) {
      return idByName(pool, name);
    },
    async createSuite(suite, by, now): Promise<SuiteWrite> {
      return inTransaction(pool, async (client) => {
        await client.query('SELECT pg_advisory_xact_lock(hashtextextended($1, 0))', [
          `suites ${stored.nameKey(suite.name)}`,
        ]);
        const taken = await idByName(client, suite.name);
        if (taken !== undefined) return { kind: 'name_taken', id: taken };
        const { rows } = await client.query<{ id: number }>(
          `INSERT INTO suites (name, name_key, version, case_count, created_at, updated_at, updated_by_id, updated_by_email)
           VALUES ($1, $2, 1, $3, $4, $5, $6, $7) RETURNING id`,
          stored.newSuiteValues(suite, by, now),
        );
        const id = rows[0]?.id ?? 0;
        await insertVersion(client, { id, version: 1, suite, by, now });
        return { kind: 'saved', id, version: 1 };
      });
    },
    async saveSuite(id, baseVersion, suite, by, now): Promise<SuiteWrite> {
      return inTransaction(pool, async (client) => {
        const { rows } = await client.query<{ version: number }>(
          'SELECT version FROM suites WHERE id = $1 FOR UPDATE',
          [id],
        );
        const current = rows[0];
        if (!current) return { kind: 'missing' };
        if (current.version !== baseVersion)
          return { kind: 'conflict', latestVersion: current.version };
        await client.query('SELECT pg_advisory_xact_lock(hashtextextended($1, 0))', [
          `suites ${stored.nameKey(suite.name)}`,
        ]);
        const taken = await idByName(client, suite.name);
        if (taken !== undefined && taken !== id) return { kind: 'name_taken', id: taken };
        const saved = { id, version: current.version + 1, suite, by, now };
        await client.query(
          `UPDATE suites SET name = $1, name_key = $2, version = $3, case_count = $4, updated_at = $5,
             updated_by_id = $6, updated_by_email = $7 WHERE id = $8`,
          stored.suiteUpdateValues(saved),
        );
        await insertVersion(client, saved);
        return { kind: 'saved', id, version: saved.version };
      });
    },
    async deleteSuite(id) {
      return inTransaction(pool, async (client) => {
        const deleted = await client.query('DELETE FROM suites WHERE id = $1', [id]);
        await client.query('DELETE FROM suite_versions WHERE suite_id = $1', [id]);
        await client.query('DELETE FROM suite_runs WHERE suite_id = $1', [id]);
        await client.query(
          'DELETE FROM suite_schedule_runs WHERE schedule_id IN (SELECT id FROM suite_schedules WHERE suite_id = $1)',
          [id],
        );
        await client.query('DELETE FROM suite_schedules WHERE suite_id = $1', [id]);
        return (deleted.rowCount ?? 0) > 0;
      });
    },
    async suiteVersions(id) {
      const { rows } = await pool.query<stored.VersionRow>(
        `SELECT version, name, case_count, saved_at, saved_by_id, saved_by_email
         FROM suite_versions WHERE suite_id = $1 ORDER BY version DESC`,
        [id],
      );
      return rows.map(stored.toVersion);
    },
    async createRun(run) {
      const { rows } = await pool.query<{ id: number }>(
        `INSERT INTO suite_runs (suite_id, suite_name, suite_version, connection, client_org_id,
           vendor_org_id, run_token, status, started_at, heartbeat_at, started_by_id, started_by_email,
           cases_total, cases_done, passed, failed, batches, cases)
         VALUES ($1, $2, $3, $4, $5, $6, $7, 'running', $8, $9, $10, $11, $12, 0, 0, 0, 0, '[]')
         RETURNING id`,
        stored.newRunValues(run),
      );
      return rows[0]?.id ?? 0;
    },
    async writeProgress(id, progress) {
      await pool.query(
        `UPDATE suite_runs SET cases_done = $1, passed = $2, failed = $3, batches = $4, cases = $5,
           heartbeat_at = $6 WHERE id = $7 AND status = 'running'`,
        stored.progressValues(id, progress),
      );
    },
    async endRun(id, end) {
      const result = await pool.query(
        `UPDATE suite_runs SET status = $1, finished_at = $2, cases_done = $3, passed = $4, failed = $5,
           batches = $6, cases = $7, heartbeat_at = $8, interruption = $9, previous_run_id = $10,
           verdicts = $11
         WHERE id = $12 AND status = 'running'`,
        stored.endValues(id, end),
      );
      return (result.rowCount ?? 0) > 0;
    },
    async heartbeat(ids, now) {
      if (ids.length === 0) return;
      await pool.query(
        `UPDATE suite_runs SET heartbeat_at = $1 WHERE status = 'running' AND id = ANY($2::bigint[])`,
        [now, ids],
      );
    },
    async getRun(id) {
      const { rows } = await pool.query<stored.RunRowWithCases>(
        `SELECT ${stored.runSummaryColumns}, cases FROM suite_runs WHERE id = $1`,
        [id],
      );
      return rows[0] ? stored.toRun(rows[0]) : undefined;
    },
    async runState(id) {
      const { rows } = await pool.query<{ casesDone: number; status: string }>(
        'SELECT cases_done AS "casesDone", status FROM suite_runs WHERE id = $1',
        [id],
      );
      return rows[0];
    },
    async listRuns({ suiteId, limit }) {
      const { rows } =
        suiteId === undefined || suiteId === null
          ? await pool.query<stored.RunRow>(
              `SELECT ${stored.runSummaryColumns} FROM suite_runs ${suiteId === null ? 'WHERE suite_id IS NULL ' : ''}ORDER BY id DESC LIMIT $1`,
              [limit],
            )
          : await pool.query<stored.RunRow>(
              `SELECT ${stored.runSummaryColumns} FROM suite_runs WHERE suite_id = $1 ORDER BY id DESC LIMIT $2`,
              [suiteId, limit],
            );
      return rows.map(stored.toRunSummary);
    },
    async latestRuns() {
      const { rows } = await pool.query<stored.RunRow>(
        `SELECT ${stored.runSummaryColumns} FROM suite_runs
         WHERE id IN (SELECT max(id) FROM suite_runs WHERE suite_id IS NOT NULL GROUP BY suite_id)`,
      );
      return new Map(rows.map((row) => [row.suite_id ?? 0, stored.toRunSummary(row)]));
    },
    async previousRun({ id, suiteId, suiteName, connection }) {
      const { rows } =
        suiteId === null
          ? await pool.query<{ id: number; cases: string }>(
              `SELECT id, cases FROM suite_runs
               WHERE suite_id IS NULL AND suite_name = $1 AND connection = $2 AND id < $3
                 AND status = 'finished'
               ORDER BY id DESC LIMIT 1`,
              [suiteName, connection, id],
            )
          : await pool.query<{ id: number; cases: string }>(
              `SELECT id, cases FROM suite_runs
               WHERE suite_id = $1 AND connection = $2 AND id < $3 AND status = 'finished'
               ORDER BY id DESC LIMIT 1`,
              [suiteId, connection, id],
            );
      return rows[0] ? stored.toPreviousRun(rows[0]) : undefined;
    },
    async interruptStale(before, reason, now) {
      const result = await pool.query(
        `UPDATE suite_runs SET status = 'interrupted', interruption = $1, finished_at = $2
         WHERE status = 'running' AND heartbeat_at < $3`,
        [reason, now, before],
      );
      return result.rowCount ?? 0;
    },
    async hasRunning(suiteId) {
      const { rows } = await pool.query(
        `SELECT 1 FROM suite_runs WHERE suite_id = $1 AND status = 'running' LIMIT 1`,
        [suiteId],
      );
      return rows.length > 0;
    },
  };
}
