import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { openPortalStores, type PortalStores } from '@/test-support/portal-stores';
import { Notifier, type Notice } from './notifier';

let dir: string;
let stores: PortalStores;
beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'notifier-'));
  stores = await openPortalStores({ portalDb: join(dir, 'portal.db'), databaseUrl: null });
});
afterEach(async () => {
  await stores.close();
  rmSync(dir, { recursive: true, force: true });
});

const notice: Notice = {
  connection: 'uat',
  userId: 'u-rita',
  kind: 'batch.settled',
  title: 'Batch rb_1 settled: 2 Success',
  link: '/submissions?batch=rb_1',
  about: 'batch:uat:rb_1',
  at: 1_800_000_000_000,
};

it('hands a notice told twice to every channel both times, the bell keeping one', async () => {
  const notifier = new Notifier((notification) => stores.notifications.add(notification));
  const taken: string[] = [];
  notifier.addChannel({ name: 'mail', take: async (n) => void taken.push(`mail ${n.about}`) });
  notifier.addChannel({ name: 'hook', take: async (n) => void taken.push(`hook ${n.connection}`) });

  expect(await notifier.notify(notice)).toBe(true);
  expect(await notifier.notify(notice)).toBe(false);

  // A channel that missed the first telling (its process died) gets the second.
  expect(taken).toEqual(['mail batch:uat:rb_1', 'hook uat', 'mail batch:uat:rb_1', 'hook uat']);
  expect((await stores.notifications.list('u-rita', 10)).map(({ title }) => title)).toEqual([
    'Batch rb_1 settled: 2 Success',
  ]);
});

it('fails the telling when a channel fails, so that its teller tells again', async () => {
  const notifier = new Notifier((notification) => stores.notifications.add(notification));
  notifier.addChannel({
    name: 'mail',
    take: async () => {
      throw new Error('outbox not writable');
    },
  });
  await expect(notifier.notify(notice)).rejects.toThrow('outbox not writable');
  expect(await stores.notifications.unread('u-rita')).toBe(1);
});
