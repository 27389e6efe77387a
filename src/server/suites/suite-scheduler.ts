import type { FastifyInstance } from 'fastify';
import type { AuditEventName } from '@/domain/audit';
import type { SessionUser } from '@/domain/auth';
import { scheduledRunTitle } from '@/domain/notifications';
import { suiteSchema } from '@/domain/suite';
import { compareRuns, suiteRunPath, type SuiteRun } from '@/domain/suite-run';
import type { PortalConfig } from '@/server/config';
import { TableLooks } from '@/server/store/table-looks';
import { missedOccurrence } from './schedule-rule';
import type { ScheduleStore, StoredSchedule } from './schedule-store';
import { permittedOrgs } from './suite-requests';
import type { SuiteRunner } from './suite-runner';
import type { SuiteStore } from './suite-store';

/**
 * Runs suites on their schedules (decision 057). Every look (each `everyMs`, or `tick` in tests)
 * finds each enabled schedule's latest occurrence not yet taken; the process whose insert of
 * (schedule, occurrence) writes the row runs it, so on a shared database an occurrence runs once
 * however many processes look. An occurrence seen more than `lateAfterMs` after it fell due was
 * missed while the portal was down: run once or skipped, as the schedule says (only the latest,
 * decision 053). Each run is made as the schedule's owner with their grants as they are now; an
 * owner disabled, or no longer granted the connection or the org, stops the schedule, saying why.
 * When the run ends, each person the schedule names is told what newly fails and what was fixed
 * against the schedule's run before.
 */

/** How a scheduled occurrence ended, as the metrics count it. */
export type ScheduledOutcome = 'passed' | 'failed' | 'interrupted' | 'skipped' | 'stopped';

export interface SchedulerOptions {
  app: FastifyInstance;
  config: PortalConfig;
  schedules: ScheduleStore;
  suites: SuiteStore;
  runner: SuiteRunner;
  /** Records a schedule's event in the audit trail (what the trail writes itself excluded). */
  audit: (
    event: Exclude<AuditEventName, 'refused' | 'events_suppressed'>,
    fields: Record<string, string | number | boolean | null>,
  ) => void;
  counted: (outcome: ScheduledOutcome) => void;
  now?: () => number;
  /** How often it looks for occurrences due. Default 15 s; 0: only when `tick` is called. */
  everyMs?: number;
  /** An occurrence first seen later than this after it fell due was missed. Default 2 minutes. */
  lateAfterMs?: number;
}

export class SuiteScheduler {
  private readonly now: () => number;
  /** How long after a look the next is due; null until `start`, and with `everyMs` 0. */
  private everyMs: number | null = null;
  // One look at a time in a process: a slow database must not make two looks start one run.
  private readonly looks = new TableLooks(async () => {
    await this.look();
    return this.everyMs;
  });
  private readonly inFlight = new Set<Promise<void>>();

  constructor(private readonly options: SchedulerOptions) {
    this.now = options.now ?? Date.now;
  }

  /** Looks at once (a run missed while down), then every `everyMs`. */
  start(): void {
    const every = this.options.everyMs ?? 15_000;
    this.everyMs = every > 0 ? every : null;
    void this.looks.wake();
  }

  /** One look: takes and starts each occurrence due; resolves once those it started are told of. */
  async tick(): Promise<void> {
    if (this.looks.closed) return;
    await this.looks.wake();
    await Promise.allSettled([...this.inFlight]);
  }

  /**
   * Stops looking. Runs it started are the runner's to stop (a drain marks them interrupted),
   * after which they are told of as any other.
   */
  close(): Promise<void> {
    return this.looks.close();
  }

  private async look(): Promise<void> {
    const { schedules, app } = this.options;
    let due: StoredSchedule[];
    try {
      due = await schedules.listSchedules({ enabled: true });
    } catch (error) {
      app.log.warn({ err: error }, 'suite schedules: not read');
      return;
    }
    for (const schedule of due) {
      try {
        await this.consider(schedule);
      } catch (error) {
        app.log.error({ err: error, schedule: schedule.id }, 'suite schedule: occurrence not run');
      }
    }
    // Runs that ended with nobody to tell of them: their process died, or its telling failed.
    try {
      for (const left of await schedules.untold(20)) {
        this.track(this.tellOnce(left.scheduleId, left.occurrence, left.runId));
      }
    } catch (error) {
      app.log.warn({ err: error }, 'suite schedules: runs not told of not read');
    }
  }

  private async consider(schedule: StoredSchedule): Promise<void> {
    const { schedules } = this.options;
    const now = this.now();
    const lastTaken = Math.max(schedule.since, schedule.lastOccurrence ?? 0);
    const occurrence = missedOccurrence(schedule, new Date(lastTaken), new Date(now))?.getTime();
    if (occurrence === undefined) return;
    const late = now - occurrence > (this.options.lateAfterMs ?? 120_000);
    const fields = {
      suiteId: schedule.suiteId,
      scheduleId: schedule.id,
      occurrence: iso(occurrence),
    };
    if (late && schedule.missed === 'skip') {
      if (await schedules.takeOccurrence(schedule.id, occurrence, 'skipped', now)) {
        this.options.audit('schedule_run', { ...fields, outcome: 'skipped', missed: true });
        this.options.counted('skipped');
      }
      return;
    }
    const runAs = await this.runAs(schedule);
    if ('problem' in runAs) {
      if (!(await schedules.takeOccurrence(schedule.id, occurrence, 'stopped', now))) return;
      if (await schedules.stopSchedule(schedule.id, runAs.problem, now)) {
        this.options.audit('schedule_stopped', {
          ...fields,
          reason: runAs.problem,
          userId: schedule.owner?.userId ?? null,
          email: schedule.owner?.email ?? null,
        });
        this.options.counted('stopped');
      }
      return;
    }
    if (!(await schedules.takeOccurrence(schedule.id, occurrence, 'run', now))) return;
    const record = await this.options.suites.getSuite(schedule.suiteId);
    if (!record) return;
    const connection = runAs.connection;
    const runId = await this.options.runner.start({
      suite: suiteSchema.parse(JSON.parse(record.body)),
      suiteId: schedule.suiteId,
      suiteVersion: record.version,
      connection,
      clientOrgId: runAs.clientOrgId,
      vendorOrgId: connection.vendorOrgId,
      user: runAs.user,
      token: null,
      // The portal's own calls: counted against loopback, as a local script's.
      address: '127.0.0.1',
    });
    await schedules.setOccurrenceRun(schedule.id, occurrence, runId);
    this.options.audit('schedule_run', {
      ...fields,
      runId,
      outcome: 'started',
      missed: late,
      userId: runAs.user?.id ?? null,
      email: runAs.user?.email ?? null,
    });
    this.track(
      this.options.runner.finished(runId).then(() => this.tellOnce(schedule.id, occurrence, runId)),
    );
  }

  private track(work: Promise<void>): void {
    this.inFlight.add(work);
    void work.finally(() => this.inFlight.delete(work));
  }

  /**
   * Tells of an ended run unless another process took the telling first; a telling that fails is
   * given back, and the next look (here or elsewhere) takes it again.
   */
  private async tellOnce(scheduleId: number, occurrence: number, runId: number): Promise<void> {
    const { schedules, app, config } = this.options;
    try {
      if (!(await schedules.takeTelling(scheduleId, occurrence, this.now()))) return;
    } catch (error) {
      app.log.warn({ err: error, schedule: scheduleId }, 'suite schedule: telling not taken');
      return;
    }
    try {
      const schedule = await schedules.getSchedule(scheduleId);
      if (!schedule) return;
      const label =
        config.connections.find((entry) => entry.name === schedule.connection)?.label ??
        schedule.connection;
      await this.tell(schedule, occurrence, runId, label);
    } catch (error) {
      app.log.error(
        { err: error, schedule: scheduleId, suiteRun: runId },
        'suite schedule: run not told of; told at the next look',
      );
      await schedules.releaseTelling(scheduleId, occurrence).catch(() => {});
    }
  }

  /** The user, connection and client org a run is made with; or why the schedule cannot run. */
  private async runAs(schedule: StoredSchedule): Promise<
    | {
        user: SessionUser | null;
        connection: PortalConfig['connections'][number];
        clientOrgId: number;
      }
    | { problem: string }
  > {
    const { app, config } = this.options;
    const connection = config.connections.find((entry) => entry.name === schedule.connection);
    if (!connection) {
      return {
        problem: `the connection "${schedule.connection}" is no longer configured on this portal; choose another and resume it`,
      };
    }
    let user: SessionUser | null = null;
    if (config.auth.required) {
      const owner = schedule.owner;
      const stored = owner ? await app.accounts.users.byId(owner.userId) : undefined;
      const who = owner?.email ?? 'its owner';
      if (!stored)
        return {
          problem: `its owner ${who} no longer has an account; resume it to run it as yourself`,
        };
      if (stored.disabled) {
        return { problem: `its owner ${who} was disabled; resume it to run it as yourself` };
      }
      user = app.accounts.portalUser(stored);
      if (user.role === 'recruiter') {
        return {
          problem: `its owner ${who} is no longer QA or an admin; resume it to run it as yourself`,
        };
      }
      if (!user.connections.includes(connection.name)) {
        return {
          problem: `its owner ${who} may no longer use the connection ${connection.label} (${connection.name}); resume it to run it as yourself`,
        };
      }
    }
    const permitted = permittedOrgs(connection, user);
    const clientOrgId = schedule.clientOrgId ?? permitted[0];
    if (clientOrgId === undefined || !permitted.includes(clientOrgId)) {
      return {
        problem: `${schedule.owner ? `its owner ${schedule.owner.email}` : 'the portal'} may no longer act for client org ${clientOrgId ?? '(none)'} on ${connection.label}; resume it to run it as yourself`,
      };
    }
    return { user, connection, clientOrgId };
  }

  /** Tells each person the schedule names how the run went against the schedule's run before. */
  private async tell(
    schedule: StoredSchedule,
    occurrence: number,
    runId: number,
    connectionLabel: string,
  ): Promise<void> {
    const { app, suites, schedules } = this.options;
    const run = await suites.getRun(runId);
    if (!run) return;
    const previousId = await schedules.previousRunId(schedule.id, occurrence);
    const previous: SuiteRun | undefined =
      previousId === null ? undefined : await suites.getRun(previousId);
    const verdicts = compareRuns(
      run.cases,
      previous && previous.status === 'finished' ? previous.cases : null,
    );
    const named = (verdict: string) =>
      run.cases.filter((_, index) => verdicts[index] === verdict).map((entry) => entry.name);
    const newlyFailing = named('newly-failing');
    const fixed = named('fixed');
    const interrupted = run.status !== 'finished';
    const outcome: ScheduledOutcome = interrupted
      ? 'interrupted'
      : run.failed > 0
        ? 'failed'
        : 'passed';
    this.options.counted(outcome);
    this.options.audit('schedule_run', {
      suiteId: schedule.suiteId,
      scheduleId: schedule.id,
      occurrence: iso(occurrence),
      runId,
      outcome,
      passed: run.passed,
      failed: run.failed,
      newlyFailing: newlyFailing.length,
      fixed: fixed.length,
    });
    const title = scheduledRunTitle({
      suiteName: run.suiteName,
      connectionLabel,
      newlyFailing,
      fixed,
      passed: run.passed,
      total: run.casesTotal,
      interrupted,
    });
    const link = suiteRunPath(runId, schedule.suiteId);
    const people = this.options.config.auth.required ? schedule.notify : [null];
    for (const userId of people) {
      if (userId !== null) {
        const stored = await app.accounts.users.byId(userId);
        if (!stored || stored.disabled) continue;
      }
      await app.notifier.notify({
        connection: schedule.connection,
        userId,
        kind: 'suite.scheduled_run',
        title,
        link,
        // Once per schedule, occurrence and person, however often it is told.
        about: `suite-schedule:${schedule.id}:${occurrence}:${userId ?? 'portal'}`,
        at: this.now(),
      });
    }
  }
}

function iso(at: number): string {
  return new Date(at).toISOString();
}
