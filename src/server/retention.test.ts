import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startTestPortal, testConfig } from '@/test-support/capture-upstream';
import { openPortalStores, openTestStores, type PortalStores } from '@/test-support/portal-stores';
import { createTestDatabase, postgresEnvName } from '@/test-support/postgres-server';
import {
  createDraftRetention,
  createPostgresDraftRetention,
} from './accounts/store/draft-retention';
import { storeTimer } from './metrics/instrument-stores';
import { PortalMetrics } from './metrics/portal-metrics';
import { parseScrape, sampleValue } from './metrics/scrape-text';
import { pruneInSteps, type RetentionStore } from './store/retention';
import { suiteRunRetention } from './suites/suite-run-retention';
import { createPostgresWatchStore } from './watch/store/postgres/watch-store';
import { resultsRetention } from './watch/store/results-retention';
import { createWatchStore, type NewWatch } from './watch/store/watch-store';

// Retention (decision 060) of the kept batch results, the synced drafts and tray items, and the
// suite runs, on both databases: what is older than the cutoff goes and what is younger stays, in
// steps of a chunk each, counted in the metrics; two processes pruning one PostgreSQL database at
// once neither fail nor count a row twice.

const day = 24 * 60 * 60 * 1000;
const now = Date.UTC(2026, 10, 29, 12);
const cutoff = now - 90 * day;
const old = cutoff - day;
const young = cutoff + day;
/** A small chunk, so that a few hundred rows take several steps. */
const chunk = 50;

let opened: PortalStores[] = [];
afterEach(async () => {
  await Promise.all(opened.map((stores) => stores.close()));
  opened = [];
});

async function openStores(kind: 'sqlite' | 'postgres', metrics?: PortalMetrics) {
  const stores = metrics
    ? await openWrapped(kind, metrics)
    : await openTestStores(kind, 'retention-');
  opened.push(stores);
  return stores;
}

/** A fresh database whose stores count into `metrics`, as the portal opens them with metrics on. */
async function openWrapped(kind: 'sqlite' | 'postgres', metrics: PortalMetrics) {
  const wrap = { wrap: storeTimer(metrics) };
  if (kind === 'postgres') {
    const adminUrl = process.env[postgresEnvName];
    if (!adminUrl) throw new Error(`${postgresEnvName} is unset: the global setup starts it`);
    return openPortalStores(
      { portalDb: ':memory:', databaseUrl: createTestDatabase(adminUrl) },
      wrap,
    );
  }
  return openPortalStores({ portalDb: ':memory:', databaseUrl: null }, wrap);
}

/** Prunes in steps, noting what each step took. */
async function pruneNoting(store: RetentionStore): Promise<{ pruned: number; steps: number[] }> {
  const steps: number[] = [];
  const pruned = await pruneInSteps(
    async (before, limit) => {
      const taken = await store.pruneBefore(before, limit);
      steps.push(taken);
      return taken;
    },
    cutoff,
    chunk,
  );
  return { pruned, steps };
}

async function scraped(metrics: PortalMetrics, store: string): Promise<number | undefined> {
  const scrape = parseScrape((await metrics.scrape()).body);
  return sampleValue(scrape, 'vms_portal_retention_pruned_total', { store });
}

function watch(batchId: string, acceptedAt: number): NewWatch {
  return {
    connection: 'default',
    batchId,
    operation: 'candidates',
    clientOrgId: 1001,
    vendorOrgId: 9001,
    sentBy: null,
    itemCount: 1,
    traceId: '0'.repeat(32),
    acceptedAt,
    nextAt: acceptedAt,
  };
}

const person = { firstName: 'Jane', lastName: 'Doe', email: 'jane.doe@example.com' };

describe.each(['sqlite', 'postgres'] as const)('retention on %s', (kind) => {
  it('prunes the batches the watch ended before the cutoff, in steps, and keeps the rest', async () => {
    const metrics = new PortalMetrics({ defaultConnection: 'default' });
    const stores = await openStores(kind, metrics);
    const watches = stores.open('watches', {
      sqlite: createWatchStore,
      postgres: createPostgresWatchStore,
    });
    const ended = async (batchId: string, at: number) => {
      await watches.record(watch(batchId, at - 60_000));
      // A check is written only under its lease, as the watcher holds it.
      await watches.claim('default', batchId, 'nobody', at + 60_000, at - 60_000);
      await watches.checked('default', batchId, 'nobody', {
        state: 'settled',
        nextAt: at,
        checkedAt: at,
        status: 200,
        problem: null,
        finishedAt: at,
        results: {
          rows: [{ row: 1, status: 'New', message: '', createdId: '7', reference: person.email }],
          body: JSON.stringify(person),
          at,
        },
      });
    };
    const oldCount = 2 * chunk + 20;
    for (let i = 0; i < oldCount; i += 1) await ended(`rb_old_${i}`, old - i);
    await ended('rb_young', young);
    // Accepted long ago but still watched: never pruned, however old.
    await watches.record(watch('rb_watching', old - 30 * day));

    const retention = stores.open('resultsRetention', resultsRetention);
    const { pruned, steps } = await pruneNoting(retention);

    expect(pruned).toBe(oldCount);
    expect(steps).toEqual([chunk, chunk, 20]);
    expect(await watches.byBatch('rb_old_0')).toEqual([]);
    expect(await watches.byBatch(`rb_old_${oldCount - 1}`)).toEqual([]);
    expect((await watches.byBatch('rb_young')).map((w) => w.state)).toEqual(['settled']);
    expect((await watches.byBatch('rb_watching')).map((w) => w.state)).toEqual(['watching']);
    expect(await scraped(metrics, 'results')).toBe(oldCount);
  });

  it('empties drafts and tray items untouched since the cutoff into tombstones browsers sync', async () => {
    const metrics = new PortalMetrics({ defaultConnection: 'default' });
    const stores = await openStores(kind, metrics);
    const records = stores.userRecords;
    const put = (
      user: string,
      collection: 'drafts' | 'tray' | 'submissions',
      key: string,
      at: number,
    ) =>
      records.put(
        user,
        collection,
        key,
        { value: JSON.stringify(person), baseVersion: 0, deleted: false },
        at,
      );
    const oldDrafts = chunk + 10;
    for (let i = 0; i < oldDrafts; i += 1) await put('u_1', 'drafts', `d${i}`, old - i);
    await put('u_2', 'tray', 'old-tray', old);
    await put('u_2', 'tray', 'young-tray', young);
    await put('u_1', 'drafts', 'young-draft', young);
    // What was sent is the record of it: not a draft, not pruned here.
    await put('u_1', 'submissions', 'sent', old);
    const before = await records.changedSince('u_1', 'drafts', 0, 1000);

    const retention = stores.open('draftRetention', {
      sqlite: createDraftRetention,
      postgres: createPostgresDraftRetention,
    });
    const { pruned, steps } = await pruneNoting(retention);

    expect(pruned).toBe(oldDrafts + 1);
    expect(steps).toEqual([chunk, 11]);
    // A browser that had seen every change learns of each pruned draft as a deletion.
    const changes = await records.changedSince('u_1', 'drafts', before.version, 1000);
    expect(changes.records).toHaveLength(oldDrafts);
    expect(changes.records.every((r) => r.deleted && r.value === null)).toBe(true);
    expect(new Set(changes.records.map((r) => r.version)).size).toBe(oldDrafts);
    expect(changes.version).toBe(before.version + oldDrafts);
    const drafts = await records.changedSince('u_1', 'drafts', 0, 1000);
    expect(drafts.records.filter((r) => !r.deleted).map((r) => r.key)).toEqual(['young-draft']);
    const tray = await records.changedSince('u_2', 'tray', 0, 10);
    expect(tray.records.filter((r) => !r.deleted).map((r) => r.key)).toEqual(['young-tray']);
    const sent = await records.changedSince('u_1', 'submissions', 0, 10);
    expect(sent.records.map((r) => [r.key, r.deleted, r.value])).toEqual([['sent', false, person]]);
    expect(await scraped(metrics, 'drafts')).toBe(oldDrafts + 1);
    // Nothing is left to prune: a second round takes nothing.
    expect((await pruneNoting(retention)).pruned).toBe(0);
  });

  it('prunes suite runs that ended before the cutoff and keeps younger and running ones', async () => {
    const metrics = new PortalMetrics({ defaultConnection: 'default' });
    const stores = await openStores(kind, metrics);
    const suites = stores.suites;
    const run = async (startedAt: number, end: boolean) => {
      const id = await suites.createRun({
        suiteId: null,
        suiteName: 'smoke',
        suiteVersion: null,
        connection: 'default',
        clientOrgId: 1001,
        vendorOrgId: 9001,
        runToken: `t${startedAt}`,
        startedAt,
        startedBy: null,
        casesTotal: 0,
      });
      if (end) {
        await suites.endRun(id, {
          status: 'finished',
          cases: [],
          batches: 0,
          at: startedAt + 1000,
          interruption: null,
          previousRunId: null,
        });
      }
      return id;
    };
    const oldIds: number[] = [];
    for (let i = 0; i < chunk + 5; i += 1) oldIds.push(await run(old - 10_000 - i, true));
    const youngId = await run(young, true);
    const runningId = await run(old - 5 * day, false);

    const retention = stores.open('suiteRunRetention', suiteRunRetention);
    const { pruned, steps } = await pruneNoting(retention);

    expect(pruned).toBe(chunk + 5);
    expect(steps).toEqual([chunk, 5]);
    expect(await suites.getRun(oldIds[0] ?? -1)).toBeUndefined();
    expect((await suites.getRun(youngId))?.status).toBe('finished');
    expect((await suites.getRun(runningId))?.status).toBe('running');
    expect(await scraped(metrics, 'suite_runs')).toBe(chunk + 5);
  });
});

describe('retention on PostgreSQL with two processes', () => {
  it('prunes each row once when two processes prune at the same time', async () => {
    const adminUrl = process.env[postgresEnvName];
    if (!adminUrl) throw new Error(`${postgresEnvName} is unset: the global setup starts it`);
    const databaseUrl = createTestDatabase(adminUrl);
    const first = await openPortalStores({ portalDb: ':memory:', databaseUrl });
    opened.push(first);
    const second = await openPortalStores({ portalDb: ':memory:', databaseUrl });
    opened.push(second);
    const users = ['u_1', 'u_2', 'u_3'];
    const perUser = 120;
    for (const user of users) {
      for (let i = 0; i < perUser; i += 1) {
        await first.userRecords.put(
          user,
          'drafts',
          `d${i}`,
          { value: JSON.stringify(person), baseVersion: 0, deleted: false },
          old - i,
        );
      }
    }
    const runs: number[] = [];
    for (let i = 0; i < 300; i += 1) {
      const id = await first.suites.createRun({
        suiteId: null,
        suiteName: 'smoke',
        suiteVersion: null,
        connection: 'default',
        clientOrgId: 1001,
        vendorOrgId: 9001,
        runToken: `t${i}`,
        startedAt: old - i,
        startedBy: null,
        casesTotal: 0,
      });
      await first.suites.endRun(id, {
        status: 'interrupted',
        cases: [],
        batches: 0,
        at: old - i,
        interruption: 'stopped',
        previousRunId: null,
      });
      runs.push(id);
    }
    const draftsOf = (stores: PortalStores) =>
      stores.open('draftRetention', {
        sqlite: createDraftRetention,
        postgres: createPostgresDraftRetention,
      });
    const runsOf = (stores: PortalStores) => stores.open('suiteRunRetention', suiteRunRetention);

    const both = async (of: (stores: PortalStores) => RetentionStore) => {
      // Each keeps going until nothing is left, as the next rounds would.
      const drain = async (store: RetentionStore) => {
        let total = 0;
        for (;;) {
          const taken = await pruneInSteps((b, l) => store.pruneBefore(b, l), cutoff, 25);
          if (taken === 0) return total;
          total += taken;
        }
      };
      return Promise.all([drain(of(first)), drain(of(second))]);
    };
    const [draftsA, draftsB] = await both(draftsOf);
    const [runsA, runsB] = await both(runsOf);

    expect(draftsA + draftsB).toBe(users.length * perUser);
    expect(runsA + runsB).toBe(runs.length);
    for (const user of users) {
      const left = await first.userRecords.changedSince(user, 'drafts', 0, 1000);
      expect(left.records.filter((r) => !r.deleted)).toEqual([]);
      expect(new Set(left.records.map((r) => r.version)).size).toBe(perUser);
      expect(left.version).toBe(2 * perUser);
    }
    expect(await first.suites.getRun(runs[0] ?? -1)).toBeUndefined();
  });
});

describe('retention in a running portal', () => {
  it('prunes each store once the portal is ready, and counts it in the metrics', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'retention-portal-'));
    const portalDb = join(dir, 'portal.db');
    const real = Date.now();
    const longAgo = real - 200 * day;
    const lately = real - day;
    const before = await openPortalStores({ portalDb, databaseUrl: null });
    const put = (key: string, at: number) =>
      before.userRecords.put(
        'u_1',
        'drafts',
        key,
        { value: JSON.stringify(person), baseVersion: 0, deleted: false },
        at,
      );
    await put('old', longAgo);
    await put('young', lately);
    const run = await before.suites.createRun({
      suiteId: null,
      suiteName: 'smoke',
      suiteVersion: null,
      connection: 'default',
      clientOrgId: 1001,
      vendorOrgId: 9001,
      runToken: 'aa11bb22',
      startedAt: longAgo,
      startedBy: null,
      casesTotal: 0,
    });
    await before.suites.endRun(run, {
      status: 'finished',
      cases: [],
      batches: 0,
      at: longAgo,
      interruption: null,
      previousRunId: null,
    });
    await before.close();

    const portal = await startTestPortal(
      testConfig('http://127.0.0.1:9/', {
        PORTAL_DB: portalDb,
        METRICS_TOKEN: 'retention-metrics-token-0123456789abcdef',
      }),
    );
    try {
      const metrics = portal.app.portalMetrics;
      if (!metrics) throw new Error('the metrics are off: METRICS_TOKEN turns them on');
      await expect.poll(() => scraped(metrics, 'drafts')).toBe(1);
      await expect.poll(() => scraped(metrics, 'suite_runs')).toBe(1);
      const after = await openPortalStores({ portalDb, databaseUrl: null });
      try {
        const drafts = await after.userRecords.changedSince('u_1', 'drafts', 0, 10);
        expect(drafts.records.map((r) => [r.key, r.deleted])).toEqual([
          ['young', false],
          ['old', true],
        ]);
        expect(await after.suites.getRun(run)).toBeUndefined();
      } finally {
        await after.close();
      }
    } finally {
      await portal.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
