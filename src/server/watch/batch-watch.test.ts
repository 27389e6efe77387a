import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditPageSchema } from '@/domain/audit';
import { batchWatchSchema, type BatchWatch } from '@/domain/batch-watch';
import { journalPageSchema } from '@/domain/journal';
import { sandboxDemo } from '@/sandbox/index';
import { loadConfig } from '@/server/config';
import { startPortal, type RunningPortal, type StartPortalOptions } from '@/server/start';
import {
  requisitionImportPath,
  startCaptureUpstream,
  startTestPortal,
  testConfig,
  type CaptureUpstream,
} from '@/test-support/capture-upstream';
import { testStoreEnv } from '@/test-support/postgres-server';
import { startTestSandbox, type TestSandbox } from '@/test-support/sandbox-client';
import { requisitionInsert } from '@/test-support/test-data';
import { queryTestDatabase } from '@/test-support/test-database';

/*
 * The server watches every batch the VMS accepted until it settles (decision 050), against the
 * real sandbox on a free port and a real SQLite file (PostgreSQL in the postgres project): recorded once, asked about through the
 * proxy with a growing backoff, kept, given up after the limit, resumed after a restart.
 */

let dir: string;
let fast: TestSandbox;
let slow: TestSandbox;
let portalNumber = 0;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'batch-watch-'));
  fast = await startTestSandbox({ processingDelayMs: 20 });
  // Slow enough that a batch stays pending for the whole test.
  slow = await startTestSandbox({ processingDelayMs: 60_000 });
});

afterAll(async () => {
  await fast.close();
  await slow.close();
  rmSync(dir, { recursive: true, force: true });
});

function portalDb(): string {
  portalNumber += 1;
  return join(dir, `portal-${portalNumber}.db`);
}

async function start(
  sandbox: TestSandbox,
  db: string,
  options: StartPortalOptions = {},
  env: Record<string, string> = {},
): Promise<RunningPortal> {
  return startPortal(
    loadConfig(
      testStoreEnv({
        PORT: '0',
        VMS_BASE_URL: sandbox.url,
        VMS_API_KEY: sandboxDemo.apiKey,
        VMS_API_SECRET: sandboxDemo.apiSecret,
        VMS_CLIENT_ORGS: '1001',
        VMS_VENDOR_ORG_ID: String(sandboxDemo.vendorOrgId),
        VMS_PRODUCTION: 'off',
        LOG_LEVEL: 'silent',
        PORTAL_DB: db,
        ...env,
      }),
    ),
    { watcher: { backoff: { firstMs: 50, maxMs: 400 } }, ...options },
  );
}

const orgs = `Client_Org_Id=1001&Vendor_Org_Id=${sandboxDemo.vendorOrgId}`;

async function sendBatch(portal: RunningPortal, count: number, key?: string) {
  const items = Array.from({ length: count }, (_, index) =>
    requisitionInsert({ clientinternalreq: `WATCH-${portalNumber}-${index}-${key ?? 'x'}` }),
  );
  const response = await fetch(`${portal.url}/api/vms/requisitionimport?${orgs}`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      ...(key === undefined ? {} : { 'idempotency-key': key }),
    },
    body: JSON.stringify(items),
  });
  const body = (await response.json()) as { batchid: string };
  return { status: response.status, replayed: response.headers.get('idempotent-replayed'), body };
}

async function readWatch(portal: RunningPortal, batchId: string): Promise<BatchWatch | null> {
  const response = await fetch(`${portal.url}/api/watches/${batchId}`);
  if (response.status === 404) return null;
  expect(response.status).toBe(200);
  return batchWatchSchema.parse(await response.json());
}

async function waitFor(
  portal: RunningPortal,
  batchId: string,
  done: (watch: BatchWatch) => boolean,
  timeoutMs = 15_000,
): Promise<BatchWatch> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const watch = await readWatch(portal, batchId);
    if (watch && done(watch)) return watch;
    if (Date.now() > deadline) {
      throw new Error(`batch ${batchId} did not get there: ${JSON.stringify(watch)}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('the batch watch', () => {
  it('records one watch per accepted batch (a replay adds none) and keeps the results it settles with', async () => {
    const db = portalDb();
    const portal = await start(fast, db);
    try {
      const key = 'c7e0a1d2-4b6f-4e0e-9a51-2b7c3d9e8f10';
      const first = await sendBatch(portal, 3, key);
      const again = await sendBatch(portal, 3, key);
      expect(first.status).toBe(202);
      expect(again.replayed).toBe('true');
      expect(again.body.batchid).toBe(first.body.batchid);
      const batchId = first.body.batchid;

      const settled = await waitFor(portal, batchId, (watch) => watch.state === 'settled');
      const rows = await queryTestDatabase<{ n: number }>(
        db,
        `SELECT count(*) AS n FROM batch_watches`,
      );
      expect(Number(rows[0]?.n)).toBe(1);
      expect(settled).toMatchObject({
        connection: 'default',
        operation: 'requisitionimport',
        clientOrgId: 1001,
        vendorOrgId: sandboxDemo.vendorOrgId,
        itemCount: 3,
        sentBy: null,
        problem: null,
        nextCheckAt: null,
      });
      // The sandbox's own answer, read straight from it, is what was kept.
      const atTheVms = await fast.requisitionResults(batchId);
      expect(settled.results?.rows.map((row) => [row.row, row.status, row.createdId])).toEqual(
        atTheVms.map((row) => [row.Row, row.Status, row.Req_Id]),
      );
      expect(atTheVms.map((row) => row.Status)).toEqual(['Success', 'Success', 'Success']);

      // Every call the watcher made is in the journal under the watch's trace, and none else is.
      const journal = journalPageSchema.parse(
        await (await fetch(`${portal.url}/api/journal?limit=200`)).json(),
      );
      const watcherCalls = journal.entries.filter((entry) => entry.traceId === settled.traceId);
      expect(watcherCalls.length).toBe(settled.checks);
      expect(new Set(watcherCalls.map((entry) => entry.operation))).toEqual(
        new Set(['requisitionresults']),
      );
      expect(
        journal.entries.filter((entry) => entry.operation === 'requisitionimport'),
      ).toHaveLength(2);
    } finally {
      await portal.close();
    }
  });

  it('records the watch in the audit trail and the metrics: started, checked, settled', async () => {
    const token = 'metrics-token-for-the-watch-test';
    const portal = await start(fast, portalDb(), {}, { METRICS_TOKEN: token });
    try {
      const { body } = await sendBatch(portal, 2);
      const settled = await waitFor(portal, body.batchid, (watch) => watch.state === 'settled');

      // The trail writes a few events per transaction, a moment after they happen.
      let watchEvents: unknown[][] = [];
      for (let tries = 0; tries < 100 && watchEvents.length < 2; tries += 1) {
        await new Promise((resolve) => setTimeout(resolve, 20));
        const page = auditPageSchema.parse(
          await (await fetch(`${portal.url}/api/audit?connection=default&limit=50`)).json(),
        );
        watchEvents = page.entries
          .filter((entry) => entry.event.startsWith('watch_'))
          .map((entry) => [entry.event, entry.details.batchId, entry.details.itemCount]);
      }
      expect(watchEvents.sort()).toEqual([
        ['watch_settled', body.batchid, 2],
        ['watch_started', body.batchid, 2],
      ]);

      const scrape = await (
        await fetch(`${portal.url}/metrics`, { headers: { authorization: `Bearer ${token}` } })
      ).text();
      const figure = (pattern: RegExp) => Number(pattern.exec(scrape)?.[1] ?? Number.NaN);
      expect(figure(/^vms_portal_watches_watching (\S+)$/m)).toBe(0);
      expect(
        figure(/^vms_portal_watch_checks_total\{connection="default",outcome="settled"\} (\S+)$/m),
      ).toBe(1);
      // Every check before the last found the batch still pending.
      expect(
        figure(
          /^vms_portal_watch_checks_total\{connection="default",outcome="watching"\} (\S+)$/m,
        ) || 0,
      ).toBe(settled.checks - 1);
      expect(
        figure(/^vms_portal_watch_results_calls_in_flight\{connection="default"\} (\S+)$/m),
      ).toBe(0);
    } finally {
      await portal.close();
    }
  });

  it('waits longer after each check of a batch still pending', async () => {
    const portal = await start(slow, portalDb(), {
      watcher: { backoff: { firstMs: 100, maxMs: 10_000 }, random: () => 0.999 },
    });
    try {
      const { body } = await sendBatch(portal, 1);
      const waits = new Map<number, number>();
      await waitFor(portal, body.batchid, (watch) => {
        if (watch.lastCheckedAt !== null && watch.nextCheckAt !== null) {
          waits.set(watch.checks, Date.parse(watch.nextCheckAt) - Date.parse(watch.lastCheckedAt));
        }
        return watch.checks >= 4;
      });
      const [one, two, three] = [waits.get(1), waits.get(2), waits.get(3)];
      // 100 ms doubled per check, times a jitter of almost 1: about 200, 400, 800 ms.
      expect(one).toBeGreaterThanOrEqual(190);
      expect(two).toBeGreaterThan((one ?? 0) * 1.9);
      expect(three).toBeGreaterThan((two ?? 0) * 1.9);
      const watch = await readWatch(portal, body.batchid);
      expect(watch?.state).toBe('watching');
      expect(watch?.results?.rows.map((row) => row.status)).toEqual(['Pending']);
    } finally {
      await portal.close();
    }
  });

  it('gives a batch up once the limit passes, saying it is still pending, with its last rows kept', async () => {
    let shift = 0;
    const portal = await start(slow, portalDb(), {
      watcher: { backoff: { firstMs: 50, maxMs: 100 }, now: () => Date.now() + shift },
    });
    try {
      const { body } = await sendBatch(portal, 2);
      await waitFor(portal, body.batchid, (watch) => watch.checks >= 1);
      shift = 72 * 60 * 60 * 1000;
      const gaveUp = await waitFor(portal, body.batchid, (watch) => watch.state !== 'watching');
      expect(gaveUp.state).toBe('gave_up');
      expect(gaveUp.problem).toBe('still pending at the VMS after 72 h');
      expect(gaveUp.results?.rows.map((row) => row.status)).toEqual(['Pending', 'Pending']);
      const checks = gaveUp.checks;
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect((await readWatch(portal, body.batchid))?.checks).toBe(checks);
    } finally {
      await portal.close();
    }
  });

  it('resumes an unfinished watch after a restart', async () => {
    const db = portalDb();
    const first = await start(fast, db, {
      // No check before the restart: the first is due after it.
      watcher: { backoff: { firstMs: 3000, maxMs: 3000 } },
    });
    let batchId: string;
    try {
      batchId = (await sendBatch(first, 2)).body.batchid;
      // The watch is recorded just after the answer is sent.
      const watch = await waitFor(first, batchId, () => true);
      expect(watch).toMatchObject({ state: 'watching', checks: 0 });
    } finally {
      await first.close();
    }
    const second = await start(fast, db);
    try {
      const settled = await waitFor(second, batchId, (watch) => watch.state === 'settled');
      expect(settled.results?.rows.map((row) => row.status)).toEqual(['Success', 'Success']);
    } finally {
      await second.close();
    }
  });

  describe('against a VMS that holds or refuses results calls', () => {
    let upstream: CaptureUpstream;
    beforeAll(async () => {
      upstream = await startCaptureUpstream();
    });
    afterAll(async () => {
      await upstream.close();
    });

    const accepted = (batchId: string) => ({
      status: 202,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ batchid: batchId, received: 1 }),
    });
    const settledRows = (batchId: string) => ({
      status: 200,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify([{ Batch_Id: batchId, Row: 1, Status: 'Success', Req_Id: '77' }]),
    });
    const post = (portal: { call: Awaited<ReturnType<typeof startTestPortal>>['call'] }) =>
      portal.call('POST', requisitionImportPath, {
        headers: { 'content-type': 'application/json' },
        body: '[{"titlerole":"Welder"}]',
      });

    it('waits as long as Retry-After says before asking again', async () => {
      const asked: number[] = [];
      upstream.respondWith((request) => {
        if (request.method === 'POST') return accepted('rb_retry_after');
        asked.push(Date.now());
        return asked.length === 1
          ? { status: 429, headers: { 'retry-after': '1' }, body: '' }
          : settledRows('rb_retry_after');
      });
      const portal = await startTestPortal(
        testConfig(upstream.url, { WATCH: 'on', PORTAL_DB: portalDb() }),
        { watcher: { backoff: { firstMs: 20, maxMs: 40 } } },
      );
      try {
        expect((await post(portal)).status).toBe(202);
        const deadline = Date.now() + 10_000;
        let watch: BatchWatch | null = null;
        while (watch?.state !== 'settled' && Date.now() < deadline) {
          const answer = await portal.call('GET', '/api/watches/rb_retry_after');
          if (answer.status === 200) watch = batchWatchSchema.parse(answer.json());
          await new Promise((resolve) => setTimeout(resolve, 20));
        }
        expect(watch?.state).toBe('settled');
        expect(asked).toHaveLength(2);
        // The backoff alone would have asked again within 40 ms.
        expect((asked[1] ?? 0) - (asked[0] ?? 0)).toBeGreaterThanOrEqual(990);
      } finally {
        await portal.close();
      }
    });

    it('keeps at most WATCH_CONCURRENCY results calls in flight for a connection', async () => {
      let batches = 0;
      let inFlight = 0;
      let most = 0;
      let release: () => void = () => {};
      const held = new Promise<void>((resolve) => {
        release = resolve;
      });
      upstream.respondWith((request) => {
        if (request.method === 'POST') {
          batches += 1;
          return accepted(`rb_many_${batches}`);
        }
        inFlight += 1;
        most = Math.max(most, inFlight);
        return {
          ...settledRows(new URLSearchParams(request.query).get('batchid') ?? ''),
          until: held.then(() => {
            inFlight -= 1;
          }),
        };
      });
      const portal = await startTestPortal(
        testConfig(upstream.url, { WATCH: 'on', WATCH_CONCURRENCY: '2', PORTAL_DB: portalDb() }),
        { watcher: { backoff: { firstMs: 10, maxMs: 20 } } },
      );
      try {
        for (let index = 0; index < 5; index += 1) expect((await post(portal)).status).toBe(202);
        const deadline = Date.now() + 5000;
        while (inFlight < 2 && Date.now() < deadline) {
          await new Promise((resolve) => setTimeout(resolve, 10));
        }
        // Time for a third call to leave, were it allowed to.
        await new Promise((resolve) => setTimeout(resolve, 300));
        expect(inFlight).toBe(2);
        release();
        const settled = async () => {
          const states = await Promise.all(
            [1, 2, 3, 4, 5].map(async (n) => {
              const answer = await portal.call('GET', `/api/watches/rb_many_${n}`);
              return answer.status === 200 ? batchWatchSchema.parse(answer.json()).state : null;
            }),
          );
          return states.every((state) => state === 'settled');
        };
        while (!(await settled()) && Date.now() < deadline + 5000) {
          await new Promise((resolve) => setTimeout(resolve, 20));
        }
        expect(await settled()).toBe(true);
        expect(most).toBe(2);
      } finally {
        release();
        await portal.close();
      }
    });
  });
});
