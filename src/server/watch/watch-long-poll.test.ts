import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { batchWatchSchema, type BatchWatch } from '@/domain/batch-watch';
import { sandboxDemo } from '@/sandbox/index';
import { loadConfig } from '@/server/config';
import { startPortal, type RunningPortal } from '@/server/start';
import { createTestDatabase, postgresEnvName, testStoreEnv } from '@/test-support/postgres-server';
import { startTestSandbox, type TestSandbox } from '@/test-support/sandbox-client';
import { requisitionInsert } from '@/test-support/test-data';

/*
 * The browser is told of a watch's changes by a long poll of the portal's own store (decision
 * 055): `?since=<checks>&wait=<s>` answers once the watch moved past what the page holds, or
 * with it unchanged when the wait is over, and a stopping portal ends the wait.
 */

let dir: string;
let fast: TestSandbox;
let slow: TestSandbox;
let portalNumber = 0;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'watch-long-poll-'));
  fast = await startTestSandbox({ processingDelayMs: 20 });
  // Slow enough that a batch stays pending for the whole test.
  slow = await startTestSandbox({ processingDelayMs: 60_000 });
});

afterAll(async () => {
  await fast.close();
  await slow.close();
  rmSync(dir, { recursive: true, force: true });
});

async function start(
  sandbox: TestSandbox,
  firstCheckMs: number,
  env: NodeJS.ProcessEnv = {},
): Promise<RunningPortal> {
  portalNumber += 1;
  return startPortal(
    loadConfig({
      ...testStoreEnv({
        PORT: '0',
        VMS_BASE_URL: sandbox.url,
        VMS_API_KEY: sandboxDemo.apiKey,
        VMS_API_SECRET: sandboxDemo.apiSecret,
        VMS_CLIENT_ORGS: '1001',
        VMS_VENDOR_ORG_ID: String(sandboxDemo.vendorOrgId),
        VMS_PRODUCTION: 'off',
        LOG_LEVEL: 'silent',
        PORTAL_DB: join(dir, `portal-${portalNumber}.db`),
      }),
      // After the store's choice: two portals named here share one database.
      ...env,
    }),
    { watcher: { backoff: { firstMs: firstCheckMs, maxMs: Math.max(firstCheckMs, 300) } } },
  );
}

async function sendBatch(portal: RunningPortal, count: number): Promise<string> {
  const items = Array.from({ length: count }, (_, index) =>
    requisitionInsert({ clientinternalreq: `POLL-${portalNumber}-${index}` }),
  );
  const response = await fetch(
    `${portal.url}/api/vms/requisitionimport?Client_Org_Id=1001&Vendor_Org_Id=${sandboxDemo.vendorOrgId}`,
    {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(items),
    },
  );
  // The VMS accepts a batch (202) and processes it in its own time.
  expect(response.status).toBe(202);
  return ((await response.json()) as { batchid: string }).batchid;
}

async function readWatch(portal: RunningPortal, batchId: string, query = ''): Promise<BatchWatch> {
  const response = await fetch(`${portal.url}/api/watches/${batchId}${query}`);
  expect(response.status).toBe(200);
  return batchWatchSchema.parse(await response.json());
}

/** Reads the watch until `done`, without a long poll. */
async function waitFor(portal: RunningPortal, batchId: string, done: (w: BatchWatch) => boolean) {
  const deadline = Date.now() + 15_000;
  for (;;) {
    const response = await fetch(`${portal.url}/api/watches/${batchId}`);
    if (response.status === 200) {
      const watch = batchWatchSchema.parse(await response.json());
      if (done(watch)) return watch;
    }
    if (Date.now() > deadline) throw new Error(`batch ${batchId} did not get there`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('the long poll of a watch', () => {
  it('answers once the watch was checked again, not with what the page holds', async () => {
    const portal = await start(slow, 100);
    try {
      const batchId = await sendBatch(portal, 2);
      const held = await waitFor(portal, batchId, (watch) => watch.checks >= 1);
      const told = await readWatch(portal, batchId, `?since=${held.checks}&wait=20`);
      expect(told.state).toBe('watching');
      expect(told.checks).toBeGreaterThan(held.checks);
    } finally {
      await portal.close();
    }
  });

  it('answers a finished watch at once, and a still one unchanged when the wait is over', async () => {
    const fastPortal = await start(fast, 50);
    try {
      const batchId = await sendBatch(fastPortal, 2);
      const settled = await waitFor(fastPortal, batchId, (watch) => watch.state === 'settled');
      // Its checks no longer move: were it waited on, this would take the whole 20 s.
      const again = await readWatch(fastPortal, batchId, `?since=${settled.checks}&wait=20`);
      expect(again.state).toBe('settled');
      expect(again.results?.rows.map((row) => row.status)).toEqual(['Success', 'Success']);
    } finally {
      await fastPortal.close();
    }

    // The first check an hour away: nothing changes during the wait.
    const quiet = await start(slow, 3_600_000);
    try {
      const batchId = await sendBatch(quiet, 1);
      const held = await waitFor(quiet, batchId, () => true);
      const started = Date.now();
      const unchanged = await readWatch(quiet, batchId, `?since=${held.checks}&wait=1`);
      expect(Date.now() - started).toBeGreaterThanOrEqual(900);
      expect(unchanged).toEqual(held);
    } finally {
      await quiet.close();
    }
  });

  it('ends a waiting request when the portal stops, rather than hold the stop for the wait', async () => {
    const quiet = await start(slow, 3_600_000);
    const batchId = await sendBatch(quiet, 1);
    await waitFor(quiet, batchId, () => true);
    const waiting = fetch(`${quiet.url}/api/watches/${batchId}?since=0&wait=25`).then(
      (response) => response.status,
      () => 'no answer',
    );
    await new Promise((resolve) => setTimeout(resolve, 300));
    const stopped = Date.now();
    await quiet.close();
    // Answered (the watch as it is) or cut off, but not after 25 s.
    expect([200, 'no answer']).toContain(await waiting);
    expect(Date.now() - stopped).toBeLessThan(15_000);
  });

  it('refuses a wait longer than 25 s with a message that says so', async () => {
    const quiet = await start(slow, 3_600_000);
    try {
      const batchId = await sendBatch(quiet, 1);
      await waitFor(quiet, batchId, () => true);
      const response = await fetch(`${quiet.url}/api/watches/${batchId}?since=0&wait=600`);
      expect(response.status).toBe(400);
      expect(await response.text()).toMatch(/wait/i);
    } finally {
      await quiet.close();
    }
  });

  it('tells a page waiting on one process of a check another process made on the same PostgreSQL', async () => {
    const adminUrl = process.env[postgresEnvName];
    if (!adminUrl) throw new Error(`${postgresEnvName} is unset: the global setup starts it`);
    const shared = { DATABASE_URL: createTestDatabase(adminUrl) };
    // The one that watches, and one that only answers pages: every check is the other's.
    const watching = await start(slow, 100, shared);
    const answering = await start(slow, 100, { ...shared, WATCH: 'off' });
    try {
      const batchId = await sendBatch(watching, 1);
      const held = await waitFor(answering, batchId, (watch) => watch.checks >= 1);
      const told = await readWatch(answering, batchId, `?since=${held.checks}&wait=20`);
      expect(told.state).toBe('watching');
      expect(told.checks).toBeGreaterThan(held.checks);
    } finally {
      await answering.close();
      await watching.close();
    }
  });
});
