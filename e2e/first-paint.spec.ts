import { expect as baseExpect, type Browser, type Page } from '@playwright/test';
import { adminEmail, adminPassword, test as authTest, fillSignIn } from './support/auth-portal';
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
    await expect(page.getByRole('button', { name: 'Add to batch' })).toBeDisabled();
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

authTest(
  'with sign-in on, the list page asks the VMS nothing before the session is known, and shows only the signed-in user’s list',
  async ({ browser, authPortal }) => {
    // Three sign-ins, two waits for a request that must not come, on a machine that may be busy.
    authTest.setTimeout(90_000);
    const url = authPortal.url;
    const contosoEmail = 'carl.contoso@example.com';
    await authPortal.addUser(contosoEmail, adminPassword, [1002]);
    const context = await browser.newContext();
    try {
      const page = await context.newPage();
      const asked: string[] = [];
      context.on('request', (request) => {
        const address = new URL(request.url());
        if (address.pathname === '/api/vms/requisitions') {
          asked.push(address.searchParams.get('Client_Org_Id') ?? '');
        }
      });
      // A signed-out visitor: the page's start script and the app have run, and the sign-in
      // form is all there is.
      await page.goto(`${url}/requisitions`);
      await baseExpect(page.getByLabel('E-mail')).toBeVisible();
      // Time for a request the page's start script or the list's code might have made.
      await page.waitForTimeout(1000);
      baseExpect(asked).toEqual([]);
      await fillSignIn(page, adminEmail, adminPassword);
      await baseExpect(page.getByRole('row', { name: /Senior Java Developer/ })).toBeVisible();
      baseExpect(asked.every((org) => org === '1001')).toBe(true);

      // The admin signs out; the next visitor of this browser (a tab of its own, as the page
      // signed out may still be leaving), signed out, is asked nothing for. The signed-out tab
      // stays open, its calls counted with the next one's: closed while it was still starting
      // (its list's worker being made), Playwright's close waited until the journey timed out,
      // in 3 of 24 repeats.
      await page.getByRole('button', { name: 'Sign out' }).click();
      await baseExpect(page.getByLabel('E-mail')).toBeVisible();
      // Signed out at the server too: the session cookie is gone.
      await baseExpect
        .poll(async () =>
          (await context.cookies()).some(({ name }) => name.endsWith('vms_session')),
        )
        .toBe(false);
      const next = await context.newPage();
      asked.length = 0;
      await next.goto(`${url}/requisitions`);
      await baseExpect(next.getByLabel('E-mail')).toBeVisible();
      // Time for a request the page's start script or the list's code might have made.
      await next.waitForTimeout(1000);
      baseExpect(asked).toEqual([]);
      await baseExpect(next.getByRole('row')).toHaveCount(0);

      // Another user, of another client org, signs in: their list, never the admin's.
      await fillSignIn(next, contosoEmail, adminPassword);
      await baseExpect(next.getByRole('row', { name: /Mechanical Design Engineer/ })).toBeVisible();
      await baseExpect(next.getByRole('row', { name: /Senior Java Developer/ })).toHaveCount(0);
      baseExpect(asked.length).toBeGreaterThan(0);
      baseExpect(asked.every((org) => org === '1002')).toBe(true);
    } finally {
      await context.close();
    }
  },
);

test('the colours and wire names chosen in Settings are in the page a browser without JavaScript is sent', async ({
  browser,
  page,
  portal,
}) => {
  await page.goto(`${portal.url}/settings`);
  await page.getByLabel('Dark', { exact: true }).check();
  await page.getByLabel(/^Show each field’s wire name/).check();
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
  // A reload keeps them, before and after the app has run.
  await page.reload();
  await expect(page.getByLabel('Dark', { exact: true })).toBeChecked();
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
  const cookies = await page.context().cookies();

  // The same browser with JavaScript turned off: the page the server sends is dark already.
  const context = await browser.newContext({ javaScriptEnabled: false, colorScheme: 'light' });
  try {
    await context.addCookies(cookies);
    const plain = await context.newPage();
    await plain.goto(`${portal.url}/requisitions/new`);
    await expect(plain.locator('html')).toHaveAttribute('data-theme', 'dark');
    await expect(plain.getByText('· titlerole')).toBeVisible();
    // Light again: the next page says so.
    await page.getByLabel('Light', { exact: true }).check();
    await page.getByLabel(/^Show each field’s wire name/).uncheck();
    await context.clearCookies();
    await context.addCookies(await page.context().cookies());
    await plain.reload();
    await expect(plain.locator('html')).toHaveAttribute('data-theme', 'light');
    await expect(plain.locator('html')).not.toHaveAttribute('data-wire-names', /./);
    await expect(plain.getByText('· titlerole')).toBeHidden();
  } finally {
    await context.close();
  }
});
