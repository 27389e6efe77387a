import type { Page, Request } from '@playwright/test';
import { requisitionInsert } from '@/test-support/test-data';
import { colleagueAmends, insertRequisitions } from './support/colleague';
import { expect, openPage, test } from './support/fixtures';

// The requisition list at 2,000 requisitions, seeded through the sandbox's API.
test.use({ sandboxDelayMs: 0 });
test.setTimeout(180_000);

const seeded = 2000;
const run = Date.now().toString(36).toUpperCase();
const reference = (i: number) => `VOL-${run}-${String(i).padStart(4, '0')}`;

async function seed(page: Page): Promise<string[]> {
  const reqIds: string[] = [];
  for (let start = 0; start < seeded; start += 500) {
    const items = Array.from({ length: 500 }, (_, k) =>
      requisitionInsert({
        clientinternalreq: reference(start + k),
        titlerole: `Volume role ${start + k}`,
      }),
    );
    reqIds.push(...(await insertRequisitions(page, items)));
  }
  return reqIds;
}

/** One state of the list page: its status line, how many rows are drawn, the first row's Req ID. */
interface ListState {
  status: string;
  rows: number;
  firstReqId: string;
}

/**
 * Every state of the list page's status line and rows as they change (recorded in the page from
 * its start): the status, how many rows are drawn, and the first row's Req ID.
 */
async function recordListStates(page: Page) {
  await page.addInitScript(() => {
    const states: ListState[] = [];
    Object.assign(window, { listStates: states });
    new MutationObserver(() => {
      const status = document.querySelector('.list-status')?.textContent ?? '';
      const rows = document.querySelectorAll('table tbody tr[data-index]');
      const firstReqId = rows[0]?.querySelector('td')?.textContent ?? '';
      const last = states.at(-1);
      if (last?.status !== status || last.rows !== rows.length || last.firstReqId !== firstReqId)
        states.push({ status, rows: rows.length, firstReqId });
    }).observe(document, { subtree: true, childList: true, characterData: true });
  });
  return () => page.evaluate(() => (window as unknown as { listStates: ListState[] }).listStates);
}

/** The GET Requisitions calls the page makes, with their query and how many records came back. */
function watchListCalls(page: Page) {
  const calls: Array<{ query: URLSearchParams; records: Promise<number> }> = [];
  page.on('request', (request: Request) => {
    const url = new URL(request.url());
    if (url.pathname !== '/api/vms/requisitions') return;
    calls.push({
      query: url.searchParams,
      records: request
        .response()
        .then(async (response) => ((await response?.json()) as unknown[]).length),
    });
  });
  return calls;
}

test('2,000 requisitions: listed from a local copy, searched, sorted, amended; a reload asks only for changes', async ({
  page,
  browser,
}) => {
  const reqIds = await seed(page);
  const total = (
    (await (
      await page.request.get('/api/vms/requisitions?Client_Org_Id=1001&Vendor_Org_Id=9001')
    ).json()) as unknown[]
  ).length;
  expect(total).toBeGreaterThanOrEqual(seeded);

  const calls = watchListCalls(page);
  const listStates = await recordListStates(page);
  await page.goto('/requisitions');
  const status = page.getByRole('status').filter({ hasText: /requisitions? shown/ });
  await expect(status).toHaveText(`${total.toLocaleString('en-US')} requisitions shown.`);
  // The first visit loaded the whole list once.
  expect(calls).toHaveLength(1);
  expect(calls[0]?.query.get('filterfield')).toBeNull();
  // Its first rows were drawn from the list's first records, said to be so, while the rest were
  // taken in; the rows then only grew below them.
  const states = await listStates();
  const whole = states.findIndex((state) => state.status.endsWith('requisitions shown.'));
  const partial = states
    .slice(0, whole)
    .filter((state) => state.rows > 0)
    .map((state) => state.status);
  expect(partial.length).toBeGreaterThan(0);
  expect(new Set(partial)).toEqual(
    new Set([
      `Loading requisitions… 250 of ${total.toLocaleString('en-US')} requisitions read so far.`,
    ]),
  );
  expect(
    new Set(states.filter((state) => state.rows > 0).map((state) => state.firstReqId)),
  ).toEqual(new Set([states[whole]?.firstReqId]));

  // The table draws the rows in view, not 2,000.
  const table = page.getByRole('region', { name: 'Requisitions' });
  await expect(table.getByRole('table')).toHaveAttribute('aria-rowcount', String(total + 1));
  const drawn = await table.locator('tbody tr:not([aria-hidden])').count();
  expect(drawn).toBeGreaterThan(5);
  expect(drawn).toBeLessThan(60);

  // Search by title.
  await page.getByLabel('Search titles').fill('Volume role 1234');
  await expect(status).toHaveText('1 requisition shown, titles containing “Volume role 1234”.');
  await expect(table.getByRole('row', { name: new RegExp(reference(1234)) })).toBeVisible();
  await page.getByLabel('Search titles').fill('');

  // The list comes sorted by Req ID; one click on it puts the newest first, and the address
  // keeps it.
  await expect(table.getByRole('columnheader', { name: 'Req ID' })).toHaveAttribute(
    'aria-sort',
    'ascending',
  );
  await table.getByRole('button', { name: 'Req ID' }).click();
  await expect(table.getByRole('columnheader', { name: 'Req ID' })).toHaveAttribute(
    'aria-sort',
    'descending',
  );
  await expect(table.locator('tbody tr:not([aria-hidden])').first()).toContainText(
    reference(seeded - 1),
  );
  expect(new URL(page.url()).searchParams.get('dir')).toBe('desc');

  // Scrolled to the end, the oldest requisition is drawn.
  await table.evaluate((element) => element.scrollTo(0, element.scrollHeight));
  await expect(table.locator('tbody tr:not([aria-hidden])').last()).toContainText(/^\d+/);

  // A colleague changes a requisition; a reload asks the VMS only for requisitions updated at
  // or after the newest one the copy holds. (Updates are stamped to the second, so that is every
  // requisition of the copy's newest second too: here, the seeding's last burst.)
  const reloadAfterColleague = async (i: number, title: string) => {
    await colleagueAmends(page, reference(i), { titlerole: title });
    calls.length = 0;
    await page.reload();
    await expect(status).toHaveText(`${total.toLocaleString('en-US')} requisitions shown.`);
    // The stored copy shows first; the refresh that follows it has ended (and stored the changes)
    // when the button reads "Refresh" again.
    await expect(page.getByRole('button', { name: 'Refresh', exact: true })).toBeEnabled();
    expect(calls).toHaveLength(1);
    expect(calls[0]?.query.get('filterfield')).toBe('Req_Updated_Date_Time');
    expect(calls[0]?.query.get('filteroperator')).toBe('>=');
    return calls[0]?.records ?? Promise.resolve(Number.NaN);
  };
  expect(await reloadAfterColleague(18, 'Renamed first')).toBeLessThan(total);
  // The copy's newest second is now the colleague's: the next refresh is a handful of records.
  expect(await reloadAfterColleague(17, 'Renamed by a colleague')).toBeLessThanOrEqual(3);
  await page.getByLabel('Search titles').fill('Renamed by a colleague');
  const renamed = table.getByRole('row', { name: new RegExp(reference(17)) });
  await expect(renamed).toBeVisible();

  // Amend it from the list: the form loads that requisition.
  const reqId = reqIds[17] ?? '';
  await renamed.getByRole('link', { name: `Amend requisition ${reqId}` }).click();
  await expect(page.getByRole('heading', { name: `Amend requisition ${reqId}` })).toBeVisible();
  await expect(page.getByLabel(/^Job title/)).toHaveValue('Renamed by a colleague');

  // A first visit in another browser, the list sorted by title: the list's first records are not
  // the first rows of that order, so no row is drawn before the whole list has come.
  const other = await browser.newContext({ baseURL: new URL(page.url()).origin });
  try {
    const otherPage = await openPage(other);
    const otherStates = await recordListStates(otherPage);
    await otherPage.goto('/requisitions?sort=title');
    await expect(
      otherPage.getByRole('status').filter({ hasText: /requisitions? shown/ }),
    ).toHaveText(`${total.toLocaleString('en-US')} requisitions shown.`);
    const sorted = await otherStates();
    const sortedWhole = sorted.findIndex((state) => state.status.endsWith('requisitions shown.'));
    expect(sortedWhole).toBeGreaterThan(0);
    expect(sorted.slice(0, sortedWhole).filter((state) => state.rows > 0)).toEqual([]);
  } finally {
    await other.close();
  }
});

test('a 500-item tray: items drawn in view only, remove and edit one, send all once', async ({
  page,
}) => {
  const items = Array.from({ length: 500 }, (_, i) => ({
    id: `tray-${i}`,
    wire: requisitionInsert({
      clientinternalreq: `TRAY-${run}-${String(i).padStart(3, '0')}`,
      titlerole: `Tray role ${i}`,
    }),
    addedAt: '2026-11-22T09:00:00.000Z',
  }));
  // The tray as the portal keeps it in this browser (written before the page starts).
  await page.addInitScript(
    ({ key, value }) => {
      if (sessionStorage.getItem('seeded') === null) {
        localStorage.setItem(key, value);
        sessionStorage.setItem('seeded', 'yes');
      }
    },
    {
      key: 'vms-portal:v1:tray:requisition:1001',
      value: JSON.stringify({ items, sendKey: null, lost: null }),
    },
  );
  await page.goto('/requisitions/new');
  const tray = page.getByRole('region', { name: 'Batch to send' });
  await expect(tray.getByText('500 requisitions', { exact: true })).toBeVisible();
  const drawn = await tray.getByRole('listitem').count();
  expect(drawn).toBeGreaterThan(0);
  expect(drawn).toBeLessThan(40);
  // The JSON is made only when asked for.
  await expect(tray.getByRole('region', { name: 'JSON to be sent' })).toHaveCount(0);

  // Remove item 2: 499 left, the next one is now item 2.
  await tray.getByRole('button', { name: `Remove item 2, TRAY-${run}-001` }).click();
  await expect(tray.getByText('499 requisitions', { exact: true })).toBeVisible();
  await expect(tray.getByRole('button', { name: `Remove item 2, TRAY-${run}-002` })).toBeVisible();

  // Edit item 1 in the form and put it back.
  await tray.getByRole('button', { name: `Edit item 1, TRAY-${run}-000` }).click();
  await expect(page.getByLabel(/^Job title/)).toHaveValue('Tray role 0');
  await page.getByLabel(/^Job title/).fill('Tray role 0, edited');
  await page.getByRole('button', { name: 'Update item 1 in the batch' }).click();
  await expect(tray.getByRole('listitem').first()).toContainText('Tray role 0, edited');

  // The JSON preview shows the start of the 499 items and says the rest is in Copy/Download.
  await tray.getByText('JSON to be sent (499 requisitions)').click();
  await expect(tray.getByText(/more lines are not shown here/)).toBeVisible();

  // Send: the VMS gets 499 items, once, in one batch.
  const posts: string[] = [];
  page.on('request', (request) => {
    if (request.method() === 'POST') posts.push(request.url());
  });
  await tray.getByRole('button', { name: 'Send batch (499 requisitions)' }).click();
  await expect(page.getByRole('heading', { name: 'Batch accepted' })).toBeVisible();
  expect(posts).toHaveLength(1);
  await expect
    .poll(async () => {
      const all = (await (
        await page.request.get('/api/vms/requisitions?Client_Org_Id=1001&Vendor_Org_Id=9001')
      ).json()) as Array<{ ClientInternalReq: string; TitleRole: string }>;
      return all.filter((record) => record.ClientInternalReq.startsWith(`TRAY-${run}-`)).length;
    })
    .toBe(499);
  const all = (await (
    await page.request.get('/api/vms/requisitions?Client_Org_Id=1001&Vendor_Org_Id=9001')
  ).json()) as Array<{ ClientInternalReq: string; TitleRole: string }>;
  const byReference = new Map(all.map((record) => [record.ClientInternalReq, record.TitleRole]));
  expect(byReference.get(`TRAY-${run}-000`)).toBe('Tray role 0, edited');
  expect(byReference.has(`TRAY-${run}-001`)).toBe(false);
  await expect(tray.getByText(/^No requisitions yet/)).toBeVisible();
});
