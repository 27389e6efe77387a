import { inTransaction, type PortalPool } from '@/server/store/postgres/pool';
import {
  fieldValues,
  scheduleColumns,
  toSchedule,
  toUntold,
  type ScheduleRow,
  type ScheduleStore,
} from './schedule-store';

/**
 * Suites' schedules in PostgreSQL (decision 057). An occurrence is taken by inserting its row "on
 * conflict do nothing": of the processes that see it fall due, the one whose insert wrote the row
 * runs it.
 */
export function createPostgresScheduleStore(pool: PortalPool): ScheduleStore {
  return {
    async listSchedules(filter) {
      const { rows } =
        'suiteId' in filter
          ? await pool.query<ScheduleRow>(
              `SELECT ${scheduleColumns} FROM suite_schedules s WHERE s.suite_id = $1 ORDER BY s.id`,
              [filter.suiteId],
            )
          : await pool.query<ScheduleRow>(
              `SELECT ${scheduleColumns} FROM suite_schedules s WHERE s.enabled = 1 ORDER BY s.id`,
            );
      return rows.map(toSchedule);
    },
    async getSchedule(id) {
      const { rows } = await pool.query<ScheduleRow>(
        `SELECT ${scheduleColumns} FROM suite_schedules s WHERE s.id = $1`,
        [id],
      );
      return rows[0] ? toSchedule(rows[0]) : undefined;
    },
    async createSchedule(suiteId, fields, now) {
      const { rows } = await pool.query<{ id: number }>(
        `INSERT INTO suite_schedules (cron, time_zone, connection, client_org_id, owner_id,
           owner_email, notify, missed, enabled, stopped_reason, since, suite_id, created_at, updated_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14) RETURNING id`,
        [...fieldValues(fields), suiteId, now, now],
      );
      return Number(rows[0]?.id ?? 0);
    },
    async updateSchedule(id, fields, now) {
      const result = await pool.query(
        `UPDATE suite_schedules SET cron = $1, time_zone = $2, connection = $3, client_org_id = $4,
           owner_id = $5, owner_email = $6, notify = $7, missed = $8, enabled = $9,
           stopped_reason = $10, since = $11, updated_at = $12 WHERE id = $13`,
        [...fieldValues(fields), now, id],
      );
      return (result.rowCount ?? 0) > 0;
    },
    async deleteSchedule(id) {
      return inTransaction(pool, async (client) => {
        await client.query('DELETE FROM suite_schedule_runs WHERE schedule_id = $1', [id]);
        const deleted = await client.query('DELETE FROM suite_schedules WHERE id = $1', [id]);
        return (deleted.rowCount ?? 0) > 0;
      });
    },
    async takeOccurrence(scheduleId, occurrence, outcome, now) {
      const result = await pool.query(
        `INSERT INTO suite_schedule_runs (schedule_id, occurrence, outcome, taken_at)
         VALUES ($1, $2, $3, $4) ON CONFLICT DO NOTHING`,
        [scheduleId, occurrence, outcome, now],
      );
      return (result.rowCount ?? 0) > 0;
    },
    async setOccurrenceRun(scheduleId, occurrence, runId) {
      await pool.query(
        'UPDATE suite_schedule_runs SET run_id = $1 WHERE schedule_id = $2 AND occurrence = $3',
        [runId, scheduleId, occurrence],
      );
    },
    async stopSchedule(id, reason, now) {
      const result = await pool.query(
        `UPDATE suite_schedules SET enabled = 0, stopped_reason = $1, updated_at = $2
         WHERE id = $3 AND enabled = 1`,
        [reason, now, id],
      );
      return (result.rowCount ?? 0) > 0;
    },
    async untold(limit) {
      const { rows } = await pool.query<{
        schedule_id: number;
        occurrence: number;
        run_id: number;
      }>(
        `SELECT t.schedule_id, t.occurrence, t.run_id FROM suite_schedule_runs t
         JOIN suite_runs r ON r.id = t.run_id
         WHERE t.told_at IS NULL AND r.status <> 'running'
         ORDER BY t.occurrence LIMIT $1`,
        [limit],
      );
      return rows.map(toUntold);
    },
    async takeTelling(scheduleId, occurrence, now) {
      const result = await pool.query(
        `UPDATE suite_schedule_runs SET told_at = $1
         WHERE schedule_id = $2 AND occurrence = $3 AND told_at IS NULL`,
        [now, scheduleId, occurrence],
      );
      return (result.rowCount ?? 0) > 0;
    },
    async releaseTelling(scheduleId, occurrence) {
      await pool.query(
        'UPDATE suite_schedule_runs SET told_at = NULL WHERE schedule_id = $1 AND occurrence = $2',
        [scheduleId, occurrence],
      );
    },
    async previousRunId(scheduleId, occurrence) {
      const { rows } = await pool.query<{ run_id: number }>(
        `SELECT run_id FROM suite_schedule_runs
         WHERE schedule_id = $1 AND occurrence < $2 AND run_id IS NOT NULL
         ORDER BY occurrence DESC LIMIT 1`,
        [scheduleId, occurrence],
      );
      return rows[0] ? Number(rows[0].run_id) : null;
    },
  };
}
