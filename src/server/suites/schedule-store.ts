import type Database from 'better-sqlite3';
import type { Actor } from '@/domain/suite-run';
import type { MissedPolicy } from '@/domain/suite-schedule';
import { actorOf } from './suite-rows';

/**
 * Where suites' schedules are kept (decision 057), beside the suites on the portal database,
 * SQLite or PostgreSQL, behind one asynchronous interface. Times are milliseconds since the epoch.
 */

export interface StoredSchedule {
  id: number;
  suiteId: number;
  cron: string;
  timeZone: string;
  connection: string;
  clientOrgId: number | null;
  owner: Actor;
  /** User ids. */
  notify: string[];
  missed: MissedPolicy;
  enabled: boolean;
  stoppedReason: string | null;
  /** Added or last set going: occurrences before this are never run. */
  since: number;
  createdAt: number;
  /** The latest occurrence taken (run, skipped or stopped), and the run it made. */
  lastOccurrence: number | null;
  lastRunId: number | null;
}

export interface ScheduleFields {
  cron: string;
  timeZone: string;
  connection: string;
  clientOrgId: number | null;
  owner: Actor;
  notify: string[];
  missed: MissedPolicy;
  enabled: boolean;
  stoppedReason: string | null;
  since: number;
}

/** What came of an occurrence. */
export type OccurrenceOutcome = 'run' | 'skipped' | 'stopped';

export interface ScheduleStore {
  /** A suite's schedules, or (no suite) every enabled one: what the scheduler looks at. */
  listSchedules(filter: { suiteId: number } | { enabled: true }): Promise<StoredSchedule[]>;
  getSchedule(id: number): Promise<StoredSchedule | undefined>;
  createSchedule(suiteId: number, fields: ScheduleFields, now: number): Promise<number>;
  updateSchedule(id: number, fields: ScheduleFields, now: number): Promise<boolean>;
  deleteSchedule(id: number): Promise<boolean>;
  /**
   * Takes an occurrence: true for the one caller whose row it is, false for every other (another
   * process took it first). This is what makes an occurrence run once.
   */
  takeOccurrence(
    scheduleId: number,
    occurrence: number,
    outcome: OccurrenceOutcome,
    now: number,
  ): Promise<boolean>;
  setOccurrenceRun(scheduleId: number, occurrence: number, runId: number): Promise<void>;
  /** Stops an enabled schedule saying why; false when it was not enabled (stopped already). */
  stopSchedule(id: number, reason: string, now: number): Promise<boolean>;
  /**
   * Occurrences whose run has ended and that no process has told of yet: those of a process that
   * died before it could, and, for a moment, those being told of now.
   */
  untold(limit: number): Promise<{ scheduleId: number; occurrence: number; runId: number }[]>;
  /** Takes the telling of an occurrence's run: true for the one caller that is to tell. */
  takeTelling(scheduleId: number, occurrence: number, now: number): Promise<boolean>;
  /** Gives a telling back (it failed), for the next look to take again. */
  releaseTelling(scheduleId: number, occurrence: number): Promise<void>;
  /** The run of the schedule's latest occurrence before `occurrence` that made one. */
  previousRunId(scheduleId: number, occurrence: number): Promise<number | null>;
}

export interface ScheduleRow {
  id: number;
  suite_id: number;
  cron: string;
  time_zone: string;
  connection: string;
  client_org_id: number | null;
  owner_id: string | null;
  owner_email: string | null;
  notify: string;
  missed: string;
  enabled: number;
  stopped_reason: string | null;
  since: number;
  created_at: number;
  last_occurrence: number | null;
  last_run_id: number | null;
}

export const scheduleColumns = `s.id, s.suite_id, s.cron, s.time_zone, s.connection, s.client_org_id,
  s.owner_id, s.owner_email, s.notify, s.missed, s.enabled, s.stopped_reason, s.since, s.created_at,
  (SELECT max(occurrence) FROM suite_schedule_runs r WHERE r.schedule_id = s.id) AS last_occurrence,
  (SELECT r.run_id FROM suite_schedule_runs r WHERE r.schedule_id = s.id
     ORDER BY r.occurrence DESC LIMIT 1) AS last_run_id`;

export function toSchedule(row: ScheduleRow): StoredSchedule {
  const notify: unknown = JSON.parse(row.notify);
  return {
    id: Number(row.id),
    suiteId: Number(row.suite_id),
    cron: row.cron,
    timeZone: row.time_zone,
    connection: row.connection,
    clientOrgId: row.client_org_id === null ? null : Number(row.client_org_id),
    owner: actorOf(row.owner_id, row.owner_email),
    notify: Array.isArray(notify) ? notify.filter((id) => typeof id === 'string') : [],
    missed: row.missed === 'skip' ? 'skip' : 'run-once',
    enabled: row.enabled === 1,
    stoppedReason: row.stopped_reason,
    since: Number(row.since),
    createdAt: Number(row.created_at),
    lastOccurrence: row.last_occurrence === null ? null : Number(row.last_occurrence),
    lastRunId: row.last_run_id === null ? null : Number(row.last_run_id),
  };
}

export function toUntold(row: { schedule_id: number; occurrence: number; run_id: number }) {
  return {
    scheduleId: Number(row.schedule_id),
    occurrence: Number(row.occurrence),
    runId: Number(row.run_id),
  };
}

/**
 * A schedule's fields in the order of the statements' placeholders: cron, time_zone, connection,
 * client_org_id, owner_id, owner_email, notify, missed, enabled, stopped_reason, since.
 */
export function fieldValues(fields: ScheduleFields) {
  return [
    fields.cron,
    fields.timeZone,
    fields.connection,
    fields.clientOrgId,
    fields.owner?.userId ?? null,
    fields.owner?.email ?? null,
    JSON.stringify(fields.notify),
    fields.missed,
    fields.enabled ? 1 : 0,
    fields.stoppedReason,
    fields.since,
  ] as const;
}

/** Schedules in the portal's SQLite file. */
export function createSqliteScheduleStore(db: Database.Database): ScheduleStore {
  const statements = {
    ofSuite: db.prepare<[number], ScheduleRow>(
      `SELECT ${scheduleColumns} FROM suite_schedules s WHERE s.suite_id = ? ORDER BY s.id`,
    ),
    enabled: db.prepare<[], ScheduleRow>(
      `SELECT ${scheduleColumns} FROM suite_schedules s WHERE s.enabled = 1 ORDER BY s.id`,
    ),
    one: db.prepare<[number], ScheduleRow>(
      `SELECT ${scheduleColumns} FROM suite_schedules s WHERE s.id = ?`,
    ),
    insert: db.prepare(
      `INSERT INTO suite_schedules (cron, time_zone, connection, client_org_id, owner_id, owner_email,
         notify, missed, enabled, stopped_reason, since, suite_id, created_at, updated_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    ),
    update: db.prepare(
      `UPDATE suite_schedules SET cron = ?, time_zone = ?, connection = ?, client_org_id = ?,
         owner_id = ?, owner_email = ?, notify = ?, missed = ?, enabled = ?, stopped_reason = ?,
         since = ?, updated_at = ? WHERE id = ?`,
    ),
    delete: db.prepare<[number]>('DELETE FROM suite_schedules WHERE id = ?'),
    deleteTaken: db.prepare<[number]>('DELETE FROM suite_schedule_runs WHERE schedule_id = ?'),
    take: db.prepare<[number, number, string, number]>(
      `INSERT INTO suite_schedule_runs (schedule_id, occurrence, outcome, taken_at)
       VALUES (?, ?, ?, ?) ON CONFLICT DO NOTHING`,
    ),
    setRun: db.prepare<[number, number, number]>(
      'UPDATE suite_schedule_runs SET run_id = ? WHERE schedule_id = ? AND occurrence = ?',
    ),
    stop: db.prepare<[string, number, number]>(
      `UPDATE suite_schedules SET enabled = 0, stopped_reason = ?, updated_at = ?
       WHERE id = ? AND enabled = 1`,
    ),
    untold: db.prepare<[number], { schedule_id: number; occurrence: number; run_id: number }>(
      `SELECT t.schedule_id, t.occurrence, t.run_id FROM suite_schedule_runs t
       JOIN suite_runs r ON r.id = t.run_id
       WHERE t.told_at IS NULL AND r.status <> 'running'
       ORDER BY t.occurrence LIMIT ?`,
    ),
    takeTelling: db.prepare<[number, number, number]>(
      `UPDATE suite_schedule_runs SET told_at = ?
       WHERE schedule_id = ? AND occurrence = ? AND told_at IS NULL`,
    ),
    releaseTelling: db.prepare<[number, number]>(
      'UPDATE suite_schedule_runs SET told_at = NULL WHERE schedule_id = ? AND occurrence = ?',
    ),
    previous: db.prepare<[number, number], { run_id: number }>(
      `SELECT run_id FROM suite_schedule_runs
       WHERE schedule_id = ? AND occurrence < ? AND run_id IS NOT NULL
       ORDER BY occurrence DESC LIMIT 1`,
    ),
  };
  const remove = db.transaction((id: number) => {
    statements.deleteTaken.run(id);
    return statements.delete.run(id).changes > 0;
  });
  return {
    async listSchedules(filter) {
      const rows =
        'suiteId' in filter ? statements.ofSuite.all(filter.suiteId) : statements.enabled.all();
      return rows.map(toSchedule);
    },
    async getSchedule(id) {
      const row = statements.one.get(id);
      return row ? toSchedule(row) : undefined;
    },
    async createSchedule(suiteId, fields, now) {
      return Number(
        statements.insert.run(...fieldValues(fields), suiteId, now, now).lastInsertRowid,
      );
    },
    async updateSchedule(id, fields, now) {
      return statements.update.run(...fieldValues(fields), now, id).changes > 0;
    },
    async deleteSchedule(id) {
      return remove(id);
    },
    async takeOccurrence(scheduleId, occurrence, outcome, now) {
      return statements.take.run(scheduleId, occurrence, outcome, now).changes > 0;
    },
    async setOccurrenceRun(scheduleId, occurrence, runId) {
      statements.setRun.run(runId, scheduleId, occurrence);
    },
    async stopSchedule(id, reason, now) {
      return statements.stop.run(reason, now, id).changes > 0;
    },
    async untold(limit) {
      return statements.untold.all(limit).map(toUntold);
    },
    async takeTelling(scheduleId, occurrence, now) {
      return statements.takeTelling.run(now, scheduleId, occurrence).changes > 0;
    },
    async releaseTelling(scheduleId, occurrence) {
      statements.releaseTelling.run(scheduleId, occurrence);
    },
    async previousRunId(scheduleId, occurrence) {
      return statements.previous.get(scheduleId, occurrence)?.run_id ?? null;
    },
  };
}
