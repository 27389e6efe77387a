import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import { test as base, expect, type BrowserContext, type Page } from '@playwright/test';
import { sandboxDemo, startSandbox, type RunningSandbox } from '@/sandbox/index';
import { loadConfig } from '@/server/config';
import { startPortal, type RunningPortal } from '@/server/start';
import { startEchoingVms, type EchoingVms } from './echoing-vms';
import { startSlowVms, type SlowVms } from './slow-vms';

/**
 * Every journey runs against the real portal server and the real sandbox VMS, each on a free
 * port with its own fresh SQLite file: nothing is mocked and no test sees another's data. The
 * built app (dist/) is what the portal serves; `npm run test:e2e` builds it first.
 */
const processingDelayMs = 50;

/**
 * The pages read a batch's results from the server's watch (decision 055), which checks the VMS
 * about 1, 2, 4 … 60 s after the send. A journey's batch settles within seconds of being sent:
 * checked every second at most, its results show within a journey's patience.
 */
const journeyBackoff = { firstMs: 250, maxMs: 1_000 };

/** The sandbox in its own process slot, so a journey can stop it and start it again. */
export interface Upstream {
  readonly url: string;
  stop(): Promise<void>;
  /** Starts it again on the same port with the same database. */
  start(): Promise<void>;
}

interface Fixtures {
  /** The embedded sandbox's pause before each batch item (0 to seed thousands quickly). */
  sandboxDelayMs: number;
  /** Portal + embedded sandbox (upstream kind "sandbox"), as `npm start` runs them. */
  portal: RunningPortal;
  /** Collects the POSTs that left the browser for the VMS proxy. */
  vmsPosts: string[];
}

interface OutageFixtures {
  /** A sandbox started on its own, that the journey can stop and restart. */
  upstream: Upstream;
}

/**
 * Every journey also fails on an uncaught error in the page or a Content-Security-Policy
 * violation (the portal's CSP forbids eval and inline scripts and styles).
 */
export async function watchedPage({ page }: { page: Page }, use: (page: Page) => Promise<void>) {
  const problems: string[] = [];
  // Chromium does not always log a blocked eval to the console; the page's own event does tell.
  await page.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (event) =>
      console.error(
        `Content Security Policy violation: ${event.violatedDirective} blocked ${event.blockedURI}`,
      ),
    );
  });
  startOnTakenOverPages(page);
  page.on('pageerror', (error) => problems.push(`uncaught error: ${error.message}`));
  page.on('console', (message) => {
    if (message.type() === 'error' && /Content Security Policy/i.test(message.text()))
      problems.push(`CSP violation: ${message.text()}`);
  });
  await use(page);
  expect(problems).toEqual([]);
}

/**
 * A journey's page, once loaded, is the app's own: `goto` and `reload` also wait until the app has
 * taken over the prerendered page (decision 040), as the inert prerendered page made every action
 * wait before. What a person does before that moment is the takeover journeys' to prove, with real
 * presses and keys; Playwright's `fill` is no person: it focuses a field and sends its text in two
 * steps, and a field replaced between them has its text land nowhere. A `goto` told to return at
 * `commit` returns then, for a journey that means to act before the app runs.
 */
export function startOnTakenOverPages(page: Page) {
  const tookOver = () =>
    page.waitForFunction(() => document.querySelector('.page-shell') === null, undefined, {
      polling: 50,
    });
  const goto = page.goto.bind(page);
  page.goto = async (url, options) => {
    const response = await goto(url, options);
    if (options?.waitUntil !== 'commit') await tookOver();
    return response;
  };
  const reload = page.reload.bind(page);
  page.reload = async (options) => {
    const response = await reload(options);
    if (options?.waitUntil !== 'commit') await tookOver();
    return response;
  };
}

/** A page of a context the journey made itself, as the fixtures' page: it starts on the app's page. */
export async function openPage(context: BrowserContext): Promise<Page> {
  const page = await context.newPage();
  startOnTakenOverPages(page);
  return page;
}

/** A journey that starts its own portal: only the watched page that starts on the app's page. */
export const journeyTest = base.extend({ page: watchedPage });

export function tempDb(): { path: string; portalPath: string; cleanup(): void } {
  const dir = mkdtempSync(join(tmpdir(), 'vms-portal-e2e-'));
  return {
    path: join(dir, 'sandbox.db'),
    portalPath: join(dir, 'portal.db'),
    cleanup: () => rmSync(dir, { recursive: true, force: true }),
  };
}

/** The portal in front of a VMS started on its own (upstream kind "remote"). */
export function remotePortalConfig(vmsUrl: string, portalDb: string, env: NodeJS.ProcessEnv = {}) {
  return loadConfig({
    PORT: '0',
    PORTAL_DB: portalDb,
    VMS_BASE_URL: vmsUrl,
    VMS_API_KEY: sandboxDemo.apiKey,
    VMS_API_SECRET: sandboxDemo.apiSecret,
    VMS_CLIENT_ORGS: sandboxDemo.clientOrgIds.join(','),
    VMS_VENDOR_ORG_ID: String(sandboxDemo.vendorOrgId),
    // A test VMS: no production banner or first-send question in journeys about other things.
    VMS_PRODUCTION: 'off',
    LOG_LEVEL: 'silent',
    ...env,
  });
}

export const test = base.extend<Fixtures>({
  page: watchedPage,
  sandboxDelayMs: [processingDelayMs, { option: true }],
  portal: async ({ sandboxDelayMs }, use) => {
    const db = tempDb();
    const portal = await startPortal(
      loadConfig({
        PORT: '0',
        SANDBOX_PORT: '0',
        SANDBOX_DB: db.path,
        PORTAL_DB: db.portalPath,
        LOG_LEVEL: 'silent',
      }),
      { sandbox: { processingDelayMs: sandboxDelayMs }, watcher: { backoff: journeyBackoff } },
    );
    await use(portal);
    await portal.close();
    db.cleanup();
  },
  baseURL: async ({ portal }, use) => use(portal.url),
  vmsPosts: async ({ page }, use) => {
    const posts: string[] = [];
    page.on('request', (request) => {
      if (request.method() === 'POST') posts.push(request.url());
    });
    await use(posts);
  },
});

/** A portal pointed at a separately started sandbox (upstream kind "remote"), for outages. */
export const outageTest = base.extend<OutageFixtures & { portal: RunningPortal }>({
  page: watchedPage,
  upstream: async ({}, use) => {
    const db = tempDb();
    let sandbox: RunningSandbox | null = await startSandbox({
      port: 0,
      dbPath: db.path,
      processingDelayMs,
    });
    const port = sandbox.port;
    const url = sandbox.url;
    await use({
      url,
      stop: async () => {
        await sandbox?.close();
        sandbox = null;
      },
      start: async () => {
        sandbox ??= await startSandbox({ port, dbPath: db.path, processingDelayMs });
      },
    });
    await sandbox?.close();
    db.cleanup();
  },
  portal: async ({ upstream }, use) => {
    const db = tempDb();
    const portal = await startPortal(
      remotePortalConfig(upstream.url, db.portalPath, { VMS_TIMEOUT_MS: '5000' }),
    );
    await use(portal);
    await portal.close();
    db.cleanup();
  },
  baseURL: async ({ portal }, use) => use(portal.url),
});

/** axe-core on the page as it is now: no violation of any rule (WCAG A/AA and best practice). */
/**
 * A portal whose VMS answers POSTs late (a lost answer): the sandbox behind a real slow
 * hop. The portal gives the browser 504 after 1 s and keeps waiting up to `VMS_LATE_ANSWER_MS`.
 */
export const slowVmsTest = base.extend<{
  slowVms: SlowVms;
  lateAnswerMs: number;
  /** Settings of the portal besides those above (a drain's timeout, a longer wait). */
  portalSettings: NodeJS.ProcessEnv;
  portal: RunningPortal;
}>({
  page: watchedPage,
  lateAnswerMs: [20_000, { option: true }],
  portalSettings: [{}, { option: true }],
  slowVms: async ({}, use) => {
    const db = tempDb();
    const sandbox = await startSandbox({ port: 0, dbPath: db.path, processingDelayMs });
    const slow = await startSlowVms(sandbox.url, 2500);
    await use(slow);
    await slow.close();
    await sandbox.close();
    db.cleanup();
  },
  portal: async ({ slowVms, lateAnswerMs, portalSettings }, use) => {
    const db = tempDb();
    const portal = await startPortal(
      remotePortalConfig(slowVms.url, db.portalPath, {
        VMS_TIMEOUT_MS: '1000',
        VMS_LATE_ANSWER_MS: String(lateAnswerMs),
        ...portalSettings,
      }),
    );
    await use(portal);
    await portal.close();
    db.cleanup();
  },
  baseURL: async ({ portal }, use) => use(portal.url),
});

/** A portal whose VMS quotes the key and signature it was sent: the sandbox behind an echoing hop. */
export const echoingVmsTest = base.extend<{ echoingVms: EchoingVms; portal: RunningPortal }>({
  page: watchedPage,
  echoingVms: async ({}, use) => {
    const db = tempDb();
    const sandbox = await startSandbox({ port: 0, dbPath: db.path, processingDelayMs });
    const echoing = await startEchoingVms(sandbox.url);
    await use(echoing);
    await echoing.close();
    await sandbox.close();
    db.cleanup();
  },
  portal: async ({ echoingVms }, use) => {
    const db = tempDb();
    const portal = await startPortal(remotePortalConfig(echoingVms.url, db.portalPath));
    await use(portal);
    await portal.close();
    db.cleanup();
  },
  baseURL: async ({ portal }, use) => use(portal.url),
});

export async function expectNoAxeViolations(page: Page): Promise<void> {
  const results = await new AxeBuilder({ page }).analyze();
  const summary = results.violations.map(
    (violation) =>
      `${violation.id}: ${violation.help} (${violation.nodes.map((node) => node.target.join(' ')).join(', ')})`,
  );
  expect(summary).toEqual([]);
}

export { expect };
