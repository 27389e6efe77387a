import { afterEach, describe, expect, it } from 'vitest';
import { openTestStores, type PortalStores } from '@/test-support/portal-stores';
import type { NewNotification, NotificationStore } from './notification-store';

// The notifications' store, the same cases on a real SQLite file and a real PostgreSQL.

const t0 = Date.UTC(2026, 10, 29, 9);

const about = (n: number, userId: string | null = 'u-rita'): NewNotification => ({
  userId,
  kind: 'batch.settled',
  title: `Batch rb_${n} settled: 1 Success`,
  link: `/submissions?batch=rb_${n}`,
  about: `batch:default:rb_${n}`,
  at: t0 + n * 1000,
});

let stores: PortalStores;
afterEach(() => stores.close());

async function open(kind: 'sqlite' | 'postgres'): Promise<NotificationStore> {
  stores = await openTestStores(kind, 'notification-store-');
  return stores.notifications;
}

describe.each(['sqlite', 'postgres'] as const)('the notification store on %s', (kind) => {
  it('adds one notification about a thing however often it is told, newest first', async () => {
    const store = await open(kind);
    expect(await store.add(about(1))).toBe(true);
    expect(await store.add(about(2))).toBe(true);
    // Told again (a check repeated after a crash, another process): nothing new.
    expect(await store.add({ ...about(1), title: 'told again', at: t0 + 9000 })).toBe(false);
    const list = await store.list('u-rita', 10);
    expect(list.map(({ title }) => title)).toEqual([
      'Batch rb_2 settled: 1 Success',
      'Batch rb_1 settled: 1 Success',
    ]);
    expect(list[1]).toEqual({
      id: expect.any(Number),
      kind: 'batch.settled',
      title: 'Batch rb_1 settled: 1 Success',
      link: '/submissions?batch=rb_1',
      createdAt: t0 + 1000,
      readAt: null,
    });
    expect(await store.list('u-rita', 1, list[0]?.id)).toEqual([list[1]]);
  });

  it("keeps each user's apart: another's are neither listed, counted nor marked", async () => {
    const store = await open(kind);
    await store.add(about(1, 'u-rita'));
    await store.add(about(2, 'u-ron'));
    await store.add(about(3, null));
    const [ritas] = await store.list('u-rita', 10);
    expect(await store.unread('u-ron')).toBe(1);
    expect(await store.markRead('u-ron', [ritas?.id ?? 0], t0)).toBe(0);
    expect(await store.unread('u-rita')).toBe(1);
    expect(await store.markRead('u-ron', 'all', t0)).toBe(1);
    expect(await store.unread('u-rita')).toBe(1);
    // The portal's own (sign-in off) are nobody's but their own.
    expect((await store.list(null, 10)).map(({ title }) => title)).toEqual([
      'Batch rb_3 settled: 1 Success',
    ]);
    expect(await store.markRead('u-rita', [ritas?.id ?? 0], t0 + 5)).toBe(1);
    expect((await store.list('u-rita', 10))[0]?.readAt).toBe(t0 + 5);
    expect(await store.unread(null)).toBe(1);
  });

  it('prunes those made before a time, read or not', async () => {
    const store = await open(kind);
    await store.add(about(1));
    await store.add(about(2));
    await store.add(about(3));
    expect(await store.prune(t0 + 2500)).toBe(2);
    expect((await store.list('u-rita', 10)).map(({ title }) => title)).toEqual([
      'Batch rb_3 settled: 1 Success',
    ]);
  });
});
