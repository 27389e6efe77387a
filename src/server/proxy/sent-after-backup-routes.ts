import type { FastifyPluginAsync } from 'fastify';
import fp from 'fastify-plugin';
import { sentAfterBackupListSchema } from '@/domain/sent-after-backup';
import type { PortalConfig } from '@/server/config';
import { registerApiGuards } from '@/server/http/api-guards';
import { responseSchema, withRouteSchemas } from '@/server/http/route-schemas';

/**
 * `GET /api/sent-after-backup`: the batches a restore found sent after its backup (decision 043),
 * for the Submissions page to mark. A recruiter sees their own; an admin, and everyone when
 * sign-in is off, sees all. Read from the idempotency keys the restore wrote, so the list lasts
 * as long as the refusal it explains.
 */
const routes: FastifyPluginAsync<{ config: PortalConfig }> = async (app, { config }) => {
  await registerApiGuards(app, config, 'recruiter');
  withRouteSchemas(app).get(
    '/',
    {
      config: { pageHeaders: false },
      schema: { response: { 200: responseSchema(sentAfterBackupListSchema) } },
    },
    async (request) => {
      const user = request.portalSession?.user ?? null;
      const batches = (await app.idempotencyKeys.listSentAfterBackup()).filter(
        (batch) => user === null || user.role === 'admin' || batch.email === user.email,
      );
      return {
        batches: batches.map(({ sentAt, ...batch }) => ({
          ...batch,
          sentAt: new Date(sentAt).toISOString(),
        })),
      };
    },
  );
};

export const sentAfterBackupRoutes = fp(routes, {
  name: 'sent-after-backup-routes',
  fastify: '5.x',
  encapsulate: true,
  dependencies: ['proxy-store', 'accounts'],
});
