import type { FastifyPluginAsync } from 'fastify';
import { z } from 'zod';
import { ApiError } from '@/domain/api-error';
import type { BatchWatch } from '@/domain/batch-watch';
import { batchWatchSchema } from '@/domain/batch-watch';
import type { PortalConfig } from '@/server/config';
import { registerApiGuards } from '@/server/http/api-guards';
import { requireUser } from '@/server/http/require-user';
import {
  partSchema,
  querySchema,
  responseSchema,
  withRouteSchemas,
} from '@/server/http/route-schemas';
import type { StoredWatch } from './store/watch-store';

export interface WatchRoutesOptions {
  config: PortalConfig;
}

const iso = (at: number | null) => (at === null ? null : new Date(at).toISOString());

function answerOf(watch: StoredWatch): BatchWatch {
  return {
    batchId: watch.batchId,
    connection: watch.connection,
    operation: watch.operation,
    clientOrgId: watch.clientOrgId,
    vendorOrgId: watch.vendorOrgId,
    itemCount: watch.itemCount,
    sentBy: watch.sentBy,
    state: watch.state,
    acceptedAt: new Date(watch.acceptedAt).toISOString(),
    checks: watch.attempts,
    lastCheckedAt: iso(watch.lastCheckedAt),
    nextCheckAt: watch.state === 'watching' ? iso(watch.nextAt) : null,
    lastStatus: watch.lastStatus,
    problem: watch.lastProblem,
    finishedAt: iso(watch.finishedAt),
    traceId: watch.traceId,
    results: watch.results
      ? {
          at: new Date(watch.results.at).toISOString(),
          rows: watch.results.rows,
          raw: watch.results.body,
        }
      : null,
  };
}

const params = z.object({ batchId: z.string().min(1).max(200) });
const query = z.object({ connection: z.string().max(200).optional() });

/**
 * `/api/watches/:batchId` (decision 050): the server's watch of a batch and the latest results it
 * kept, for the user who sent the batch or an admin (with sign-in off, whoever may use the
 * portal). Another user's batch is as unknown as one that has no watch. `?connection=` picks one
 * when two connections' VMSs gave the same batch id; without it, the newest.
 */
export const watchRoutes: FastifyPluginAsync<WatchRoutesOptions> = async (app, { config }) => {
  const store = app.watchStore;
  await registerApiGuards(app, config, 'recruiter');
  withRouteSchemas(app).get(
    '/:batchId',
    {
      config: { pageHeaders: false },
      schema: {
        params: partSchema(params),
        querystring: querySchema(query, 'A batch watch'),
        response: { 200: responseSchema(batchWatchSchema) },
      },
    },
    async (request): Promise<BatchWatch> => {
      const session = requireUser(request, config);
      const { batchId } = request.params;
      const { connection } = request.query;
      const visible = (await store.byBatch(batchId)).filter(
        (watch) =>
          (connection === undefined || watch.connection === connection) &&
          (session === null ||
            session.user.role === 'admin' ||
            watch.sentBy?.userId === session.user.id),
      );
      const [watch] = visible;
      if (!watch) {
        throw new ApiError(
          'not_found',
          `The portal watches no batch "${batchId.slice(0, 80)}"${connection === undefined ? '' : ` on ${connection.slice(0, 40)}`} that you sent. A batch is watched once the VMS has accepted it through this portal; check the batch id.`,
        );
      }
      return answerOf(watch);
    },
  );
};
