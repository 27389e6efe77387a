import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { notificationListSchema } from '@/domain/notifications';
import { sandboxDemo } from '@/sandbox/index';
import type { TestPortal } from '@/test-support/capture-upstream';
import { startSignedInPortal, type SignedInPortal } from '@/test-support/signed-in-portal';
import { TestBrowser } from '@/test-support/test-browser';
import { requisitionInsert } from '@/test-support/test-data';

/*
 * The notifications in the app, against the real sandbox and a real database (PostgreSQL in the
 * postgres project): a batch the watch sees settle becomes one notification for its sender, with
 * the counts of its rows, which nobody else reads or marks.
 */

let world: SignedInPortal;
let portal: TestPortal;
let rita: TestBrowser;
let ron: TestBrowser;

beforeAll(async () => {
  world = await startSignedInPortal({
    prefix: 'notifications-',
    processingDelayMs: 10,
    env: { VMS_CLIENT_ORGS: '1001' },
    portal: { watcher: { backoff: { firstMs: 30, maxMs: 200 } } },
    accounts: [
      { email: 'rita@example.com', role: 'recruiter', orgs: [1001] },
      { email: 'ron@example.com', role: 'recruiter', orgs: [1001] },
    ],
  });
  portal = world.portal;
  rita = world.browser('rita@example.com');
  ron = world.browser('ron@example.com');
});

afterAll(() => world.close());

async function notificationsOf(browser: TestBrowser) {
  const answer = await browser.call('GET', '/api/notifications');
  expect(answer.status).toBe(200);
  return notificationListSchema.parse(answer.json());
}

describe('notifications in the app', () => {
  it('tells the sender once that their batch settled, with its counts, and no one else', async () => {
    // Three good requisitions and two the sandbox refuses (a field it does not know).
    const items = [
      ...Array.from({ length: 3 }, (_, index) =>
        requisitionInsert({ clientinternalreq: `NOTIFY-OK-${index}` }),
      ),
      ...Array.from({ length: 2 }, (_, index) => ({
        ...requisitionInsert({ clientinternalreq: `NOTIFY-BAD-${index}` }),
        nosuchfield: 'x',
      })),
    ];
    const sent = await rita.call(
      'POST',
      `/api/vms/requisitionimport?Client_Org_Id=1001&Vendor_Org_Id=${sandboxDemo.vendorOrgId}`,
      { body: items },
    );
    expect(sent.status).toBe(202);
    const { batchid } = sent.json() as { batchid: string };

    let list = await notificationsOf(rita);
    const deadline = Date.now() + 15_000;
    while (list.items.length === 0 && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 30));
      list = await notificationsOf(rita);
    }
    expect(list.unread).toBe(1);
    expect(list.items).toEqual([
      {
        id: expect.any(Number),
        kind: 'batch.settled',
        title: `Batch ${batchid} settled: 3 Success, 2 Error`,
        link: `/submissions?batch=${batchid}`,
        createdAt: expect.any(String),
        readAt: null,
      },
    ]);
    // Nothing about it for another recruiter, and no way to mark Rita's read.
    expect(await notificationsOf(ron)).toEqual({ unread: 0, items: [] });
    const [mine] = list.items;
    const byRon = await ron.call('POST', '/api/notifications/read', { body: { ids: [mine?.id] } });
    expect(byRon.json()).toEqual({ marked: 0, unread: 0 });
    expect((await notificationsOf(rita)).unread).toBe(1);

    // The watch is done with the batch: later looks add nothing.
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect((await notificationsOf(rita)).items).toHaveLength(1);

    const read = await rita.call('POST', '/api/notifications/read', { body: { ids: [mine?.id] } });
    expect(read.json()).toEqual({ marked: 1, unread: 0 });
    const after = await notificationsOf(rita);
    expect(after.unread).toBe(0);
    expect(after.items[0]?.readAt).not.toBeNull();
    expect(
      (await rita.call('POST', '/api/notifications/read', { body: { all: true } })).json(),
    ).toEqual({
      marked: 0,
      unread: 0,
    });
  });

  it('refuses a mark-read body it cannot read, saying what to send', async () => {
    const none = await rita.call('POST', '/api/notifications/read', { body: { ids: [] } });
    expect(none.status).toBe(400);
    expect(none.json()).toMatchObject({
      error: { message: 'Name at least one notification to mark read, or send {"all": true}.' },
    });
    const unreadable = await rita.call('POST', '/api/notifications/read', { body: { every: 1 } });
    expect(unreadable.status).toBe(400);
    expect(unreadable.json()).toMatchObject({
      error: {
        message:
          'Say which notifications to mark read: {"ids": [1, 2]} (up to 500) or {"all": true}.',
      },
    });
  });

  it('is for signed-in users only', async () => {
    expect((await new TestBrowser(portal.url).call('GET', '/api/notifications')).status).toBe(401);
  });
});
