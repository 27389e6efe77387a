import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Suite } from '@/domain/suite';
import { suiteRunSchema, type SuiteRun } from '@/domain/suite-run';
import { junitXml } from '@/node/suite-run';
import { sandboxDemo } from '@/sandbox/index';
import { loadConfig } from '@/server/config';
import { startPortal } from '@/server/start';
import { openPortalStores } from '@/test-support/portal-stores';
import { createTestDatabase, postgresEnvName } from '@/test-support/postgres-server';
import { startTestSandbox, type TestSandbox } from '@/test-support/sandbox-client';
import { requisitionInsert } from '@/test-support/test-data';

/*
 * A run the portal does not finish is never left "running" (decision 038): stopped by a drain
 * (a restart), it is marked interrupted with the cases done by then; left running by a process
 * that died, it is marked so when a portal next opens the database (SQLite, the process's alone)
 * or when its heartbeat has gone stale (PostgreSQL, shared with processes that may be running it).
 */

let dir: string;
let sandbox: TestSandbox;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'suite-interrupted-'));
  // Slow enough that a run is still going when the portal is stopped.
  sandbox = await startTestSandbox({ processingDelayMs: 100 });
});

afterAll(async () => {
  await sandbox.close();
  rmSync(dir, { recursive: true, force: true });
});

function config(env: Record<string, string>) {
  return loadConfig({
    PORT: '0',
    VMS_BASE_URL: sandbox.url,
    VMS_API_KEY: sandboxDemo.apiKey,
    VMS_API_SECRET: sandboxDemo.apiSecret,
    VMS_CLIENT_ORGS: '1001',
    VMS_VENDOR_ORG_ID: String(sandboxDemo.vendorOrgId),
    VMS_PRODUCTION: 'off',
    LOG_LEVEL: 'silent',
    ...env,
  });
}

async function readRun(url: string, id: number): Promise<SuiteRun> {
  return suiteRunSchema.parse(await (await fetch(`${url}/api/suite-runs/${id}`)).json());
}

const slowSuite: Suite = {
  name: 'Slow',
  // Two waves of five: the second needs the first's ids.
  cases: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10].map((n) => ({
    id: `req-${n}`,
    kind: 'requisition',
    item: requisitionInsert({
      clientinternalreq: `SLOW-${n}-{{run.id}}`,
      ...(n > 5 ? { shortdescription: `After {{req-${n - 5}.createdId}}` } : {}),
    }),
    expect: { status: 'Success' },
  })),
};

describe('a run the portal does not finish', () => {
  it('is marked interrupted when the portal is drained for a restart, with the cases done by then', async () => {
    const portalDb = join(dir, 'drained.db');
    const first = await startPortal(config({ PORTAL_DB: portalDb }));
    const started = await fetch(`${first.url}/api/suite-runs`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ suite: slowSuite }),
    });
    expect(started.status).toBe(202);
    const { id } = suiteRunSchema.parse(await started.json());
    // The restart comes while the first wave is at the VMS (five items, 100 ms each), some of
    // its cases already done.
    await expect
      .poll(async () => (await readRun(first.url, id)).casesDone, { timeout: 5000, interval: 20 })
      .toBeGreaterThan(0);
    await first.drain();

    const second = await startPortal(config({ PORTAL_DB: portalDb }));
    try {
      const run = await readRun(second.url, id);
      expect(run.status).toBe('interrupted');
      expect(run.interruption).toBe(
        'the portal was stopped (a restart or shutdown) while the run went on; the cases done by then are kept, the rest did not run',
      );
      expect(run.finishedAt).not.toBeNull();
      expect(run.casesDone).toBeGreaterThan(0);
      expect(run.casesDone).toBeLessThan(10);
      expect(run.cases).toHaveLength(run.casesDone);
      // What it did is kept: each case done passed.
      expect(run.cases.every((entry) => entry.passed)).toBe(true);
      // For CI, the cases it never reached are an error of the run, not passes.
      expect(junitXml(run)).toContain(
        `<testcase classname="Slow" name="${10 - run.casesDone} cases not run" time="0">`,
      );
    } finally {
      await second.close();
    }
  });

  it('left running by a portal that died is marked interrupted when a portal next opens its SQLite file', async () => {
    const portalDb = join(dir, 'crashed.db');
    const stores = await openPortalStores({ portalDb, databaseUrl: null });
    const id = await stores.suites.createRun({
      suiteId: null,
      suiteName: 'Crashed',
      suiteVersion: null,
      connection: 'default',
      clientOrgId: 1001,
      vendorOrgId: 9001,
      runToken: '0badc0de',
      startedAt: Date.now(),
      startedBy: null,
      casesTotal: 3,
    });
    await stores.close();

    const portal = await startPortal(config({ PORTAL_DB: portalDb }));
    try {
      expect(await readRun(portal.url, id)).toMatchObject({
        status: 'interrupted',
        interruption:
          'the portal process running it stopped without finishing it (a crash or a restart); the cases done by then are kept, the rest did not run',
      });
    } finally {
      await portal.close();
    }
  });

  it('on a shared PostgreSQL, is marked interrupted once its heartbeat is stale, and not while another process may run it', async () => {
    const adminUrl = process.env[postgresEnvName];
    if (!adminUrl) throw new Error(`${postgresEnvName} is unset: the global setup starts it`);
    const databaseUrl = createTestDatabase(adminUrl);
    const stores = await openPortalStores({ portalDb: ':memory:', databaseUrl });
    const run = (startedAt: number) =>
      stores.suites.createRun({
        suiteId: null,
        suiteName: 'Elsewhere',
        suiteVersion: null,
        connection: 'default',
        clientOrgId: 1001,
        vendorOrgId: 9001,
        runToken: '0badc0de',
        startedAt,
        startedBy: null,
        casesTotal: 3,
      });
    const dead = await run(Date.now() - 120_000);
    const alive = await run(Date.now());

    const portal = await startPortal(config({ PORTAL_DB: ':memory:', DATABASE_URL: databaseUrl }), {
      suiteRuns: { heartbeatMs: 50, staleAfterMs: 60_000 },
    });
    try {
      await expect
        .poll(async () => (await readRun(portal.url, dead)).status, { timeout: 5000 })
        .toBe('interrupted');
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect((await readRun(portal.url, alive)).status).toBe('running');
    } finally {
      await portal.close();
      await stores.close();
    }
  });
});
