/**
 * Browser benchmark: the built portal in the system Chromium with a 4× CPU throttle,
 * each figure a ratio to a peer measured in the same run, medians of interleaved rounds.
 * - list: 2,000 vs 12 requisitions, first visit (a fresh browser profile) and repeat visit
 *   (reload): time until the first row is drawn, longest task, DOM size;
 * - tray: removing one item of 500 vs of 10 (click → next frame); page LCP with 500 vs none, on
 *   a visit after the one that stored the tray;
 * - form: LCP of the new-requisition page vs a minimal react-hook-form page of the same fields
 *   (bench/minimal-form), and typing latency (keydown → next frame) in skill 10's description
 *   while the error summary is shown, vs that page.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium, type Browser, type BrowserContext, type Page } from '@playwright/test';
import { z } from 'zod';
import { loadConfig } from '@/server/config';
import { startPortal, type RunningPortal } from '@/server/start';
import { requisitionInsert } from '@/test-support/test-data';
import { startPeerPage } from './browser-peer';
import { formatTable } from './measure';

export const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
export const CPU_THROTTLE = 4;
const SETTLE_MS = 1500;
export const chromiumPath = '/usr/bin/chromium';
const orgs = 'Client_Org_Id=1001&Vendor_Org_Id=9001';

export const browserBudgets = {
  listFirstVisit: 1.3,
  listRepeatVisit: 1.5,
  listLongestTask: 2,
  listDom: 3,
  trayRemove: 2,
  trayLcp: 1.2,
  // The form paints from its prerendered HTML, before the app's code has run (decision 040); the
  // peer page paints once its code has run.
  formLcp: 0.7,
  typing: 1.1,
} as const;

/** Installed in every page before its scripts: what the measurements read. */
const instrument = `
  window.__bench = { longest: 0, lcp: 0, firstRow: 0, typing: [] };
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) __bench.longest = Math.max(__bench.longest, entry.duration);
  }).observe({ type: 'longtask', buffered: true });
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) __bench.lcp = entry.startTime;
  }).observe({ type: 'largest-contentful-paint', buffered: true });
  new MutationObserver(() => {
    if (!__bench.firstRow && document.querySelector('table tbody tr[data-index]'))
      __bench.firstRow = performance.now();
  }).observe(document, { subtree: true, childList: true });
  addEventListener('keydown', () => {
    const start = performance.now();
    requestAnimationFrame(() => setTimeout(() => __bench.typing.push(performance.now() - start), 0));
  }, true);
`;

const benchSchema = z.object({
  longest: z.number(),
  lcp: z.number(),
  firstRow: z.number(),
  typing: z.array(z.number()),
});
const readBench = async (page: Page) =>
  benchSchema.parse(await page.evaluate(() => (window as unknown as { __bench: unknown }).__bench));

export const median = (values: readonly number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
};
export const spread = (values: readonly number[]) =>
  `${Math.min(...values).toFixed(0)}–${Math.max(...values).toFixed(0)}`;
export const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function throttledPage(
  browser: Browser,
  setup?: (context: BrowserContext) => Promise<void>,
): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  await context.addInitScript(instrument);
  if (setup) await setup(context);
  return { context, page: await throttledTab(context) };
}

/** A new tab of `context`, its CPU slowed as every measured page's is. */
async function throttledTab(context: BrowserContext): Promise<Page> {
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: CPU_THROTTLE });
  return page;
}

export async function startBenchPortal(): Promise<{ portal: RunningPortal; cleanup(): void }> {
  const dir = mkdtempSync(join(tmpdir(), 'bench-browser-'));
  const portal = await startPortal(
    loadConfig({
      PORT: '0',
      SANDBOX_PORT: '0',
      SANDBOX_DB: join(dir, 'sandbox.db'),
      PORTAL_DB: join(dir, 'portal.db'),
      LOG_LEVEL: 'silent',
    }),
    { sandbox: { processingDelayMs: 0 } },
  );
  return { portal, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

/** Inserts `count` requisitions through the portal's proxy and waits until the VMS has them. */
async function seedRequisitions(url: string, count: number): Promise<void> {
  for (let start = 0; start < count; start += 500) {
    const items = Array.from({ length: Math.min(500, count - start) }, (_, i) =>
      requisitionInsert({
        clientinternalreq: `BENCH-${start + i}`,
        titlerole: `Bench role ${start + i}`,
      }),
    );
    const posted = await fetch(`${url}/api/vms/requisitionimport?${orgs}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(items),
    });
    const { batchid } = z.object({ batchid: z.string() }).parse(await posted.json());
    for (;;) {
      await pause(300);
      const rows = z
        .array(z.object({ Status: z.string() }))
        .parse(
          await (
            await fetch(`${url}/api/vms/requisitionresults?${orgs}&batchid=${batchid}`)
          ).json(),
        );
      if (rows.every((row) => row.Status !== 'Pending')) break;
    }
  }
}

const trayItems = (count: number) =>
  Array.from({ length: count }, (_, i) => ({
    id: `bench-${i}`,
    wire: requisitionInsert({ clientinternalreq: `TRAY-${i}`, titlerole: `Tray role ${i}` }),
    addedAt: '2026-11-22T09:00:00.000Z',
  }));

/**
 * Where the earlier version kept a tray: the portal moves it to IndexedDB on the first visit (by
 * way of its connection's key), and removes it from localStorage once the database has it.
 */
const trayPrefix = 'vms-portal:v1:tray:';
const trayKey = `${trayPrefix}requisition:1001`;

/** A browser profile whose portal tray holds `count` items (written once, before any page). */
const withTray = (count: number) => async (context: BrowserContext) => {
  if (count === 0) return;
  await context.addInitScript(
    ({ key, value }) => {
      // Once per browser profile (the measured visit is in a second tab): a key of the bench's
      // own, outside the portal's.
      if (localStorage.getItem('bench-tray') === null) {
        localStorage.setItem(key, value);
        localStorage.setItem('bench-tray', 'yes');
      }
    },
    {
      key: trayKey,
      value: JSON.stringify({ items: trayItems(count), sendKey: null, lost: null }),
    },
  );
};

interface ListVisit {
  firstRowMs: number;
  longestMs: number;
  dom: number;
}

async function listVisit(page: Page, load: () => Promise<unknown>): Promise<ListVisit> {
  await load();
  await page.waitForFunction(
    () => (window as unknown as { __bench: { firstRow: number } }).__bench.firstRow > 0,
    null,
    {
      timeout: 60_000,
    },
  );
  await pause(SETTLE_MS);
  const bench = await readBench(page);
  const dom = await page.evaluate(() => document.getElementsByTagName('*').length);
  return { firstRowMs: bench.firstRow, longestMs: bench.longest, dom };
}

/** First visit (fresh profile) and repeat visit (reload) of the requisition list. */
async function measureList(browser: Browser, url: string) {
  const { context, page } = await throttledPage(browser);
  try {
    const first = await listVisit(page, () => page.goto(`${url}/requisitions`));
    const repeat = await listVisit(page, () => page.reload());
    return { first, repeat };
  } finally {
    await context.close();
  }
}

/** Visits of the tray page measured per round (their median LCP). */
const trayVisits = 3;

/** Opens the form page with a tray of `count` items: its LCP, and (count > 1) remove-one times. */
async function measureTray(browser: Browser, url: string, count: number) {
  const { context, page: first } = await throttledPage(browser, withTray(count));
  try {
    const trayShown = (page: Page) =>
      page
        .getByRole('region', { name: 'Batch to send' })
        .getByText(count === 0 ? /^No requisitions yet/ : `${count} requisitions`, {
          exact: count > 0,
        })
        .waitFor();
    // The first visit moves the tray written by the bench into the browser's database; the
    // page is then measured as a user with that tray finds it: on the next visit, once the move
    // is done (the tray leaves localStorage when the database has it), in a tab of its own. The
    // page paints from its HTML in a few hundred milliseconds now, and a reload of the same tab
    // counted the old page's teardown in the new one's LCP: ~50 ms more with 500 items drawn
    // (its style, paint and detach before the new page commits, in a trace), which the tray
    // costs leaving a page, not reaching one.
    await first.goto(`${url}/requisitions/new`);
    await trayShown(first);
    await first.waitForFunction(
      (prefix) => Object.keys(localStorage).every((key) => !key.startsWith(prefix)),
      trayPrefix,
      { timeout: 60_000 },
    );
    await pause(SETTLE_MS);
    await first.close();
    // The LCP of a page drawn from its HTML is a few hundred milliseconds, and one visit's noise
    // on a shared machine is as much as the difference measured: the median of three visits.
    const lcps: number[] = [];
    let page = first;
    for (let visit = 0; visit < trayVisits; visit += 1) {
      if (visit > 0) await page.close();
      // The tab before is torn down first: drawn with 500 items, that took long enough to be
      // counted in the next page's LCP (~50 ms), which is the tray's cost leaving a page.
      await pause(SETTLE_MS);
      page = await throttledTab(context);
      await page.goto(`${url}/requisitions/new`);
      // As for the form's LCP, nothing is asked of the page while it starts: a locator's polling
      // runs script in the page, and it added about 180 ms to both pages' LCP (8 rounds each).
      await pause(SETTLE_MS);
      await trayShown(page);
      await pause(SETTLE_MS);
      lcps.push((await readBench(page)).lcp);
    }
    const lcp = median(lcps);
    const removeMs: number[] = [];
    if (count > 1) {
      for (let i = 0; i < 3; i += 1) {
        removeMs.push(
          await page.evaluate(async () => {
            const button = document.querySelector<HTMLButtonElement>(
              'button[aria-label^="Remove item 2,"]',
            );
            if (!button) throw new Error('no Remove button for item 2');
            const start = performance.now();
            button.click();
            await new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)));
            return performance.now() - start;
          }),
        );
        await pause(300);
      }
    }
    return { lcp, removeMs: median(removeMs) };
  } finally {
    await context.close();
  }
}

/** LCP of a form page, then typing in skill 10's description with the error summary shown. */
async function measureForm(
  browser: Browser,
  url: string,
  prepare: (page: Page) => Promise<void>,
): Promise<{ lcp: number; typingMs: number }> {
  const { context, page } = await throttledPage(browser);
  try {
    await page.goto(url);
    // Nothing is asked of the page until it has painted: a locator's polling runs script in the
    // page, and while the page is still starting that would be counted in its LCP.
    await pause(SETTLE_MS);
    await page.getByRole('heading', { name: 'New requisition', level: 1 }).waitFor();
    const { lcp } = await readBench(page);
    await prepare(page);
    // Both pages settle before the first key. Each row the portal's preparation adds changes the
    // form, and Chromium's browser process parses it again for autofill (four parses of 50–90 ms
    // a click, queued), which the peer page, born with its rows, never pays; typed into at once,
    // the portal's first keys met that queue (decision 022).
    await pause(SETTLE_MS);
    await page.evaluate(() => {
      (window as unknown as { __bench: { typing: number[] } }).__bench.typing = [];
    });
    await page.keyboard.type('Kubernetes and Terraform', { delay: 60 });
    await pause(300);
    const { typing } = await readBench(page);
    return { lcp, typingMs: median(typing) };
  } finally {
    await context.close();
  }
}

async function preparePortalForm(page: Page) {
  const add = page.getByRole('button', { name: 'Add a skill' });
  for (let n = 1; n <= 10; n += 1) {
    if (await page.getByRole('group', { name: `Skill ${n}`, exact: true }).count()) continue;
    await add.click();
  }
  await page.getByRole('button', { name: 'Add to batch' }).click();
  await page
    .getByRole('heading', { name: /problem/i })
    .first()
    .waitFor();
  await page
    .getByRole('group', { name: 'Skill 10', exact: true })
    .getByLabel(/description/)
    .focus();
}

async function preparePeerForm(page: Page) {
  await page.getByRole('button', { name: 'Add to batch' }).click();
  await page.getByRole('heading', { name: 'There is a problem' }).waitFor();
  await page.locator('#skilldescription10').focus();
}

export interface BrowserBenchResult {
  withinBudget: boolean;
}

export async function runBrowserBench(): Promise<BrowserBenchResult> {
  if (!existsSync(join(import.meta.dirname, '..', 'dist', 'index.html'))) {
    console.error('\nBrowser bench: dist/ is missing; run "npm run build" first.');
    return { withinBudget: false };
  }
  if (!existsSync(chromiumPath)) {
    console.error(`\nBrowser bench: no Chromium at ${chromiumPath} (apt-get install -y chromium).`);
    return { withinBudget: false };
  }
  const big = await startBenchPortal();
  const small = await startBenchPortal();
  const peer = await startPeerPage();
  const browser = await chromium.launch({ executablePath: chromiumPath, args: ['--no-sandbox'] });
  try {
    await seedRequisitions(big.portal.url, 2000);
    const samples: Record<string, number[]> = {};
    const add = (name: string, value: number) => (samples[name] ??= []).push(value);
    for (let round = 0; round < ROUNDS; round += 1) {
      // Interleaved: every case once per round, so other load falls on all alike.
      const large = await measureList(browser, big.portal.url);
      const few = await measureList(browser, small.portal.url);
      add('list first 2000', large.first.firstRowMs);
      add('list first 12', few.first.firstRowMs);
      add('list repeat 2000', large.repeat.firstRowMs);
      add('list repeat 12', few.repeat.firstRowMs);
      add('longest task 2000', Math.max(large.first.longestMs, large.repeat.longestMs));
      add('longest task 12', Math.max(few.first.longestMs, few.repeat.longestMs));
      add('DOM 2000', large.first.dom);
      add('DOM 12', few.first.dom);
      const tray500 = await measureTray(browser, small.portal.url, 500);
      const tray10 = await measureTray(browser, small.portal.url, 10);
      const tray0 = await measureTray(browser, small.portal.url, 0);
      add('tray remove 500', tray500.removeMs);
      add('tray remove 10', tray10.removeMs);
      add('tray LCP 500', tray500.lcp);
      add('tray LCP empty', tray0.lcp);
      // The two form pages take turns going first, so what the page before leaves behind falls on
      // each alike.
      const measurePortalForm = () =>
        measureForm(browser, `${small.portal.url}/requisitions/new`, preparePortalForm);
      const measurePeerForm = () => measureForm(browser, `${peer.url}/`, preparePeerForm);
      let portalForm, peerForm;
      if (round % 2 === 0) {
        portalForm = await measurePortalForm();
        peerForm = await measurePeerForm();
      } else {
        peerForm = await measurePeerForm();
        portalForm = await measurePortalForm();
      }
      add('form LCP portal', portalForm.lcp);
      add('form LCP peer', peerForm.lcp);
      add('typing portal', portalForm.typingMs);
      add('typing peer', peerForm.typingMs);
    }
    const m = (name: string) => median(samples[name] ?? []);
    const lines = [
      [
        'list first visit: first row, 2,000 vs 12',
        'list first 2000',
        'list first 12',
        browserBudgets.listFirstVisit,
      ],
      [
        'list repeat visit: first row, 2,000 vs 12',
        'list repeat 2000',
        'list repeat 12',
        browserBudgets.listRepeatVisit,
      ],
      [
        'list longest task, 2,000 vs 12',
        'longest task 2000',
        'longest task 12',
        browserBudgets.listLongestTask,
      ],
      ['list DOM elements, 2,000 vs 12', 'DOM 2000', 'DOM 12', browserBudgets.listDom],
      [
        'tray remove one: 500 vs 10 items',
        'tray remove 500',
        'tray remove 10',
        browserBudgets.trayRemove,
      ],
      [
        'tray page LCP: 500 items vs empty',
        'tray LCP 500',
        'tray LCP empty',
        browserBudgets.trayLcp,
      ],
      [
        'form LCP: portal vs minimal RHF page',
        'form LCP portal',
        'form LCP peer',
        browserBudgets.formLcp,
      ],
      [
        'typing in skill 10 with errors shown: portal vs RHF page',
        'typing portal',
        'typing peer',
        browserBudgets.typing,
      ],
    ] as const;
    let withinBudget = true;
    const rows = lines.map(([what, measured, peerName, budget]) => {
      const ratio = m(measured) / m(peerName);
      const met = ratio <= budget;
      withinBudget &&= met;
      return {
        what,
        measured: `${m(measured).toFixed(0)} (${spread(samples[measured] ?? [])})`,
        peer: `${m(peerName).toFixed(0)} (${spread(samples[peerName] ?? [])})`,
        ratio: ratio.toFixed(2),
        budget: `≤ ${budget}`,
        result: met ? 'met' : 'MISSED',
      };
    });
    console.log(
      `\nBrowser: Chromium, ${CPU_THROTTLE}× CPU throttle, medians (min–max) of ${ROUNDS} interleaved rounds; ms, or elements for DOM`,
    );
    console.log(formatTable(rows));
    return { withinBudget };
  } finally {
    await browser.close();
    await peer.close();
    await big.portal.close();
    await small.portal.close();
    big.cleanup();
    small.cleanup();
  }
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const result = await runBrowserBench();
  if (!result.withinBudget) process.exitCode = 1;
}
