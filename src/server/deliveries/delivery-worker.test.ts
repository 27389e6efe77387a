import { afterEach, describe, expect, it } from 'vitest';
import { openTestStores, type PortalStores } from '@/test-support/portal-stores';
import { DeliveryWorker, retryDelay, type AttemptResult } from './delivery-worker';
import type { AttemptEnd, DeliveryStore, StoredDelivery } from './store/delivery-store';

/*
 * The worker over a real outbox (SQLite): retries with backoff until the schedule gives up, a
 * refusal for good at once, a dead process's lease running out for another, and a database that
 * fails a round without stopping the next. The sending is a function here (the channels' real
 * senders are tested against real servers in deliveries.test.ts).
 */

let stores: PortalStores | undefined;
const workers: DeliveryWorker[] = [];
afterEach(async () => {
  for (const worker of workers.splice(0)) await worker.stop();
  await stores?.close();
  stores = undefined;
});

const quiet = { warn: () => {}, error: () => {} };

async function outbox(): Promise<DeliveryStore> {
  const opened = await openTestStores('sqlite', 'delivery-worker-');
  stores = opened;
  return opened.deliveries;
}

async function enqueue(store: DeliveryStore, n: number, at = Date.now()): Promise<void> {
  await store.enqueue({
    about: `batch:default:rb_${n}`,
    channel: 'webhook',
    target: '1',
    kind: 'batch.settled',
    title: `Batch rb_${n} settled: 1 Success`,
    payload: '{}',
    at,
  });
}

function worker(
  store: DeliveryStore,
  send: (delivery: StoredDelivery) => Promise<AttemptResult>,
  extra: Partial<ConstructorParameters<typeof DeliveryWorker>[0]> = {},
) {
  const ends: AttemptEnd[] = [];
  const made = new DeliveryWorker({
    store,
    send,
    attempted: (_delivery, end) => ends.push(end),
    log: quiet,
    pollMs: 10,
    retry: { firstMs: 20, maxMs: 40, giveUpMs: 300 },
    ...extra,
  });
  workers.push(made);
  return { worker: made, ends };
}

async function until(done: () => boolean | Promise<boolean>, ms = 5_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await done()) && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

describe('the retry schedule', () => {
  it('doubles from the first wait to the longest, each spread by at most a fifth', () => {
    const schedule = { firstMs: 30_000, maxMs: 30 * 60_000, giveUpMs: 86_400_000 };
    const middle = () => 0.5;
    expect([1, 2, 3, 4, 5, 6, 7, 8].map((n) => retryDelay(n, schedule, middle))).toEqual([
      30_000, 60_000, 120_000, 240_000, 480_000, 960_000, 1_800_000, 1_800_000,
    ]);
    expect(retryDelay(1, schedule, () => 0)).toBe(24_000);
    expect(retryDelay(1, schedule, () => 0.999_999)).toBe(36_000);
  });
});

describe('the worker', () => {
  it('tries a failing delivery again with backoff, then fails it when the schedule gives up', async () => {
    const store = await outbox();
    await enqueue(store, 1);
    const times: number[] = [];
    const { worker: running, ends } = worker(store, async () => {
      times.push(Date.now());
      return { sent: false, status: 503, reason: 'The receiver answered 503.', retry: true };
    });
    running.start();
    await until(() => ends.some((end) => end.state === 'failed'));
    const [entry] = await store.log(10);
    expect(entry?.state).toBe('failed');
    expect(entry?.attempts).toBeGreaterThanOrEqual(3);
    expect(entry?.attempts).toBe(times.length);
    expect(entry?.lastError).toBe(
      `The receiver answered 503. Gave up after ${entry?.attempts} attempts.`,
    );
    // Each attempt waited at least the spread-out first wait after the one before.
    for (let n = 1; n < times.length; n += 1) {
      expect((times[n] ?? 0) - (times[n - 1] ?? 0)).toBeGreaterThanOrEqual(15);
    }
  });

  it('fails a refusal for good at the first attempt', async () => {
    const store = await outbox();
    await enqueue(store, 1);
    const { worker: running, ends } = worker(store, async () => ({
      sent: false,
      status: 404,
      reason: 'The receiver answered 404.',
      retry: false,
    }));
    running.start();
    await until(() => ends.length > 0);
    expect(
      (await store.log(10)).map(({ state, attempts, lastError }) => [state, attempts, lastError]),
    ).toEqual([['failed', 1, 'The receiver answered 404.']]);
  });

  it('sends what a dead process held once its lease runs out, and only once', async () => {
    const store = await outbox();
    await enqueue(store, 1);
    // A process that took the delivery and died before it answered.
    const [held] = await store.claimDue(Date.now(), 'dead-process', Date.now() + 200, 10);
    expect(held).toBeDefined();
    const sent: number[] = [];
    const { worker: running } = worker(store, async (delivery) => {
      sent.push(delivery.id);
      return { sent: true, status: 200 };
    });
    running.start();
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(sent).toEqual([]);
    await until(() => sent.length > 0);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(sent).toEqual([held?.id]);
    expect((await store.log(10))[0]?.state).toBe('sent');
  });

  it('goes on after a round the database failed', async () => {
    const store = await outbox();
    await enqueue(store, 1);
    let failures = 0;
    const errors: string[] = [];
    const flaky: DeliveryStore = {
      ...store,
      async claimDue(...args) {
        if (failures < 2) {
          failures += 1;
          throw new Error('database is locked');
        }
        return store.claimDue(...args);
      },
    };
    const { worker: running, ends } = worker(flaky, async () => ({ sent: true, status: 200 }), {
      log: {
        warn: () => {},
        error: (_fields: unknown, message?: string) => void errors.push(message ?? ''),
      },
    });
    running.start();
    await until(() => ends.length > 0);
    expect(ends.map(({ state }) => state)).toEqual(['sent']);
    expect(errors).toEqual([
      'deliveries: the outbox could not be read; trying again shortly',
      'deliveries: the outbox could not be read; trying again shortly',
    ]);
  });
});
