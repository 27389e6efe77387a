import { afterEach, describe, expect, it } from 'vitest';
import { openTestStores, type PortalStores } from '@/test-support/portal-stores';
import { createPostgresWatchStore } from './postgres/watch-store';
import { createWatchStore, type NewWatch, type WatchStore } from './watch-store';

// A closing process gives back the leases it holds, and only its own; on both databases.

const t0 = Date.UTC(2026, 10, 29, 9);
const watch = (batchId: string): NewWatch => ({
  connection: 'default',
  batchId,
  operation: 'requisitionimport',
  clientOrgId: 1001,
  vendorOrgId: 9001,
  sentBy: null,
  itemCount: 1,
  traceId: '0'.repeat(32),
  acceptedAt: t0,
  nextAt: t0,
});

let stores: PortalStores;
afterEach(() => stores.close());

async function open(kind: 'sqlite' | 'postgres'): Promise<WatchStore> {
  stores = await openTestStores(kind, 'watch-leases-');
  return stores.open('watches', { sqlite: createWatchStore, postgres: createPostgresWatchStore });
}

describe.each(['sqlite', 'postgres'] as const)('watch leases on %s', (kind) => {
  it("gives back one process's leases on close, leaving another's", async () => {
    const store = await open(kind);
    await store.record(watch('rb_a'));
    await store.record(watch('rb_b'));
    const lease = t0 + 90_000;
    expect(await store.claim('default', 'rb_a', 'closing', lease, t0)).toBe(true);
    expect(await store.claim('default', 'rb_b', 'staying', lease, t0)).toBe(true);

    await store.releaseOwn('closing');

    // Another process takes the batch the closing one left at once, not after the lease.
    expect(await store.claim('default', 'rb_a', 'other', lease, t0 + 1)).toBe(true);
    expect(await store.claim('default', 'rb_b', 'other', lease, t0 + 1)).toBe(false);
  });
});
