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

/** The longest long poll: under the browser's request timeout and common proxies' idle limits. */
export const maxWaitSeconds = 25;

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
const query = z.object({
  connection: z.string().max(200).optional(),
  /** The `checks` of the watch the browser holds: answer once the watch has moved past it. */
  since: z.coerce.number().int().min(0).optional(),
  /** Seconds to wait for that change (a long poll); the watch as it is when they pass. */
  wait: z.coerce.number().int().min(0).max(maxWaitSeconds).default(0),
});

/**
 * How often a waiting request reads the store again. The store is the truth: the check that
 * moved the watch may have been made by another portal process on the same PostgreSQL, which no
 * event in this one hears of. One read a second per waiting page is cheap beside the watcher's
 * calls, and the watch's own checks are a second or more apart.
 */
const storeReadMs = 1_000;

/** The watch moved past what the browser holds: another check, or it finished. */
const movedPast = (watch: StoredWatch, since: number | undefined) =>
  since === undefined || watch.attempts !== since || watch.state !== 'watching';

/** Resolves after `ms`, or at once when `signal` aborts. */
function pause(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve();
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    }
    signal.addEventListener('abort', done, { once: true });
  });
}

/**
 * `/api/watches/:batchId` (decisions 050 and 055): the server's watch of a batch and the latest
 * results it kept, for the user who sent the batch or an admin (with sign-in off, whoever may use
 * the portal). Another user's batch is as unknown as one that has no watch. `?connection=` picks
 * one when two connections' VMSs gave the same batch id; without it, the newest. With `since`
 * (the `checks` the browser holds) and `wait` (seconds), it answers as soon as the watch moved
 * past `since` or finished, else with the watch unchanged when the wait is over: the browser is
 * told of each check without asking the VMS.
 */
export const watchRoutes: FastifyPluginAsync<WatchRoutesOptions> = async (app, { config }) => {
  const store = app.watchStore;
  // A waiting request ends when the portal stops, so a drain does not wait out a long poll.
  const stopping = new AbortController();
  app.addHook('preClose', async () => stopping.abort());
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
    async (request, reply): Promise<BatchWatch> => {
      const session = requireUser(request, config);
      const { batchId } = request.params;
      const { connection, since, wait } = request.query;
      const read = async () =>
        (await store.byBatch(batchId)).find(
          (watch) =>
            (connection === undefined || watch.connection === connection) &&
            (session === null ||
              session.user.role === 'admin' ||
              watch.sentBy?.userId === session.user.id),
        );
      let watch = await read();
      if (watch && !movedPast(watch, since) && wait > 0) {
        const gone = new AbortController();
        // The page went away (closed, or moved on): its answer would reach no one.
        reply.raw.once('close', () => gone.abort());
        const ended = AbortSignal.any([gone.signal, stopping.signal]);
        const until = Date.now() + wait * 1000;
        while (watch && !movedPast(watch, since) && !ended.aborted && Date.now() < until) {
          await pause(Math.min(storeReadMs, until - Date.now()), ended);
          watch = await read();
        }
        // Answered as the portal stops: the connection must not then stay open, idle, holding
        // the stop until its keep-alive runs out (the server closed only the idle ones).
        if (stopping.signal.aborted) reply.header('connection', 'close');
      }
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
