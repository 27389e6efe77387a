import type { FastifyInstance, FastifyPluginAsync, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { ApiError } from '@/domain/api-error';
import { appendCases, suiteCaseSchema, suiteSchema, type Suite } from '@/domain/suite';
import {
  addCasesSchema,
  createSuiteSchema,
  startRunSchema,
  updateSuiteSchema,
  type Actor,
  type SuiteDetail,
  type SuiteRun,
} from '@/domain/suite-run';
import { junitXml } from '@/node/suite-run';
import type { PortalConfig } from '@/server/config';
import { registerApiGuards } from '@/server/http/api-guards';
import { querySchema, withRouteSchemas } from '@/server/http/route-schemas';
import type { SuiteRecord } from './suite-store';

export interface SuiteRoutesOptions {
  config: PortalConfig;
}

/** A path id: a whole number, or the thing is not there. */
function pathId(value: string, what: string): number {
  if (!/^[1-9]\d{0,15}$/.test(value)) {
    throw new ApiError(
      'not_found',
      `There is no ${what} "${value.slice(0, 40)}": ids are whole numbers.`,
    );
  }
  return Number(value);
}

/** Zod's first problems as a sentence a QA engineer can act on, and as details. */
function invalid(error: z.ZodError, what: string): ApiError {
  const issues = error.issues.slice(0, 10);
  return new ApiError(
    'invalid_body',
    `${what}: ${issues.map((issue) => `${issue.path.join('.') || 'the body'}: ${issue.message}`).join('; ')}.`,
    issues.map((issue) => ({ field: issue.path.join('.') || 'body', message: issue.message })),
  );
}

function parse<S extends z.ZodType>(schema: S, value: unknown, what: string): z.output<S> {
  const parsed = schema.safeParse(value);
  if (!parsed.success) throw invalid(parsed.error, what);
  return parsed.data;
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

  async function suiteOf(id: number, version?: number): Promise<SuiteRecord> {
    const found = await store.getSuite(id, version);
    if (!found) {
      throw new ApiError(
        'not_found',
        version === undefined
          ? `There is no suite ${id}: it may have been deleted. Reload the list of suites.`
          : `Suite ${id} has no version ${version}. Its versions are listed under /api/suites/${id}/versions.`,
      );
    }
    return found;
  }

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
    return reply.code(201).send(detail(await suiteOf(written.id)));
  });

  app.get<{ Params: { id: string }; Querystring: z.output<typeof versionQuery> }>(
    '/api/suites/:id',
    {
      config: { pageHeaders: false },
      schema: { querystring: querySchema(versionQuery, 'A suite') },
    },
    async (request) => {
      const { version } = request.query;
      return detail(await suiteOf(pathId(request.params.id, 'suite'), version));
    },
  );

  app.get<{ Params: { id: string } }>(
    '/api/suites/:id/versions',
    { config: { pageHeaders: false } },
    async (request) => {
      const id = pathId(request.params.id, 'suite');
      await suiteOf(id);
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
      const record = await suiteOf(pathId(request.params.id, 'suite'), version);
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
    if (written.kind === 'missing') await suiteOf(id);
    if (written.kind === 'name_taken') throw nameTaken(suite.name);
    if (written.kind === 'conflict') {
      const latest = await suiteOf(id);
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
      return detail(await suiteOf(id));
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
        const latest = await suiteOf(id);
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
        if (written.kind === 'saved') return detail(await suiteOf(id));
        if (written.kind === 'name_taken') throw nameTaken(suite.name);
        if (written.kind === 'missing') await suiteOf(id);
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
      if (!(await store.deleteSuite(id))) await suiteOf(id);
      return reply.code(204).send();
    },
  );

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
      const record = await suiteOf(id, body.version);
      suite = suiteSchema.parse(JSON.parse(record.body));
      suiteId = id;
      suiteVersion = record.version;
    }

    const name = body.connection?.trim().toLowerCase() ?? config.defaultConnection;
    const connection = config.connections.find((entry) => entry.name === name);
    if (!connection) {
      throw new ApiError(
        'unknown_connection',
        `This portal has no VMS connection named "${name}". It has ${config.connections.map((entry) => entry.name).join(', ')}.`,
        [{ field: 'connection', message: 'no such connection' }],
      );
    }
    const user = request.portalSession?.user ?? null;
    if (user && !user.connections.includes(connection.name)) {
      throw new ApiError(
        'connection_not_permitted',
        `Your account may not use the connection ${connection.label} (${connection.name}); ask an admin for access. Nothing was run.`,
        [{ field: 'connection', message: 'not granted to you' }],
      );
    }
    const permitted = connection.clientOrgIds.filter(
      (org) => user === null || user.clientOrgIds.includes(org),
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
};
