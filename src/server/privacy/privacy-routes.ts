import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import {
  eraseRequestSchema,
  eraseSubject,
  exportRequestSchema,
  subjectErasedSchema,
  subjectFoundSchema,
  subjectOf,
  subjectQuerySchema,
  type PersonalSubject,
  type StoreCounts,
  type SubjectExport,
} from '@/domain/personal-subject';
import type { PortalConfig } from '@/server/config';
import { registerApiGuards } from '@/server/http/api-guards';
import { bodySchema, responseSchema, withRouteSchemas } from '@/server/http/route-schemas';
import type { PortalDatabase } from '@/server/store/database';
import { subjectExportPage } from './export-page';
import { createPostgresPrivacyStore } from './postgres-privacy-store';
import { PrivacyService } from './privacy-service';
import { createSqlitePrivacyStore } from './sqlite-privacy-store';

export interface PrivacyRoutesOptions {
  config: PortalConfig;
  now?: () => number;
}

/** The privacy service on the portal database, as the routes, the command and the bench open it. */
export function openPrivacyService(
  database: PortalDatabase,
  options: { now?: () => number } = {},
): PrivacyService {
  const store = database.open('privacy', {
    sqlite: createSqlitePrivacyStore,
    postgres: createPostgresPrivacyStore,
  });
  return new PrivacyService(store, options);
}

/**
 * The reason as the audit trail keeps it: an admin who pasted the person's e-mail or name into it
 * would otherwise put them back in the trail the erasure just cleaned.
 */
export function reasonWithoutSubject(reason: string, subject: PersonalSubject, at: Date): string {
  const erased = eraseSubject(JSON.stringify({ reason }), subject, at);
  const parsed = JSON.parse(erased.text) as { reason?: unknown };
  return typeof parsed.reason === 'string' ? parsed.reason : '';
}

/** The counts as audit details: one number per store, plus the total. */
export function countDetails(counts: StoreCounts): Record<string, number> {
  const total = Object.values(counts).reduce((sum, n) => sum + n, 0);
  return { records: total, ...Object.fromEntries(Object.entries(counts)) };
}

/**
 * `/api/admin/privacy` (decision 059), for admins: find one person by e-mail (and name) in every
 * store, export what is held about them (JSON or a readable page), erase it. Every route is a POST:
 * the person's e-mail travels in the body, never in an address a log or a proxy keeps.
 */
export const privacyRoutes: FastifyPluginAsync<PrivacyRoutesOptions> = async (
  app,
  { config, now = Date.now },
) => {
  const service = openPrivacyService(app.database, { now });
  await registerApiGuards(app, config, 'admin');
  /**
   * Before every route, the calls this process still holds in the journal's queue are written:
   * the journal writes a call up to 50 ms after it answers (longer when far behind), and a
   * person's call still waiting there would be missed by a find and written, whole, after their
   * erasure. A hook, not a line in each route, so a route added later cannot forget it; it runs
   * after the guards' checks (they are onRequest hooks) and the body's validation, so a refused
   * call writes nothing.
   */
  const journal = app.hasDecorator('journal') ? app.journal : null;
  if (journal) app.addHook('preHandler', () => journal.flush());
  const routes = withRouteSchemas(app);

  function audit(
    request: FastifyRequest,
    event: 'personal_data_exported' | 'personal_data_erased',
    details: { reason: string; subject: PersonalSubject; counts: StoreCounts },
  ): void {
    app.auditTrail.auth(
      event,
      {
        reason: reasonWithoutSubject(details.reason, details.subject, new Date(now())),
        ...countDetails(details.counts),
      },
      request,
    );
  }

  routes.post(
    '/privacy/find',
    {
      config: { pageHeaders: false },
      schema: {
        body: bodySchema(subjectQuerySchema),
        response: { 200: responseSchema(subjectFoundSchema) },
      },
    },
    async (request) => {
      const found = await service.find(subjectOf(request.body));
      return { counts: found.counts };
    },
  );

  routes.post(
    '/privacy/export',
    { config: { pageHeaders: false }, schema: { body: bodySchema(exportRequestSchema) } },
    async (request, reply) => {
      const { reason, format, ...query } = request.body;
      const subject = subjectOf(query);
      const found = await service.find(subject);
      const held: SubjectExport = {
        subject: { email: query.email, name: query.name?.trim() || null },
        exportedAt: new Date(now()).toISOString(),
        counts: found.counts,
        records: found.records,
      };
      audit(request, 'personal_data_exported', { reason, subject, counts: found.counts });
      const stamp = held.exportedAt.slice(0, 10);
      return reply
        .header(
          'content-type',
          format === 'html' ? 'text/html; charset=utf-8' : 'application/json; charset=utf-8',
        )
        .header('content-disposition', `attachment; filename="personal-data-${stamp}.${format}"`)
        .send(format === 'html' ? subjectExportPage(held) : JSON.stringify(held, null, 2));
    },
  );

  routes.post(
    '/privacy/erase',
    {
      config: { pageHeaders: false },
      schema: {
        body: bodySchema(eraseRequestSchema),
        response: { 200: responseSchema(subjectErasedSchema) },
      },
    },
    async (request) => {
      const { reason, ...query } = request.body;
      const subject = subjectOf(query);
      const erased = await service.erase(subject);
      audit(request, 'personal_data_erased', { reason, subject, counts: erased.counts });
      return erased;
    },
  );
};
