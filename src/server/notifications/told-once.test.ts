import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import type { FinishedBatch } from '@/server/watch/finished-batch';
import { createPostgresWatchStore } from '@/server/watch/store/postgres/watch-store';
import { createWatchStore, type WatchStore } from '@/server/watch/store/watch-store';
import { Watcher } from '@/server/watch/watcher';
import { openPortalStores, type PortalStores } from '@/test-support/portal-stores';
import { batchNotification } from './notifications-plugin';

/*
 * The watch tells of a finished batch before it writes that the batch is finished. When that
 * write fails (a full disk, a process killed between the two), the batch is checked again when
 * the lease runs out and told again: the notification is still made once.
 */

let dir: string;
let stores: PortalStores;
afterEach(async () => {
  await stores.close();
  rmSync(dir, { recursive: true, force: true });
});

it('makes one notification for a batch told of twice, the first write of its watch having failed', async () => {
  dir = mkdtempSync(join(tmpdir(), 'told-once-'));
  stores = await openPortalStores({ portalDb: join(dir, 'portal.db'), databaseUrl: null });
  const watches = stores.open('watches', {
    sqlite: createWatchStore,
    postgres: createPostgresWatchStore,
  });
  let writes = 0;
  const failingOnce: WatchStore = {
    ...watches,
    checked: async (...args) => {
      writes += 1;
      if (writes === 1) throw new Error('database or disk is full');
      return watches.checked(...args);
    },
  };
  const told: FinishedBatch[] = [];
  const watcher = new Watcher({
    store: failingOnce,
    transport: async () => ({
      status: 200,
      body: JSON.stringify([
        { Row: 1, Status: 'Success', ErrorMessage: '', Req_Id: '901', ClientInternalReq: 'A' },
        { Row: 2, Status: 'Error', ErrorMessage: 'no', Req_Id: '', ClientInternalReq: 'B' },
      ]),
      retryAfter: undefined,
    }),
    concurrency: 1,
    giveUpMs: 3_600_000,
    leaseMs: () => 40,
    log: { warn: () => {} },
    finished: {
      async finished(batch) {
        told.push(batch);
        const { connection: _connection, ...notification } = batchNotification(batch);
        await stores.notifications.add(notification);
      },
    },
    backoff: { firstMs: 5, maxMs: 10 },
    idleMs: 20,
  });
  try {
    await watcher.accepted({
      connection: 'default',
      batchId: 'rb_once',
      operation: 'requisitionimport',
      orgs: { clientOrgId: 1001, vendorOrgId: 9001 },
      sentBy: { userId: 'u-rita', email: 'rita@example.com' },
      itemCount: 2,
      at: Date.now(),
    });
    await watcher.start();
    const deadline = Date.now() + 10_000;
    while ((await watches.byBatch('rb_once'))[0]?.state !== 'settled' && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  } finally {
    await watcher.close();
  }
  expect((await watches.byBatch('rb_once'))[0]?.state).toBe('settled');
  // Told before the failed write, and again by the check after it.
  expect(told.map(({ state }) => state)).toEqual(['settled', 'settled']);
  expect((await stores.notifications.list('u-rita', 10)).map(({ title }) => title)).toEqual([
    'Batch rb_once settled: 1 Success, 1 Error',
  ]);
});
