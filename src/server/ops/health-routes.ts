import type { FastifyPluginAsync } from 'fastify';
import fp from 'fastify-plugin';
import { z } from 'zod';
import { responseSchema, withRouteSchemas } from '@/server/http/route-schemas';
import { journalReadyBacklog } from '@/server/journal/call-journal';
import type { PortalDatabase } from '@/server/store/database';
import { withDeadline } from './deadline';

/**
 * How long readiness waits for the database to answer: a probe must answer well within a
 * load balancer's own timeout (commonly 1 to 5 s), and a database that takes longer is not one
 * to route sends to.
 */
const readyDatabaseWaitMs = 2000;

/** The database as the probes report it: which kind, and its schema version (null: unreadable). */
const databaseStateSchema = z.object({
  kind: z.enum(['sqlite', 'postgres']),
  schemaVersion: z.number().int().nullable(),
});

/** A probe's answer: one of its `statuses`, the database, and why when it is not `ok`. */
function probeSchema<const S extends readonly [string, ...string[]]>(statuses: S) {
  return z.object({
    status: z.enum(statuses),
    database: databaseStateSchema,
    reasons: z.array(z.string()).optional(),
  });
}

/** `/api/health`: always 200; `degraded` with its reasons when something is wrong. */
const healthSchema = probeSchema(['ok', 'degraded']);

/** `/api/health/ready`: 200 `ok`, or 503 with why not. */
const readySchema = probeSchema(['ok', 'draining', 'unavailable']);

interface DatabaseHealth {
  database: z.infer<typeof databaseStateSchema>;
  problem: string | null;
}

/**
 * What /api/health says of the portal database: which kind, its schema version, and whether it
 * answers a read now (a failed write shows through the parts' own reports).
 */
async function databaseHealth(stores: PortalDatabase): Promise<DatabaseHealth> {
  try {
    const version = await stores.schemaVersion();
    return { database: { kind: stores.kind, schemaVersion: version }, problem: null };
  } catch (error) {
    return {
      database: { kind: stores.kind, schemaVersion: null },
      problem: `the portal database cannot be read: ${error instanceof Error ? error.message.slice(0, 200) : 'unknown error'}`,
    };
  }
}

export interface HealthRoutesOptions {
  /** More health checks (the embedded sandbox's): each returns its problems, none when well. */
  checks: (() => string[])[];
}

/**
 * /api/health (people and monitoring: what is wrong), /api/health/live (the process answers) and
 * /api/health/ready (send calls here now?). None needs a session (auth-hooks.ts lets the probes
 * through before reading one) or says anything secret. The port opens once every part has
 * opened, so the probes answer from the first request on (decision 041).
 */
const routes: FastifyPluginAsync<HealthRoutesOptions> = async (app, { checks }) => {
  const api = withRouteSchemas(app);
  const { database: stores, lifecycle, healthReports } = app;
  const portalSchemaVersion = stores.knownSchemaVersion;

  // `/api/health` only, not `/api/health/` too.
  api.get(
    '/',
    {
      prefixTrailingSlash: 'no-slash',
      schema: { response: { 200: responseSchema(healthSchema) } },
    },
    async (): Promise<z.input<typeof healthSchema>> => {
      const { database, problem } = await databaseHealth(stores);
      const reasons = [
        ...(problem === null ? [] : [problem]),
        ...healthReports.list(),
        ...checks.flatMap((check) => check()),
      ];
      return reasons.length === 0
        ? { status: 'ok', database }
        : { status: 'degraded', database, reasons };
    },
  );

  // Liveness: the process answers. Nothing else is asked of it (no database, no journal), so a
  // database outage or a drain never makes an orchestrator kill a process that could recover
  // or is finishing its calls.
  api.get(
    '/live',
    { schema: { response: { 200: responseSchema(z.object({ status: z.literal('ok') })) } } },
    async () => ({ status: 'ok' as const }),
  );

  // Readiness: whether a load balancer should send calls here now. Only conditions read afresh
  // on each probe count.
  const ready = responseSchema(readySchema);
  api.get(
    '/ready',
    { schema: { response: { 200: ready, 503: ready } } },
    async (_request, reply): Promise<z.input<typeof readySchema>> => {
      const reasons: string[] = [];
      if (lifecycle.draining) {
        reasons.push('draining: this portal process is shutting down and takes no new sends');
      }
      const { database, problem } = await withDeadline(
        databaseHealth(stores),
        readyDatabaseWaitMs,
        (): DatabaseHealth => ({
          database: { kind: stores.kind, schemaVersion: null },
          problem: `the portal database did not answer within ${readyDatabaseWaitMs} ms`,
        }),
      );
      if (problem !== null) {
        reasons.push(problem);
      } else if (database.schemaVersion !== portalSchemaVersion) {
        reasons.push(
          `the portal database's schema is version ${database.schemaVersion}, but this portal works with version ${portalSchemaVersion}`,
        );
      }
      const backlog = app.journal?.backlog ?? 0;
      if (backlog >= journalReadyBacklog) {
        reasons.push(
          `call journal: ${backlog} calls wait to be written (ready below ${journalReadyBacklog})`,
        );
      }
      if (reasons.length > 0) reply.code(503);
      return reasons.length === 0
        ? { status: 'ok', database }
        : { status: lifecycle.draining ? 'draining' : 'unavailable', database, reasons };
    },
  );
};

export const healthRoutes = fp(routes, {
  name: 'health-routes',
  fastify: '5.x',
  encapsulate: true,
  dependencies: ['ops', 'database', 'journal'],
});
