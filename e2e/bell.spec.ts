import { loadConfig } from '@/server/config';
import { startPortal } from '@/server/start';
import { adminEmail, adminPassword, test as authTest, fillSignIn } from './support/auth-portal';
import { expect, openPage, tempDb, test } from './support/fixtures';
import { settlingSheet as sheet } from './support/import-files';
import {
  addToBatch,
  fillRequiredInsert,
  insertData,
  sendBatch,
  uniqueReference,
} from './support/requisitions';

/*
 * The server watches a batch after its page is gone (decision 050), tells its sender in the app
 * (054), and the pages read what it kept (055): a recruiter sends 50 requisitions, two of which
 * the VMS refuses, and closes the page; later a new page's bell says the batch settled, its link
 * opens the results with the two errors, and that page asks the VMS nothing.
 */

// The sandbox's pace of a real VMS's batch: 50 items take about 10 s.
test.use({ sandboxDelayMs: 200 });
test.setTimeout(90_000);

test('a batch that settles while no page is open rings the bell; its link shows the errors without a call to the VMS', async ({
  page,
  context,
  portal,
}) => {
  const run = uniqueReference('BELL');
  const { csv, failing } = sheet(run);

  await page.goto('/requisitions/import');
  await page
    .getByLabel('Choose a file')
    .setInputFiles({ name: 'bell.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) });
  await page.getByRole('button', { name: 'Add 50 valid rows to the batch' }).click();
  await expect(page.getByText('50 requisitions added to the batch.')).toBeVisible();
  await page.getByRole('link', { name: 'Open the batch', exact: true }).click();
  const results = await sendBatch(page);
  const batchId = ((await results.getByRole('heading').first().textContent()) ?? '').replace(
    /^Results of batch /,
    '',
  );
  expect(batchId).toMatch(/^rb_/);
  // Closed before the VMS has processed the batch.
  await expect(results.getByText(/^All 50 requisitions processed/)).toHaveCount(0);
  await page.close();

  // Later: the portal has noticed by itself (its API, not a page, is asked here).
  await expect
    .poll(
      async () =>
        (
          (await (await context.request.get(`${portal.url}/api/notifications`)).json()) as {
            unread: number;
          }
        ).unread,
      { timeout: 45_000, intervals: [500] },
    )
    .toBe(1);

  const later = await openPage(context);
  const vmsCalls: string[] = [];
  later.on('request', (request) => {
    if (new URL(request.url()).pathname.startsWith('/api/vms/')) vmsCalls.push(request.url());
  });
  await later.goto(`${portal.url}/submissions`);
  const bell = later.getByRole('button', { name: '1 unread notification' });
  await expect(bell).toHaveText('1');
  await bell.click();
  await expect(bell).toHaveAttribute('aria-expanded', 'true');
  const panel = later.getByRole('region', { name: 'Notifications' });
  const entry = panel.getByRole('link', { name: /settled/ });
  await expect(entry).toHaveText(`Unread: Batch ${batchId} settled: 48 Success, 2 Error`);

  await entry.click();
  await expect(later).toHaveURL(`${portal.url}/submissions?batch=${batchId}`);
  await expect(panel).toBeHidden();
  const shown = later.getByRole('region', { name: `Results of batch ${batchId}` });
  await expect(shown.getByRole('status').first()).toHaveText(
    /^All 50 requisitions processed: 48 Success · 2 Error$/,
  );
  const errorRows = shown
    .getByRole('rowgroup')
    .nth(1)
    .getByRole('row')
    .filter({ has: later.getByText('Error', { exact: true }) });
  await expect(errorRows).toHaveCount(2);
  for (const [index, reference] of failing.entries()) {
    await expect(errorRows.nth(index)).toContainText(reference);
    await expect(errorRows.nth(index)).toContainText(/999 is not a req class of org 1001/);
  }
  // Followed, the notification is read.
  await expect(later.getByRole('button', { name: 'Notifications, none unread' })).toBeVisible();
  // And the Submissions list shows the batch settled: its outcome, not "results pending".
  await expect(later.getByRole('article').first()).toContainText('48 Success, 2 Error');

  expect(vmsCalls).toEqual([]);
});

test('without a watch (WATCH=off) the page asks the VMS for the results itself, as before, and says nothing of a watch', async ({
  page,
}) => {
  const db = tempDb();
  const unwatched = await startPortal(
    loadConfig({
      PORT: '0',
      SANDBOX_PORT: '0',
      SANDBOX_DB: db.path,
      PORTAL_DB: db.portalPath,
      LOG_LEVEL: 'silent',
      WATCH: 'off',
    }),
    { sandbox: { processingDelayMs: 50 } },
  );
  try {
    const asked: string[] = [];
    page.on('request', (request) => {
      const path = new URL(request.url()).pathname;
      if (path.startsWith('/api/watches/') || path === '/api/vms/requisitionresults')
        asked.push(path.startsWith('/api/watches/') ? 'watch' : 'vms');
    });
    await page.goto(`${unwatched.url}/requisitions/new`);
    await fillRequiredInsert(page, insertData('Unwatched'));
    await addToBatch(page);
    const results = await sendBatch(page);
    await expect(results.getByRole('status').first()).toHaveText(
      /^All 1 requisition processed: 1 Success$/,
    );
    await expect(
      results.getByText(/The portal is checking|the portal stopped checking/),
    ).toHaveCount(0);
    // The portal said it watches no such batch (twice at most); the VMS was asked.
    expect(asked.filter((what) => what === 'watch').length).toBeLessThanOrEqual(2);
    expect(asked).toContain('vms');
  } finally {
    await unwatched.close();
    db.cleanup();
  }
});

authTest(
  'with sign-in on, the bell shows only once someone is signed in',
  async ({ page, authPortal }) => {
    await page.goto(`${authPortal.url}/requisitions`);
    await expect(page.getByRole('button', { name: 'Sign in' })).toBeVisible();
    await expect(page.getByRole('button', { name: /notification/i })).toHaveCount(0);
    await fillSignIn(page, adminEmail, adminPassword);
    await expect(page.getByRole('button', { name: 'Notifications, none unread' })).toBeVisible();
  },
);
