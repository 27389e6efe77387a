import { requisitionInsert } from '@/test-support/test-data';
import { expect, openPage, test } from './support/fixtures';

// The tray moved from one localStorage entry to IndexedDB. A tray and a draft left by
// the earlier version are there, intact, after the update; the old entry is gone only once the
// tray is safely in IndexedDB.

const trayKey = 'vms-portal:v1:tray:requisition:1001';

test('a tray and a draft kept by the earlier version come back intact', async ({
  page,
  browser,
  baseURL,
}) => {
  // A draft as the app writes it: typed into the form, saved by the app itself.
  await page.goto('/requisitions/new');
  await page.getByLabel(/^Job title/).fill('Draft from before the update');
  await expect
    .poll(() =>
      page.evaluate(() =>
        Object.keys(localStorage).filter((key) => key.includes(':draft:requisition:1001')),
      ),
    )
    .toHaveLength(1);
  const drafts = await page.evaluate(() =>
    Object.fromEntries(
      Object.entries(localStorage).filter(([key]) => key.includes(':draft:requisition:1001')),
    ),
  );

  // The tray as the earlier version kept it: one JSON entry in localStorage.
  const items = [
    {
      id: 'old-1',
      wire: requisitionInsert({ clientinternalreq: 'OLD-TRAY-1', titlerole: 'Old one' }),
      addedAt: '2026-11-01T09:00:00.000Z',
    },
    {
      id: 'old-2',
      wire: requisitionInsert({ clientinternalreq: 'OLD-TRAY-2', titlerole: 'Old two' }),
      addedAt: '2026-11-01T09:05:00.000Z',
    },
  ];
  const oldTray = JSON.stringify({ items, sendKey: null, lost: null });

  // A browser profile that has only what the earlier version left.
  const context = await browser.newContext({ baseURL: baseURL ?? '' });
  await context.addInitScript(
    ({ entries }) => {
      if (sessionStorage.getItem('seeded') !== null) return;
      for (const [key, value] of Object.entries(entries)) localStorage.setItem(key, value);
      sessionStorage.setItem('seeded', 'yes');
    },
    { entries: { ...drafts, [trayKey]: oldTray } },
  );
  const updated = await openPage(context);
  await updated.goto('/requisitions/new');
  const tray = updated.getByRole('region', { name: 'Batch to send' });
  await expect(tray.getByText('2 requisitions', { exact: true })).toBeVisible();
  await expect(tray.getByRole('listitem').nth(0)).toContainText('OLD-TRAY-1');
  await expect(tray.getByRole('listitem').nth(1)).toContainText('OLD-TRAY-2');
  await expect(updated.getByLabel(/^Job title/)).toHaveValue('Draft from before the update');
  // Moved, not copied: the old entry is gone once the tray is in IndexedDB...
  await expect.poll(() => updated.evaluate((key) => localStorage.getItem(key), trayKey)).toBeNull();

  // ...and the tray is what a reload shows, item for item.
  await updated.reload();
  await expect(tray.getByText('2 requisitions', { exact: true })).toBeVisible();
  await expect(tray.getByRole('listitem').nth(1)).toContainText('Old two');

  // It sends as it was: both items reach the VMS.
  await tray.getByRole('button', { name: 'Send batch (2 requisitions)' }).click();
  await expect(updated.getByRole('heading', { name: 'Batch accepted' })).toBeVisible();
  const results = updated.getByRole('region', { name: /^Results of batch/ });
  await expect(results.getByText('Success', { exact: true })).toHaveCount(2);
  await context.close();
});

test('two tabs share one tray: an item added or removed in one shows in the other', async ({
  page,
  context,
}) => {
  const items = [
    {
      id: 'tab-1',
      wire: requisitionInsert({ clientinternalreq: 'TAB-1', titlerole: 'First tab item' }),
      addedAt: '2026-11-01T09:00:00.000Z',
    },
  ];
  await context.addInitScript(
    ({ key, value }) => {
      if (sessionStorage.getItem('seeded') !== null) return;
      if (localStorage.getItem('seeded-once') === null) {
        localStorage.setItem(key, value);
        localStorage.setItem('seeded-once', 'yes');
      }
      sessionStorage.setItem('seeded', 'yes');
    },
    { key: trayKey, value: JSON.stringify({ items, sendKey: null, lost: null }) },
  );
  await page.goto('/requisitions/new');
  const other = await openPage(context);
  await other.goto('/requisitions/new');
  const trayOf = (tab: typeof page) => tab.getByRole('region', { name: 'Batch to send' });
  await expect(trayOf(other).getByText('1 requisition', { exact: true })).toBeVisible();

  await trayOf(page).getByRole('button', { name: 'Duplicate item 1, TAB-1' }).click();
  // (The copy inserts the same client internal req, so it is flagged too.)
  await expect(trayOf(page).getByText('2 requisitions, 1 to fix', { exact: true })).toBeVisible();
  await expect(trayOf(other).getByText('2 requisitions, 1 to fix', { exact: true })).toBeVisible();

  await trayOf(other).getByRole('button', { name: 'Remove item 1, TAB-1' }).click();
  await expect(trayOf(other).getByText('1 requisition', { exact: true })).toBeVisible();
  await expect(trayOf(page).getByText('1 requisition', { exact: true })).toBeVisible();
  await other.close();
});
