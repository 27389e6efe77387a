import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { ApiError } from '@/domain/api-error';
import type { Actor } from '@/domain/suite-run';
import {
  newScheduleSchema,
  scheduleChangeSchema,
  type NewSchedule,
  type SuiteSchedule,
} from '@/domain/suite-schedule';
import type { PortalConfig } from '@/server/config';
import { querySchema } from '@/server/http/route-schemas';
import { checkScheduleRule, nextOccurrences } from './schedule-rule';
import type { ScheduleFields, ScheduleStore, StoredSchedule } from './schedule-store';
import { grantedConnection, parse, pathId, storedSuite } from './suite-requests';
import type { SuiteStore } from './suite-store';

const previewQuery = z.object({
  cron: z.string().max(200, 'cron may have at most 200 characters.'),
  timeZone: z.string().max(100, 'timeZone may have at most 100 characters.'),
});

/** How many occurrences a schedule shows ahead. */
const shownAhead = 3;

/**
 * `/api/suites/:id/schedules` (decision 057): a suite's schedules listed, added, changed (stopped
 * and resumed too) and removed; `/api/suite-schedules/preview` shows a rule's next occurrences
 * as typed. Whoever adds or changes a schedule becomes its owner: its runs are made with their
 * grants, checked now and again at every occurrence. Registered by suiteRoutes, behind its guards.
 */
export function registerScheduleRoutes(
  app: FastifyInstance,
  config: PortalConfig,
  suites: SuiteStore,
  store: ScheduleStore,
): void {
  const audit = (
    event: Parameters<typeof app.auditTrail.auth>[0],
    request: FastifyRequest,
    fields: Record<string, string | number | boolean | null>,
  ) => app.auditTrail.auth(event, fields, request);

  async function shown(schedule: StoredSchedule): Promise<SuiteSchedule> {
    const emails = await Promise.all(
      schedule.notify.map(async (id) => (await app.accounts.users.byId(id))?.email ?? id),
    );
    return {
      id: schedule.id,
      suiteId: schedule.suiteId,
      cron: schedule.cron,
      timeZone: schedule.timeZone,
      connection: schedule.connection,
      clientOrgId: schedule.clientOrgId,
      owner: schedule.owner,
      notify: emails,
      missed: schedule.missed,
      enabled: schedule.enabled,
      stoppedReason: schedule.stoppedReason,
      next: schedule.enabled
        ? nextOccurrences(schedule, new Date(), shownAhead).map((at) => at.toISOString())
        : [],
      lastOccurrence:
        schedule.lastOccurrence === null ? null : new Date(schedule.lastOccurrence).toISOString(),
      lastRunId: schedule.lastRunId,
      createdAt: new Date(schedule.createdAt).toISOString(),
    };
  }

  /** A schedule as asked for, checked against the rule, the connection and the asker's grants. */
  async function checked(
    request: FastifyRequest,
    wanted: NewSchedule,
    now: number,
  ): Promise<Omit<ScheduleFields, 'enabled' | 'stoppedReason' | 'since'>> {
    const rule = checkScheduleRule(wanted, new Date(now));
    if ('problem' in rule) {
      throw new ApiError('invalid_body', rule.problem, [
        { field: rule.field, message: rule.problem },
      ]);
    }
    const user = request.portalSession?.user ?? null;
    const { connection, permitted } = grantedConnection(config, user, wanted.connection, {
      because: ", and a schedule runs with its owner's grants",
      nothing: 'Nothing was saved.',
    });
    if (wanted.clientOrgId !== undefined && !permitted.includes(wanted.clientOrgId)) {
      throw new ApiError(
        'org_not_permitted',
        `The schedule cannot run for client org ${wanted.clientOrgId} on ${connection.label} (${connection.name}): ${permitted.length === 0 ? 'you may act for none of its orgs' : `choose one of ${permitted.join(', ')}`}. Nothing was saved.`,
        [{ field: 'clientOrgId', message: 'not permitted' }],
      );
    }
    const notify: string[] = [];
    for (const email of wanted.notify) {
      const found = await app.accounts.users.byEmail(email);
      if (!found) {
        throw new ApiError(
          'invalid_body',
          `No one signs in to this portal as ${email}; notify people with an account here. Nothing was saved.`,
          [{ field: 'notify', message: `${email}: no such account` }],
        );
      }
      if (!notify.includes(found.id)) notify.push(found.id);
    }
    const owner: Actor = user ? { userId: user.id, email: user.email } : null;
    return {
      cron: rule.rule.cron,
      timeZone: rule.rule.timeZone,
      connection: connection.name,
      clientOrgId: wanted.clientOrgId ?? null,
      owner,
      notify,
      missed: wanted.missed,
    };
  }

  async function scheduleOf(suiteId: number, value: string): Promise<StoredSchedule> {
    const id = pathId(value, 'schedule');
    const found = await store.getSchedule(id);
    if (!found || found.suiteId !== suiteId) {
      throw new ApiError(
        'not_found',
        `Suite ${suiteId} has no schedule ${id}: it may have been removed. Reload its schedules.`,
      );
    }
    return found;
  }

  /** Writes a schedule's change, records it in the audit trail and answers with it as saved. */
  async function saveChange(
    request: FastifyRequest,
    current: StoredSchedule,
    fields: ScheduleFields,
    told: Record<string, string | number | boolean | null>,
    now: number,
  ): Promise<SuiteSchedule> {
    await store.updateSchedule(current.id, fields, now);
    audit('schedule_changed', request, {
      suiteId: current.suiteId,
      scheduleId: current.id,
      ...told,
    });
    return shown(await scheduleOf(current.suiteId, String(current.id)));
  }

  app.get<{ Querystring: z.output<typeof previewQuery> }>(
    '/api/suite-schedules/preview',
    {
      config: { pageHeaders: false },
      schema: { querystring: querySchema(previewQuery, 'A schedule preview') },
    },
    async (request) => {
      const rule = checkScheduleRule(request.query, new Date());
      if ('problem' in rule) {
        throw new ApiError('invalid_parameter', rule.problem, [
          { field: rule.field, message: rule.problem },
        ]);
      }
      return {
        next: nextOccurrences(rule.rule, new Date(), 5).map((at) => at.toISOString()),
      };
    },
  );

  app.get<{ Params: { id: string } }>(
    '/api/suites/:id/schedules',
    { config: { pageHeaders: false } },
    async (request) => {
      const suiteId = pathId(request.params.id, 'suite');
      await storedSuite(suites, suiteId);
      const schedules = await store.listSchedules({ suiteId });
      return { schedules: await Promise.all(schedules.map(shown)) };
    },
  );

  app.post<{ Params: { id: string } }>(
    '/api/suites/:id/schedules',
    { config: { pageHeaders: false } },
    async (request, reply) => {
      const suiteId = pathId(request.params.id, 'suite');
      await storedSuite(suites, suiteId);
      const now = Date.now();
      const wanted = parse(newScheduleSchema, request.body, 'The schedule');
      const fields = await checked(request, wanted, now);
      const id = await store.createSchedule(
        suiteId,
        { ...fields, enabled: true, stoppedReason: null, since: now },
        now,
      );
      audit('schedule_added', request, {
        suiteId,
        scheduleId: id,
        cron: fields.cron,
        timeZone: fields.timeZone,
        connection: fields.connection,
      });
      const saved = await scheduleOf(suiteId, String(id));
      return reply.code(201).send(await shown(saved));
    },
  );

  app.put<{ Params: { id: string; scheduleId: string } }>(
    '/api/suites/:id/schedules/:scheduleId',
    { config: { pageHeaders: false } },
    async (request) => {
      const suiteId = pathId(request.params.id, 'suite');
      const current = await scheduleOf(suiteId, request.params.scheduleId);
      const change = parse(scheduleChangeSchema, request.body, 'The schedule');
      const now = Date.now();
      if (change.enabled === false && Object.keys(change).length === 1) {
        // Stopping asks for no grant and changes no owner: anyone who may see it may stop it.
        return saveChange(
          request,
          current,
          {
            ...current,
            enabled: false,
            stoppedReason: current.enabled ? null : current.stoppedReason,
          },
          { enabled: false, change: 'stopped' },
          now,
        );
      }
      const notifyEmails = await Promise.all(
        current.notify.map(async (id) => (await app.accounts.users.byId(id))?.email),
      );
      const clientOrgId = change.clientOrgId ?? current.clientOrgId;
      const wanted: NewSchedule = {
        cron: change.cron ?? current.cron,
        timeZone: change.timeZone ?? current.timeZone,
        connection: change.connection ?? current.connection,
        ...(clientOrgId === null ? {} : { clientOrgId }),
        notify: change.notify ?? notifyEmails.filter((email) => email !== undefined),
        missed: change.missed ?? current.missed,
      };
      // Checked as a new one: whoever changes it becomes its owner, with their grants.
      const fields = await checked(request, wanted, now);
      const enabled = change.enabled ?? current.enabled;
      const resumed = enabled && !current.enabled;
      const ruleChanged = fields.cron !== current.cron || fields.timeZone !== current.timeZone;
      return saveChange(
        request,
        current,
        {
          ...fields,
          enabled,
          // Stopped by hand says nothing; resumed, the reason is gone.
          stoppedReason: enabled ? null : current.enabled ? null : current.stoppedReason,
          // Occurrences from now on: a resumed or new rule does not catch up what passed.
          since: resumed || ruleChanged ? now : current.since,
        },
        {
          cron: fields.cron,
          timeZone: fields.timeZone,
          connection: fields.connection,
          enabled,
          change: resumed ? 'resumed' : !enabled && current.enabled ? 'stopped' : 'edited',
        },
        now,
      );
    },
  );

  app.delete<{ Params: { id: string; scheduleId: string } }>(
    '/api/suites/:id/schedules/:scheduleId',
    { config: { pageHeaders: false } },
    async (request, reply) => {
      const suiteId = pathId(request.params.id, 'suite');
      const current = await scheduleOf(suiteId, request.params.scheduleId);
      await store.deleteSchedule(current.id);
      audit('schedule_removed', request, { suiteId, scheduleId: current.id });
      return reply.code(204).send();
    },
  );
}
