import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { ApiError } from '@/domain/api-error';
import { suiteSchema, type Suite } from '@/domain/suite';
import { startRunSchema, type SuiteRun } from '@/domain/suite-run';
import { junitXml } from '@/node/suite-run';
import type { PortalConfig } from '@/server/config';
import { querySchema } from '@/server/http/route-schemas';
import { grantedConnection, parse, pathId, storedSuite } from './suite-requests';
import type { SuiteRunner } from './suite-runner';
import type { SuiteStore } from './suite-store';

const runListQuery = z.object({
  /** A stored suite's id, or `files`: the runs of suite files sent with the run. */
  suite: z
    .string()
    .regex(
      /^([1-9]\d{0,15}|files)$/,
      'suite must be the id of a suite (a whole number), or files for the runs of suite files.',
    )
    .transform((value) => (value === 'files' ? null : Number(value)))
    .optional(),
  limit: z
    .string()
    .regex(/^\d{1,3}$/, 'limit must be a whole number from 1 to 200.')
    .transform(Number)
    .pipe(
      z
        .number()
        .min(1, 'limit must be a whole number from 1 to 200.')
        .max(200, 'limit must be a whole number from 1 to 200.'),
    )
    .optional(),
});

const runQuery = z.object({
  /** Answer once the run has other than `seen` cases done, or has ended, or after this long. */
  waitMs: z
    .string()
    .regex(/^\d{1,5}$/, 'waitMs must be a whole number of milliseconds up to 25000.')
    .transform(Number)
    .pipe(z.number().max(25_000, 'waitMs must be a whole number of milliseconds up to 25000.'))
    .optional(),
  seen: z
    .string()
    .regex(/^\d{1,6}$/, 'seen must be the number of cases done the last time you read the run.')
    .transform(Number)
    .optional(),
});

/**
 * `/api/suite-runs`: start a run of a stored suite or a suite file on a connection, list the runs,
 * read one (waiting for a change if asked), and its JUnit report. Registered by suiteRoutes, behind
 * its guards.
 */
export function registerRunRoutes(
  app: FastifyInstance,
  config: PortalConfig,
  store: SuiteStore,
  runner: SuiteRunner,
): void {
  async function runOf(id: number): Promise<SuiteRun> {
    const run = await store.getRun(id);
    if (!run) {
      throw new ApiError(
        'not_found',
        `There is no suite run ${id}: its suite may have been deleted, and its runs with it.`,
      );
    }
    return run;
  }

  app.post('/api/suite-runs', { config: { pageHeaders: false } }, async (request, reply) => {
    const body = parse(startRunSchema, request.body, 'The run');
    let suite: Suite;
    let suiteId: number | null = null;
    let suiteVersion: number | null = null;
    if (body.suite !== undefined) {
      suite = parse(suiteSchema, body.suite, 'The suite file');
    } else {
      const id =
        body.suiteId ??
        (body.suiteName === undefined ? undefined : await store.suiteIdByName(body.suiteName));
      if (id === undefined) {
        const names = (await store.listSuites()).map((entry) => `"${entry.name}"`);
        throw new ApiError(
          'not_found',
          `There is no stored suite named "${body.suiteName ?? ''}". ${names.length === 0 ? 'There are none yet: save one on the Suites page, or run a suite file.' : `There are ${names.slice(0, 20).join(', ')}.`}`,
          [{ field: 'suiteName', message: 'no such suite' }],
        );
      }
      const record = await storedSuite(store, id, body.version);
      suite = suiteSchema.parse(JSON.parse(record.body));
      suiteId = id;
      suiteVersion = record.version;
    }

    const user = request.portalSession?.user ?? null;
    const { connection, permitted } = grantedConnection(
      config,
      user,
      body.connection ?? config.defaultConnection,
      { because: '', nothing: 'Nothing was run.' },
    );
    const clientOrgId = body.clientOrgId ?? permitted[0];
    if (clientOrgId === undefined || !permitted.includes(clientOrgId)) {
      throw new ApiError(
        'org_not_permitted',
        clientOrgId === undefined
          ? `Your account may act for none of the client orgs of ${connection.label} (${connection.name}); ask an admin for one. Nothing was run.`
          : `The run cannot be sent for client org ${clientOrgId} on ${connection.label} (${connection.name}): ${permitted.length === 0 ? 'you may act for none of its orgs' : `choose one of ${permitted.join(', ')}`}. Nothing was run.`,
        [{ field: 'clientOrgId', message: 'not permitted' }],
      );
    }
    const id = await runner.start({
      suite,
      suiteId,
      suiteVersion,
      connection,
      clientOrgId,
      vendorOrgId: connection.vendorOrgId,
      user,
      token: user ? request.apiToken : null,
      address: request.ip,
    });
    return reply.code(202).send(await runOf(id));
  });

  app.get<{ Querystring: z.output<typeof runListQuery> }>(
    '/api/suite-runs',
    {
      config: { pageHeaders: false },
      schema: { querystring: querySchema(runListQuery, 'The suite runs') },
    },
    async (request) => {
      const { suite, limit } = request.query;
      return {
        runs: await store.listRuns({
          ...(suite === undefined ? {} : { suiteId: suite }),
          limit: limit ?? 50,
        }),
      };
    },
  );

  app.get<{ Params: { id: string }; Querystring: z.output<typeof runQuery> }>(
    '/api/suite-runs/:id',
    {
      config: { pageHeaders: false },
      schema: { querystring: querySchema(runQuery, 'A suite run') },
    },
    async (request) => {
      const id = pathId(request.params.id, 'suite run');
      const { waitMs, seen } = request.query;
      if (waitMs !== undefined && waitMs > 0) {
        await runner.waitForChange(id, () => store.runState(id), seen ?? 0, waitMs);
      }
      return runOf(id);
    },
  );

  app.get<{ Params: { id: string } }>(
    '/api/suite-runs/:id/junit',
    { config: { pageHeaders: false } },
    async (request, reply) => {
      const run = await runOf(pathId(request.params.id, 'suite run'));
      return reply
        .header('content-type', 'application/xml; charset=utf-8')
        .header('content-disposition', `attachment; filename="suite-run-${run.id}.junit.xml"`)
        .send(junitXml(run));
    },
  );
}
