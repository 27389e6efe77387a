import { afterEach, describe, expect, it } from 'vitest';
import { openTestStores, type PortalStores } from '@/test-support/portal-stores';
import type { DeliveryStore, NewDelivery } from './delivery-store';

// The outbox, the same cases on a real SQLite file and a real PostgreSQL.

const t0 = Date.UTC(2026, 10, 29, 9);

const delivery = (n: number, channel: 'email' | 'webhook' = 'email'): NewDelivery => ({
  about: `batch:default:rb_${n}`,
  channel,
  target: channel === 'email' ? 'u-rita' : '7',
  kind: 'batch.settled',
  title: `Batch rb_${n} settled: 1 Success`,
  payload: '{}',
  at: t0 + n,
});

let stores: PortalStores;
afterEach(() => stores.close());

async function open(kind: 'sqlite' | 'postgres'): Promise<DeliveryStore> {
  stores = await openTestStores(kind, 'delivery-store-');
  return stores.deliveries;
}

describe.each(['sqlite', 'postgres'] as const)('the outbox on %s', (kind) => {
  it('keeps one delivery per notice, channel and target however often it is added', async () => {
    const store = await open(kind);
    expect(await store.enqueue(delivery(1))).toBe(true);
    expect(await store.enqueue({ ...delivery(1), title: 'again', at: t0 + 500 })).toBe(false);
    expect(await store.enqueue(delivery(1, 'webhook'))).toBe(true);
    expect((await store.log(10)).map(({ channel, title }) => [channel, title])).toEqual([
      ['webhook', 'Batch rb_1 settled: 1 Success'],
      ['email', 'Batch rb_1 settled: 1 Success'],
    ]);
  });

  it('gives each due delivery to one owner at a time, until its lease runs out', async () => {
    const store = await open(kind);
    for (let n = 1; n <= 6; n += 1) await store.enqueue(delivery(n));
    const [a, b] = await Promise.all([
      store.claimDue(t0 + 100, 'process-a', t0 + 1000, 4),
      store.claimDue(t0 + 100, 'process-b', t0 + 1000, 4),
    ]);
    const ids = [...(a ?? []), ...(b ?? [])].map(({ id }) => id);
    expect(ids).toHaveLength(6);
    expect(new Set(ids).size).toBe(6);
    // Leased: nobody else takes them before the lease ends, and a worker waits for it.
    expect(await store.nextDueAt()).toBe(t0 + 1001);
    expect(await store.claimDue(t0 + 900, 'process-c', t0 + 2000, 10)).toEqual([]);
    // Process A died: its lease runs out and C takes its deliveries.
    const [first] = a ?? [];
    const retaken = await store.claimDue(t0 + 1001, 'process-c', t0 + 3000, 10);
    expect(retaken).toHaveLength(6);
    // A's late answer is not recorded over C's lease.
    expect(
      await store.finish(first?.id ?? 0, 'process-a', {
        state: 'sent',
        status: 200,
        at: t0 + 1002,
      }),
    ).toBe(false);
    expect(
      await store.finish(first?.id ?? 0, 'process-c', {
        state: 'sent',
        status: 200,
        at: t0 + 1003,
      }),
    ).toBe(true);
  });

  it('records a retry as due later and a failure first in the log', async () => {
    const store = await open(kind);
    await store.enqueue(delivery(1));
    await store.enqueue(delivery(2));
    const [one, two] = await store.claimDue(t0 + 10, 'p', t0 + 1000, 10);
    await store.finish(one?.id ?? 0, 'p', {
      state: 'pending',
      status: 503,
      error: 'The receiver answered 503.',
      nextAt: t0 + 30_000,
      at: t0 + 20,
    });
    await store.finish(two?.id ?? 0, 'p', {
      state: 'failed',
      status: 404,
      error: 'The receiver answered 404.',
      at: t0 + 21,
    });
    expect(await store.claimDue(t0 + 29_999, 'p', t0 + 40_000, 10)).toEqual([]);
    expect(await store.nextDueAt()).toBe(t0 + 30_000);
    const log = await store.log(10);
    expect(
      log.map(({ about, state, attempts, lastStatus }) => [about, state, attempts, lastStatus]),
    ).toEqual([
      ['batch:default:rb_2', 'failed', 1, 404],
      ['batch:default:rb_1', 'pending', 1, 503],
    ]);
    expect(
      (await store.claimDue(t0 + 30_000, 'p', t0 + 40_000, 10)).map(({ about }) => about),
    ).toEqual(['batch:default:rb_1']);
  });

  it("keeps each user's e-mail choices and one unsubscribe key", async () => {
    const store = await open(kind);
    await store.setMailChoice('u-rita', 'batch.gave_up', false);
    await store.setMailChoice('u-rita', 'batch.gave_up', true);
    await store.setMailChoice('u-rita', 'batch.settled', false);
    expect([...(await store.mailChoices('u-rita'))]).toEqual(
      expect.arrayContaining([
        ['batch.gave_up', true],
        ['batch.settled', false],
      ]),
    );
    expect(await store.mailChoices('u-ron')).toEqual(new Map());
    const key = await store.linkKey(() => 'first');
    expect(key).toBe('first');
    expect(await store.linkKey(() => 'second')).toBe('first');
  });
});
