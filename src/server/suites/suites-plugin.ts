import fp from 'fastify-plugin';
import type { PortalConfig } from '@/server/config';
import type { PortalDatabase } from '@/server/store/database';
import { createPostgresSuiteStore } from './postgres-suite-store';
import { createSqliteSuiteStore } from './sqlite-suite-store';
import { SuiteRunner, type SuiteRunnerOptions } from './suite-runner';
import type { SuiteStore } from './suite-store';

declare module 'fastify' {
  interface FastifyInstance {
    /** QA suite runs going on in this process (decision 038). */
    suiteRunner: SuiteRunner;
    /** QA suites, their versions and runs, on the portal database (decision 038). */
    suiteStore: SuiteStore;
  }
}

export interface SuitesOptions {
  config: PortalConfig;
  /** Heartbeats and waits (tests make them short). */
  runs?: Pick<SuiteRunnerOptions, 'heartbeatMs' | 'staleAfterMs' | 'resultsTimeoutMs'>;
}

/**
 * QA suite runs (decision 038). A run's calls go through the proxy as whoever started the run: the
 * hook here, after the session checks, says which run a proxied call is of. A drain stops the runs
 * first, each marked interrupted with the cases done so far.
 */
export const suitesPlugin = fp<SuitesOptions>(
  async (app, { config, runs }) => {
    const store = openSuiteStore(app.database);
    app.decorate('suiteStore', store);
    const runner = new SuiteRunner({
      app,
      store: Promise.resolve(store),
      shared: Promise.resolve(app.database.shared),
      signInRequired: config.auth.required,
      log: app.log,
      ...runs,
    });
    app.decorate('suiteRunner', runner);
    app.decorateRequest('suiteRun', null);
    app.addHook('onRequest', runner.identify);
    app.lifecycle.stopFirst.push(() => runner.close());
  },
  { name: 'suites', fastify: '5.x', dependencies: ['ops', 'database', 'accounts', 'api-tokens'] },
);

/** The suites' store on the portal database, as this plugin and the tests' stores open it. */
export function openSuiteStore(database: PortalDatabase): SuiteStore {
  return database.open('suites', {
    sqlite: createSqliteSuiteStore,
    postgres: createPostgresSuiteStore,
  });
}
