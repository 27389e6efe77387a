import type { FastifyInstance, FastifyPluginAsync, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { ApiError } from '@/domain/api-error';
import { appendCases, suiteCaseSchema, suiteSchema, type Suite } from '@/domain/suite';
import {
  addCasesSchema,
  createSuiteSchema,
  updateSuiteSchema,
  type Actor,
  type SuiteDetail,
} from '@/domain/suite-run';
import type { PortalConfig } from '@/server/config';
import { registerApiGuards } from '@/server/http/api-guards';
import { querySchema, withRouteSchemas } from '@/server/http/route-schemas';
import { registerScheduleRoutes } from './schedule-routes';
import { parse, pathId, storedSuite } from './suite-requests';
import { registerRunRoutes } from './suite-run-routes';
import type { SuiteRecord } from './suite-store';

export interface SuiteRoutesOptions {
  config: PortalConfig;
}

function actorOf(request: FastifyRequest): Actor {
  const user = request.portalSession?.user;
  return user ? { userId: user.id, email: user.email } : null;
}

const versionQuery = z.object({
  version: z
    .string()
    .regex(/^[1-9]\d{0,8}$/, 'version must be a version number such as 3.')
    .transform(Number)
    .optional(),
});

/**
 * QA suites on the server (decision 038): `/api/suites` to keep them (each edit a new version)
 * and `/api/suite-runs` to run them on a connection and read the runs. For QA and admins.
 */
export const suiteRoutes: FastifyPluginAsync<SuiteRoutesOptions> = async (
  app: FastifyInstance,
  { config },
) => {
  await registerApiGuards(app, config, 'qa');
  // Query strings are checked by their schemas before a handler runs (invalid_parameter).
  withRouteSchemas(app);
  const store = app.suiteStore;
  const runner = app.suiteRunner;
  // Registered after the proxy, so run before its close (Fastify closes plugins in the reverse
  // order): the runs stop and are marked interrupted while the proxy and the database are there.
  app.addHook('onClose', async () => {
    await runner.close();
  });

  function detail(record: SuiteRecord): SuiteDetail {
    return {
      id: record.id,
      name: record.name,
      version: record.version,
      latestVersion: record.latestVersion,
      savedAt: new Date(record.savedAt).toISOString(),
      savedBy: record.savedBy,
      suite: suiteSchema.parse(JSON.parse(record.body)),
    };
  }

  function nameTaken(name: string): ApiError {
    return new ApiError(
      'suite_exists',
      `A suite named "${name}" already exists. Give this one another name, or add the cases to that suite.`,
      [{ field: 'name', message: 'taken' }],
    );
  }

  app.get('/api/suites', { config: { pageHeaders: false } }, async () => {
    const [suites, latest] = await Promise.all([store.listSuites(), store.latestRuns()]);
    return {
      suites: suites.map((suite) => ({
        ...suite,
        updatedAt: new Date(suite.updatedAt).toISOString(),
        lastRun: latest.get(suite.id) ?? null,
      })),
    };
  });

  app.post('/api/suites', { config: { pageHeaders: false } }, async (request, reply) => {
    const { suite: file } = parse(createSuiteSchema, request.body, 'The new suite');
    const suite = parse(suiteSchema, file, 'The suite');
    const written = await store.createSuite(suite, actorOf(request), Date.now());
    if (written.kind === 'name_taken') throw nameTaken(suite.name);
    if (written.kind !== 'saved') throw new Error(`unexpected ${written.kind}`);
    return reply.code(201).send(detail(await storedSuite(store, written.id)));
  });

  app.get<{ Params: { id: string }; Querystring: z.output<typeof versionQuery> }>(
    '/api/suites/:id',
    {
      config: { pageHeaders: false },
      schema: { querystring: querySchema(versionQuery, 'A suite') },
    },
    async (request) => {
      const { version } = request.query;
      return detail(await storedSuite(store, pathId(request.params.id, 'suite'), version));
    },
  );

  app.get<{ Params: { id: string } }>(
    '/api/suites/:id/versions',
    { config: { pageHeaders: false } },
    async (request) => {
      const id = pathId(request.params.id, 'suite');
      await storedSuite(store, id);
      return { versions: await store.suiteVersions(id) };
    },
  );

  app.get<{ Params: { id: string }; Querystring: z.output<typeof versionQuery> }>(
    '/api/suites/:id/export',
    {
      config: { pageHeaders: false },
      schema: { querystring: querySchema(versionQuery, 'A suite') },
    },
    async (request, reply) => {
      const { version } = request.query;
      const record = await storedSuite(store, pathId(request.params.id, 'suite'), version);
      const file = record.name.replace(/[^A-Za-z0-9._-]+/g, '-').slice(0, 80) || 'suite';
      return reply
        .header('content-type', 'application/json; charset=utf-8')
        .header('content-disposition', `attachment; filename="${file}.suite.json"`)
        .send(`${JSON.stringify(JSON.parse(record.body), null, 2)}\n`);
    },
  );

  /** Saves `suite` as the version after `baseVersion`; a conflict says who saved what since. */
  async function save(id: number, baseVersion: number, suite: Suite, by: Actor) {
    const written = await store.saveSuite(id, baseVersion, suite, by, Date.now());
    if (written.kind === 'missing') await storedSuite(store, id);
    if (written.kind === 'name_taken') throw nameTaken(suite.name);
    if (written.kind === 'conflict') {
      const latest = await storedSuite(store, id);
      throw new ApiError(
        'version_conflict',
        `The suite was changed since you opened it: version ${latest.version} was saved by ${latest.savedBy?.email ?? 'someone'} at ${new Date(latest.savedAt).toISOString()}, and you edited version ${baseVersion}. Nothing was saved: open the latest version, make your change again, and save.`,
        [{ field: 'baseVersion', message: `the latest version is ${latest.version}` }],
      );
    }
    return written;
  }

  app.put<{ Params: { id: string } }>(
    '/api/suites/:id',
    { config: { pageHeaders: false } },
    async (request) => {
      const id = pathId(request.params.id, 'suite');
      const body = parse(updateSuiteSchema, request.body, 'The suite');
      const suite = parse(suiteSchema, body.suite, 'The suite');
      await save(id, body.baseVersion, suite, actorOf(request));
      return detail(await storedSuite(store, id));
    },
  );

  app.post<{ Params: { id: string } }>(
    '/api/suites/:id/cases',
    { config: { pageHeaders: false } },
    async (request) => {
      const id = pathId(request.params.id, 'suite');
      const body = parse(addCasesSchema, request.body, 'The cases');
      const added = parse(z.array(suiteCaseSchema), body.cases, 'The cases');
      // Added to whatever version is the latest: a version saved meanwhile is read again.
      for (let attempt = 0; attempt < 5; attempt += 1) {
        const latest = await storedSuite(store, id);
        const suite = parse(
          suiteSchema,
          appendCases(suiteSchema.parse(JSON.parse(latest.body)), added),
          'The suite with these cases',
        );
        const written = await store.saveSuite(
          id,
          latest.version,
          suite,
          actorOf(request),
          Date.now(),
        );
        if (written.kind === 'saved') return detail(await storedSuite(store, id));
        if (written.kind === 'name_taken') throw nameTaken(suite.name);
        if (written.kind === 'missing') await storedSuite(store, id);
      }
      throw new ApiError(
        'version_conflict',
        'Others are saving this suite right now, and the cases could not be added after theirs. Nothing was saved; try again in a moment.',
      );
    },
  );

  app.delete<{ Params: { id: string } }>(
    '/api/suites/:id',
    { config: { pageHeaders: false } },
    async (request, reply) => {
      const id = pathId(request.params.id, 'suite');
      if (await store.hasRunning(id)) {
        throw new ApiError(
          'suite_running',
          'The suite is running now. Wait for the run to end, then delete the suite.',
        );
      }
      if (!(await store.deleteSuite(id))) await storedSuite(store, id);
      return reply.code(204).send();
    },
  );

  registerRunRoutes(app, config, store, runner);
  registerScheduleRoutes(app, config, store, app.scheduleStore);
};
