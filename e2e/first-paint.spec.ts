import { expect as baseExpect, type Browser, type Page } from '@playwright/test';
import { adminEmail, adminPassword, test as authTest } from './support/auth-portal';
import { expect, test } from './support/fixtures';

// Each page is prerendered at build time and sent in the shell its visitor may see; the app
// hydrates it (decision 040).

/** A browser that runs no script at all: what the page shows is its HTML. */
async function withoutScripts(browser: Browser, run: (page: Page) => Promise<void>) {
  const context = await browser.newContext({ javaScriptEnabled: false });
  try {
    await run(await context.newPage());
  } finally {
    await context.close();
  }
}

const firstSection = [
  'Org ID',
  'Job title',
  'Number of openings',
  'Client internal req',
  'Priority',
  'Engagement type',
];

test('the form’s heading and first section, and the list’s frame, are in the page before any script runs', async ({
  browser,
  portal,
}) => {
  await withoutScripts(browser, async (page) => {
    await page.goto(`${portal.url}/requisitions/new`);
    await expect(page.getByRole('heading', { name: 'New requisition', level: 1 })).toBeVisible();
    await expect(page.getByRole('heading', { name: 'Basics', level: 2 })).toBeVisible();
    for (const label of firstSection) {
      await expect(page.locator('label.field__label', { hasText: label })).toBeVisible();
    }
    await expect(page.locator('.sandbox-banner')).toBeVisible();
    await expect(page.getByRole('link', { name: 'Requisitions', exact: true })).toBeVisible();
    await expect(page).toHaveTitle('New requisition · VMS submission portal');

    await page.goto(`${portal.url}/requisitions`);
    await expect(page.getByRole('heading', { name: 'Requisitions', level: 1 })).toBeVisible();
    for (const label of ['Filter by', 'Search titles']) {
      await expect(page.getByText(label, { exact: true })).toBeVisible();
    }
    await expect(page.getByText('Loading requisitions…')).toBeVisible();
  });
});

test('the page is drawn in the colours chosen in Settings before the app’s code has arrived', async ({
  browser,
  portal,
}) => {
  // A page of its own, without the fixture's watch: the app's code is refused on purpose below,
  // which the page reports.
  const context = await browser.newContext({ colorScheme: 'light' });
  try {
    const page = await context.newPage();
    await page.goto(`${portal.url}/settings`);
    await page.getByLabel('Dark', { exact: true }).check();
    await page.getByLabel(/^Show each field’s wire name/).check();
    await expect(page.locator('html')).toHaveAttribute('data-wire-names', 'shown');

    // Now without the app: what the page shows is what the server sent.
    await context.route('**/assets/*.js', (route) => route.abort());
    await page.goto(`${portal.url}/requisitions/new`);
    await expect(page.getByRole('heading', { name: 'New requisition' })).toBeVisible();
    await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
    await expect(page.locator('html')).toHaveAttribute('data-wire-names', 'shown');
    await expect(page.getByText('· titlerole')).toBeVisible();
    // Dark colours, not the light page's.
    const background = await page.evaluate(
      () => getComputedStyle(document.documentElement).backgroundColor,
    );
    const [red = 255] = (background.match(/\d+/g) ?? []).map(Number);
    expect(red).toBeLessThan(64);
    // The app never ran: the page is still the one the server sent.
    await expect(page.locator('#root[data-shell] [inert]')).toHaveCount(1);
    await expect(page.locator('.org-bar select')).toHaveCount(0);
  } finally {
    await context.close();
  }
});

test('hydrating each page gives no error or warning, and the app takes over where the page was', async ({
  page,
  portal,
}) => {
  const said: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error' || message.type() === 'warning') said.push(message.text());
  });
  page.on('pageerror', (error) => said.push(error.message));
  for (const path of [
    '/requisitions/new',
    '/requisitions?q=Senior',
    '/requisitions/amend/40001',
    '/candidates?reqId=40001',
    '/submissions',
    '/settings',
    '/nowhere',
  ]) {
    await page.goto(`${portal.url}${path}`);
    // The app's own page: the org context, which no prerendered page has.
    await expect(page.getByLabel('Client org', { exact: true })).toHaveValue('1001');
    await expect(page.locator('[inert]')).toHaveCount(0);
  }
  // The list's search came from the address once the app ran, not from the page.
  await page.goto(`${portal.url}/requisitions?q=Senior`);
  await expect(page.getByLabel('Search titles')).toHaveValue('Senior');
  await expect(page.getByRole('row', { name: /Senior Java Developer/ })).toBeVisible();
  expect(said).toEqual([]);
});

test('the list’s first visit asks the VMS for the list once, as the page starts; a repeat visit only for what changed', async ({
  page,
}) => {
  const asked: string[] = [];
  page.context().on('request', (request) => {
    const url = new URL(request.url());
    if (url.pathname === '/api/vms/requisitions') asked.push(url.search);
  });
  await page.goto('/requisitions');
  await expect(page.getByRole('row', { name: /Senior Java Developer/ })).toBeVisible();
  await expect(page.getByText('12 requisitions shown.')).toBeVisible();
  // The page's own GET, read by the worker, and the list query joined it: one call, whole list.
  expect(asked).toEqual(['?Client_Org_Id=1001&Vendor_Org_Id=9001']);

  asked.length = 0;
  await page.reload();
  await expect(page.getByText('12 requisitions shown.')).toBeVisible();
  await expect.poll(() => asked.length).toBe(1);
  expect(asked[0]).toMatch(/filterfield=Req_Updated_Date_Time&filteroperator=%3E%3D/);
});

test('the form can be typed into once the app has taken over, and keeps what is typed', async ({
  page,
}) => {
  await page.goto('/requisitions/new');
  const title = page.getByLabel(/^Job title/);
  await title.fill('Night nurse');
  await expect(page.getByLabel(/^Org ID/)).toHaveValue('1001');
  await page.reload();
  await expect(page.getByText('Draft restored')).toBeVisible();
  await expect(page.getByLabel(/^Job title/)).toHaveValue('Night nurse');
});

authTest(
  'with sign-in on, a visitor without a session is sent no part of the app; a signed-in one their shell',
  async ({ browser, authPortal }) => {
    await withoutScripts(browser, async (page) => {
      for (const path of ['/requisitions/new', '/users']) {
        await page.goto(`${authPortal.url}${path}`);
        await baseExpect(page.getByText('Checking who is signed in…')).toBeVisible();
        await baseExpect(page.getByRole('navigation')).toHaveCount(0);
        await baseExpect(page.getByRole('heading')).toHaveCount(0);
      }
      // Signed in (the session cookie set by the sign-in call, as the sign-in page does).
      const signedIn = await page.request.post(`${authPortal.url}/api/session`, {
        data: { email: adminEmail, password: adminPassword },
        headers: { origin: authPortal.url },
      });
      baseExpect(signedIn.status()).toBe(200);
      await page.goto(`${authPortal.url}/requisitions/new`);
      await baseExpect(
        page.getByRole('heading', { name: 'New requisition', level: 1 }),
      ).toBeVisible();
      await baseExpect(page.getByRole('link', { name: 'Users' })).toBeVisible();
    });
  },
);
