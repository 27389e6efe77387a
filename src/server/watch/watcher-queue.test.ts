import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import type { AcceptedBatch } from '@/server/proxy/accepted-batch';
import { createPostgresWatchStore } from '@/server/watch/store/postgres/watch-store';
import { createWatchStore, type WatchStore } from '@/server/watch/store/watch-store';
import { Watcher, type WatchQueue } from '@/server/watch/watcher';
import { openPortalStores, type PortalStores } from '@/test-support/portal-stores';

/*
 * The watcher with a job queue (several processes on one PostgreSQL, decision 050), with the
 * queue's side written down by the test: what it is handed, and when it is stopped. The checks
 * are the queue's to run, so none runs here but those the test asks for.
 */

let dir: string;
let stores: PortalStores;
let watches: WatchStore;
/** What the queue was told, in order. */
let told: string[];
let asked: number;
const leaseMs = 90_000;

const queue: WatchQueue = {
  start: async () => {},
  added: async (_connection, batchId) => {
    told.push(`added ${batchId}`);
  },
  close: async () => {
    told.push('closed');
  },
};

function watcher(store: WatchStore = watches): Watcher {
  return new Watcher({
    store,
    queue,
    transport: async () => {
      asked += 1;
      return { status: 200, body: '[]', retryAfter: undefined };
    },
    concurrency: 1,
    giveUpMs: 3_600_000,
    leaseMs: () => leaseMs,
    log: { warn: () => {} },
    backoff: { firstMs: 1000, maxMs: 60_000 },
    idleMs: 20,
  });
}

function batch(batchId: string, at = Date.now() - 5_000): AcceptedBatch {
  return {
    connection: 'default',
    batchId,
    operation: 'requisitionimport',
    orgs: { clientOrgId: 1001, vendorOrgId: 9001 },
    sentBy: null,
    itemCount: 1,
    at,
  };
}

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'watcher-queue-'));
  stores = await openPortalStores({ portalDb: join(dir, 'portal.db'), databaseUrl: null });
  watches = stores.open('watches', {
    sqlite: createWatchStore,
    postgres: createPostgresWatchStore,
  });
  told = [];
  asked = 0;
});

afterEach(async () => {
  await stores.close();
  rmSync(dir, { recursive: true, force: true });
});

it('looks again at a batch another check holds after the first backoff step, without asking the VMS', async () => {
  const running = watcher();
  const at = Date.now();
  await running.accepted(batch('rb_held'));
  expect(await watches.claim('default', 'rb_held', 'another-process', at + leaseMs, at)).toBe(true);

  const before = Date.now();
  const next = await running.checkOne('default', 'rb_held');
  const after = Date.now();
  expect(asked).toBe(0);
  if (next === null) throw new Error('the held batch was given up');
  // Not when the other's lease runs out, 90 s on.
  expect(next).toBeGreaterThanOrEqual(before + 1000);
  expect(next).toBeLessThanOrEqual(after + 1000);
  await running.close();
});

it('finishes recording a batch accepted as it stops, its first check handed over, before its queue stops', async () => {
  // Recording takes a while (a busy database): the stop comes in the middle of it.
  const slow: WatchStore = {
    ...watches,
    record: async (watch) => {
      await new Promise((resolve) => setTimeout(resolve, 100));
      return watches.record(watch);
    },
  };
  const running = watcher(slow);
  await running.start();
  const accepting = running.accepted(batch('rb_at_stop'));
  await running.close();
  expect(await accepting).toBe(true);
  expect(told).toEqual(['added rb_at_stop', 'closed']);
});

it('hands the queue again a watch due that lost its job, and none that a check holds', async () => {
  const running = watcher();
  await running.start();
  // Recorded by a process that died before it sent the first check, and one a check holds now.
  const now = Date.now();
  for (const batchId of ['rb_lost', 'rb_held']) {
    const { connection, at, ...rest } = batch(batchId, now - 5_000);
    await watches.record({
      ...rest,
      connection,
      clientOrgId: 1001,
      vendorOrgId: 9001,
      traceId: '0'.repeat(32),
      acceptedAt: at,
      nextAt: at,
    });
  }
  await watches.claim('default', 'rb_held', 'another-process', now + leaseMs, now);
  const deadline = Date.now() + 5_000;
  while (!told.includes('added rb_lost') && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  await running.close();
  expect(told).toContain('added rb_lost');
  expect(told).not.toContain('added rb_held');
  expect(asked).toBe(0);
});
