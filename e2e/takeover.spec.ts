import type { BrowserContext, Locator, Page } from '@playwright/test';
import { expect as baseExpect, test } from './support/fixtures';

// What a person does on a prerendered page before the app has taken it over is not lost
// (decision 040): a link pressed navigates, a field focused keeps its focus and what was typed,
// and a button is either acted on or visibly not yet available. Each try holds the app's code
// back (every script of /assets/) until the person has begun, so every try acts before the app
// has taken over, whatever the machine's speed; the page runs at a 4× CPU throttle, as the
// benchmark's pages do.

/**
 * Tries of each journey. Every try holds the app back until the person has acted, so each one is
 * the case that used to lose the click, not a chance at it: the suite runs 6 of each (about 5 s a
 * try), and the proof of none lost in 50 is `TAKEOVER_TRIES=50 npx playwright test
 * e2e/takeover.spec.ts` (decision 040 has its figures).
 */
const tries = Number(process.env.TAKEOVER_TRIES ?? 6);
const throttle = 4;
// A throttled page on a busy shared machine takes seconds to start.
test.use({ actionTimeout: 20_000 });
const expect = baseExpect.configure({ timeout: 20_000 });

/**
 * A tab of its own for each try, at the CPU throttle (as the benchmark makes one per visit), with
 * the app's code held back until `release()`. Any uncaught error or Content-Security-Policy
 * violation in any of them fails the journey, as it does for the fixture's page.
 */
function tabs(context: BrowserContext, baseURL: string) {
  const problems: string[] = [];
  let tab: Page | null = null;
  let release = () => {};
  return {
    problems,
    /** Opens `path` in a new tab, closing the last, with the app's code held back. */
    async open(path: string): Promise<Page> {
      await tab?.close();
      const page = await context.newPage();
      tab = page;
      const released = new Promise<void>((resolve) => (release = resolve));
      await page.route('**/assets/*.js', async (route) => {
        await released;
        await route.continue();
      });
      page.on('pageerror', (error) => problems.push(`uncaught error: ${error.message}`));
      page.on('console', (message) => {
        if (message.type() === 'error' && /Content Security Policy/i.test(message.text()))
          problems.push(`CSP violation: ${message.text()}`);
      });
      const cdp = await context.newCDPSession(page);
      await cdp.send('Emulation.setCPUThrottlingRate', { rate: throttle });
      await page.goto(`${baseURL}${path}`, { waitUntil: 'domcontentloaded' });
      return page;
    },
    release: () => release(),
  };
}

/** The app's own page: the org context, which no prerendered page has. */
const tookOver = (page: Page) => page.getByLabel('Client org', { exact: true });

/** Until React has taken `element` into its tree (hydrated it). */
async function hydrated(element: Locator) {
  const handle = await element.elementHandle();
  await element
    .page()
    .waitForFunction(
      (node) => !!node && Object.keys(node).some((key) => key.startsWith('__reactFiber')),
      handle,
      { polling: 20 },
    );
}

async function middleOf(element: Locator) {
  const box = await element.boundingBox();
  if (!box) throw new Error(`${element.toString()} has no box`);
  return { x: box.x + box.width / 2, y: box.y + box.height / 2 };
}

test('a navigation link pressed before the app has taken over goes where it leads', async ({
  context,
  portal,
}) => {
  test.setTimeout(60_000 + tries * 20_000);
  const app = tabs(context, portal.url);
  for (let attempt = 1; attempt <= tries; attempt += 1) {
    const page = await app.open('/requisitions/new');
    const link = page.getByRole('navigation', { name: 'Main' }).getByRole('link', {
      name: 'Requisitions',
      exact: true,
    });
    const { x, y } = await middleOf(link);
    await page.mouse.move(x, y);
    if (attempt % 2 === 1) {
      // Clicked before the app's code has run: the link is the page's own.
      await page.mouse.down();
      await page.mouse.up();
      app.release();
    } else {
      // Pressed before the app's code has run, released once it has hydrated the page: a press
      // that spans the moment the app takes over, as a person's often does.
      await page.mouse.down();
      app.release();
      await hydrated(link);
      // Time for the app to take over, were it to while the link is held.
      await page.waitForTimeout(200);
      await page.mouse.up();
    }
    await expect(page, `try ${attempt}`).toHaveURL(/\/requisitions$/);
    await expect(page.getByRole('heading', { name: 'Requisitions', level: 1 })).toBeVisible();
    await expect(tookOver(page)).toBeVisible();
  }
  expect(app.problems).toEqual([]);
});

test('before the app has taken over, a button is visibly not yet available, and a field focused keeps its focus and every character typed', async ({
  context,
  portal,
}) => {
  test.setTimeout(60_000 + tries * 20_000);
  const app = tabs(context, portal.url);
  let page = await app.open('/requisitions/new');
  for (let attempt = 1; attempt <= tries; attempt += 1) {
    if (attempt > 1) page = await app.open('/requisitions/new');
    const title = page.getByLabel(/^Job title/);
    const add = page.getByRole('button', { name: 'Add to batch' });
    const typed = `Night nurse ${attempt}`;
    // The form's button cannot be used yet, and shows it; a press does nothing.
    await expect(add, `try ${attempt}`).toBeDisabled();
    await expect(add).toHaveCSS('cursor', 'not-allowed');
    const { x, y } = await middleOf(add);
    await page.mouse.click(x, y);
    // The first half typed before the app's code runs, the rest as it hydrates and takes over.
    await title.click();
    await page.keyboard.type(typed.slice(0, 6));
    app.release();
    await page.keyboard.type(typed.slice(6));
    await expect(tookOver(page)).toBeVisible();
    // And still once the batch beside the form has been read from the browser's database.
    await expect(
      page.getByRole('region', { name: 'Batch to send' }).getByText(/^No requisitions yet/),
    ).toBeVisible();
    await expect(title, `try ${attempt}`).toBeFocused();
    await expect(title, `try ${attempt}`).toHaveValue(typed);
    // The press was not acted on later (the form was not checked), and the button works now.
    await expect(page.getByRole('alert')).toHaveCount(0);
    await expect(add).toBeEnabled();
  }
  // What was typed is the form's, not only the page's: its draft, saved as it changes, has it.
  const last = `Night nurse ${tries}`;
  await expect
    .poll(() =>
      page.evaluate((text) => Object.values(localStorage).some((v) => v.includes(text)), last),
    )
    .toBe(true);
  await page.unrouteAll();
  await page.reload();
  await expect(page.getByText('Draft restored.')).toBeVisible();
  await expect(page.getByLabel(/^Job title/)).toHaveValue(last);
  // And the button acts once the app has taken over: the form is checked.
  await page.getByRole('button', { name: 'Add to batch' }).click();
  await expect(page.getByRole('heading', { name: 'There is a problem' })).toBeVisible();
  expect(app.problems).toEqual([]);
});

/** The form's fields a person types into, with a value for try `n` (a new one each try). */
const typedFields = (n: number) => [
  { label: /^Job title/, value: `Night nurse ${n}` },
  { label: /^Number of openings/, value: String(n + 1) },
  { label: /^Client internal req/, value: `TAKEOVER-${n}` },
  { label: /^Req class ID/, value: '101' },
  { label: /^Hours per day/, value: '8' },
  { label: /^Days per week/, value: String(1 + (n % 5)) },
  { label: /^Short description/, value: `Covers nights on ward ${n}.` },
  { label: /^Requisition owner ID/, value: `owner${n}` },
];

test('a whole form typed as the app takes over, as a person types, keeps every value, over a draft kept from before', async ({
  context,
  portal,
}) => {
  test.setTimeout(60_000 + tries * 30_000);
  const app = tabs(context, portal.url);
  const lost: string[] = [];
  let straddled = 0;
  for (let attempt = 1; attempt <= tries; attempt += 1) {
    // The person types field after field at a steady pace; the app's code is let go after the
    // first few (a different number each try), and takes over somewhere in the rest. The tabs
    // are one browser's, so from the second try on the app also restores the last try's draft.
    const page = await app.open('/requisitions/new');
    const fields = typedFields(attempt);
    const letGoAfter = attempt % 4;
    for (const [index, { label, value }] of fields.entries()) {
      if (index === letGoAfter) app.release();
      await page.getByLabel(label).click();
      // Over whatever the field shows: a value kept in the draft, once the app has restored it.
      await page.keyboard.press('ControlOrMeta+A');
      await page.keyboard.type(value, { delay: 40 });
    }
    if (await page.evaluate(() => document.querySelector('.page-shell') === null)) straddled += 1;
    await expect(tookOver(page)).toBeVisible();
    for (const { label, value } of fields) {
      const shown = await page.getByLabel(label).inputValue();
      if (shown !== value)
        lost.push(`try ${attempt}: ${String(label)} shows "${shown}", typed "${value}"`);
    }
    await expect(page.getByLabel(/^Requisition owner ID/), `try ${attempt}`).toBeFocused();
  }
  expect(lost).toEqual([]);
  // Most tries are the case in question: begun on the prerendered page, ended on the app's.
  expect(straddled).toBeGreaterThanOrEqual(Math.ceil(tries / 2));
  expect(app.problems).toEqual([]);
});
