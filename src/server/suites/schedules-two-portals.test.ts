import { afterAll, beforeAll, expect, it } from 'vitest';
import { notificationListSchema } from '@/domain/notifications';
import { suiteDetailSchema, suiteRunListSchema, suiteRunSchema } from '@/domain/suite-run';
import { suiteScheduleSchema } from '@/domain/suite-schedule';
import { sandboxDemo } from '@/sandbox/index';
import { loadConfig } from '@/server/config';
import { startTestPortal, type TestPortal } from '@/test-support/capture-upstream';
import { createTestDatabase, postgresEnvName } from '@/test-support/postgres-server';
import { startTestSandbox, type TestSandbox } from '@/test-support/sandbox-client';
import { addUser, TestBrowser } from '@/test-support/test-browser';
import { requisitionInsert } from '@/test-support/test-data';

/*
 * Two portal processes on one PostgreSQL (decision 057), on one test clock: both look for the
 * schedule's occurrences at the same moments, and each occurrence runs once, by whichever process
 * took it, and tells each person once.
 */

const password = 'correct horse battery staple';
const minute = 60_000;
let sandbox: TestSandbox;
let portals: TestPortal[] = [];
let ahead = 0;

beforeAll(async () => {
  const adminUrl = process.env[postgresEnvName];
  if (!adminUrl) throw new Error(`${postgresEnvName} is unset: the global setup starts it`);
  const databaseUrl = createTestDatabase(adminUrl);
  sandbox = await startTestSandbox({ processingDelayMs: 0 });
  const config = loadConfig({
    VMS_BASE_URL: sandbox.url,
    VMS_API_KEY: sandboxDemo.apiKey,
    VMS_API_SECRET: sandboxDemo.apiSecret,
    VMS_CLIENT_ORGS: '1001',
    VMS_VENDOR_ORG_ID: String(sandboxDemo.vendorOrgId),
    VMS_PRODUCTION: 'off',
    AUTH: 'on',
    DATABASE_URL: databaseUrl,
    LOG_LEVEL: 'silent',
  });
  const schedules = { now: () => Date.now() + ahead, everyMs: 0 };
  portals = [
    await startTestPortal(config, { suiteSchedules: schedules }),
    await startTestPortal(config, { suiteSchedules: schedules }),
  ];
  await addUser({ databaseUrl }, 'quinn@example.com', password, 'qa', [1001]);
});

afterAll(async () => {
  await Promise.all(portals.map((portal) => portal.close()));
  await sandbox.close();
});

it('runs each occurrence once across two processes looking at the same moments, and tells once', async () => {
  const [one, two] = portals;
  if (!one || !two) throw new Error('two portals');
  const quinn = new TestBrowser(one.url);
  expect((await quinn.signIn('quinn@example.com', password)).status).toBe(200);
  const created = await quinn.call('POST', '/api/suites', {
    body: {
      suite: {
        name: 'Every minute',
        cases: [
          {
            id: 'create-req',
            name: 'Create req',
            kind: 'requisition',
            item: requisitionInsert({ clientinternalreq: 'TWO-{{run.id}}' }),
            expect: { status: 'Success' },
          },
        ],
      },
    },
  });
  const suiteId = suiteDetailSchema.parse(created.json()).id;
  const added = await quinn.call('POST', `/api/suites/${suiteId}/schedules`, {
    body: {
      cron: '* * * * *',
      timeZone: 'UTC',
      connection: 'default',
      notify: ['quinn@example.com'],
      missed: 'run-once',
    },
  });
  expect(added.status, added.text).toBe(201);
  const scheduleId = suiteScheduleSchema.parse(added.json()).id;

  for (const step of [1, 2, 3]) {
    ahead = step * minute;
    // Both processes look at once, twice each.
    await Promise.all([
      one.app.suiteScheduler.tick(),
      two.app.suiteScheduler.tick(),
      one.app.suiteScheduler.tick(),
      two.app.suiteScheduler.tick(),
    ]);
    // A run one process ended may be told of by the other's look meanwhile: a look awaits what
    // its process is still telling.
    await Promise.all([one.app.suiteScheduler.tick(), two.app.suiteScheduler.tick()]);
  }
  const runs = suiteRunListSchema.parse(
    (await quinn.call('GET', `/api/suite-runs?suite=${suiteId}`)).json(),
  ).runs;
  expect(runs.map((run) => run.status)).toEqual(['finished', 'finished', 'finished']);
  const told = notificationListSchema.parse((await quinn.call('GET', '/api/notifications')).json());
  expect(told.items.filter((item) => item.kind === 'suite.scheduled_run')).toHaveLength(3);
  expect(told.items.map((item) => item.link)).toEqual(
    runs.map((run) => `/suites/${suiteId}/runs/${run.id}`),
  );

  // A run that ended with no process left to tell of it (its process died first) is told of at
  // the next look, by one of the two.
  const started = await quinn.call('POST', '/api/suite-runs', { body: { suiteId } });
  const orphan = suiteRunSchema.parse(started.json()).id;
  await one.app.suiteRunner.finished(orphan);
  const longAgo = Math.floor(Date.now() / minute) * minute - 30 * minute;
  expect(await one.app.scheduleStore.takeOccurrence(scheduleId, longAgo, 'run', Date.now())).toBe(
    true,
  );
  await one.app.scheduleStore.setOccurrenceRun(scheduleId, longAgo, orphan);
  await Promise.all([one.app.suiteScheduler.tick(), two.app.suiteScheduler.tick()]);
  await Promise.all([one.app.suiteScheduler.tick(), two.app.suiteScheduler.tick()]);
  const later = notificationListSchema.parse(
    (await quinn.call('GET', '/api/notifications')).json(),
  );
  expect(later.items.map((item) => item.link)).toEqual([
    `/suites/${suiteId}/runs/${orphan}`,
    ...runs.map((run) => `/suites/${suiteId}/runs/${run.id}`),
  ]);
});
