import fp from 'fastify-plugin';
import type { PortalConfig } from '@/server/config';
import type { PortalDatabase } from '@/server/store/database';
import { scheduleRetention } from '@/server/store/retention';
import { createPostgresScheduleStore } from './postgres-schedule-store';
import { createPostgresSuiteStore } from './postgres-suite-store';
import { createSqliteScheduleStore, type ScheduleStore } from './schedule-store';
import { createSqliteSuiteStore } from './sqlite-suite-store';
import { suiteRunRetention } from './suite-run-retention';
import { SuiteRunner, type SuiteRunnerOptions } from './suite-runner';
import { SuiteScheduler, type SchedulerOptions } from './suite-scheduler';
import type { SuiteStore } from './suite-store';

declare module 'fastify' {
  interface FastifyInstance {
    /** QA suite runs going on in this process (decision 038). */
    suiteRunner: SuiteRunner;
    /** QA suites, their versions and runs, on the portal database (decision 038). */
    suiteStore: SuiteStore;
    /** Suites' schedules (decision 057). */
    scheduleStore: ScheduleStore;
    /** Runs each schedule's occurrences once (decision 057). */
    suiteScheduler: SuiteScheduler;
  }
}

export interface SuitesOptions {
  config: PortalConfig;
  /** Heartbeats and waits (tests make them short). */
  runs?: Pick<SuiteRunnerOptions, 'heartbeatMs' | 'staleAfterMs' | 'resultsTimeoutMs'>;
  /** The schedules' clock and how often they are looked at (tests move the clock, tick by hand). */
  schedules?: Pick<SchedulerOptions, 'now' | 'everyMs' | 'lateAfterMs'>;
}

/**
 * QA suite runs (decision 038). A run's calls go through the proxy as whoever started the run: the
 * hook here, after the session checks, says which run a proxied call is of. A drain stops the runs
 * first, each marked interrupted with the cases done so far.
 */
export const suitesPlugin = fp<SuitesOptions>(
  async (app, { config, runs, schedules }) => {
    const store = openSuiteStore(app.database);
    app.decorate('suiteStore', store);
    scheduleRetention(app, {
      name: 'suiteRunRetention',
      factories: suiteRunRetention,
      keepMs: config.retention.suiteRunsMs,
      what: 'suite runs',
    });
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
    const scheduleStore = openScheduleStore(app.database);
    app.decorate('scheduleStore', scheduleStore);
    const scheduler = new SuiteScheduler({
      app,
      config,
      schedules: scheduleStore,
      suites: store,
      runner,
      audit: (event, fields) => app.auditTrail.auth(event, fields),
      counted: (outcome) => app.portalMetrics?.scheduledRun(outcome),
      ...schedules,
    });
    app.decorate('suiteScheduler', scheduler);
    app.lifecycle.stopFirst.push(() => scheduler.close());
    app.lifecycle.stopFirst.push(() => runner.close());
    // Occurrences missed while down are looked for once the port is open and the proxy answers.
    app.addHook('onReady', () => scheduler.start());
    app.addHook('onClose', () => scheduler.close());
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

/** The suites' schedules' store on the portal database, as this plugin and the tests open it. */
export function openScheduleStore(database: PortalDatabase): ScheduleStore {
  return database.open('suite-schedules', {
    sqlite: createSqliteScheduleStore,
    postgres: createPostgresScheduleStore,
  });
}
