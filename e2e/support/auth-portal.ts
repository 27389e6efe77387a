import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { test as base, type Browser, type Page } from '@playwright/test';
import { loadConfig, type LogLevel } from '@/server/config';
import { startPortal, type RunningPortal } from '@/server/start';
import { addUser } from '@/test-support/test-browser';
import { startOnTakenOverPages } from './fixtures';
import { newTestDatabase } from './postgres';

/** Sign-in on (AUTH=on) with an admin account; journeys add the accounts they need. */
export const adminEmail = 'ada.admin@example.com';
export const adminPassword = 'correct horse battery staple';

export interface AuthPortal extends RunningPortal {
  /** Its SQLite file; in the chromium-postgres project `databaseUrl` holds its stores instead. */
  portalDb: string;
  databaseUrl: string | null;
  /** Every line the portal logged (none at the default level, silent). */
  log(): string;
  /** Moves the portal's clock forward. */
  advance(ms: number): void;
  /** An account with a password (recruiters for Northwind Health, 1001, unless told). */
  addUser(
    email: string,
    password: string,
    orgs?: readonly number[],
    role?: 'recruiter' | 'qa' | 'admin',
  ): Promise<void>;
}

export const test = base.extend<{ authPortal: AuthPortal; portalLogLevel: LogLevel }>({
  // A journey that scans the portal's log for what must not be in it turns logging on.
  portalLogLevel: ['silent', { option: true }],
  page: async ({ page }, use) => {
    startOnTakenOverPages(page);
    await use(page);
  },
  authPortal: async ({ portalLogLevel }, use, testInfo) => {
    const dir = mkdtempSync(join(tmpdir(), 'vms-portal-auth-'));
    const portalDb = join(dir, 'portal.db');
    // The chromium-postgres project runs these journeys again with every store in PostgreSQL.
    const databaseUrl = testInfo.project.name === 'chromium-postgres' ? newTestDatabase() : null;
    const database = databaseUrl ? { databaseUrl } : portalDb;
    await addUser(database, adminEmail, adminPassword, 'admin');
    let offset = 0;
    let log = '';
    const logStream = new Writable({
      write(chunk: Buffer, _encoding, done) {
        log += chunk.toString('utf8');
        done();
      },
    });
    const portal = await startPortal(
      loadConfig({
        PORT: '0',
        SANDBOX_PORT: '0',
        SANDBOX_DB: join(dir, 'sandbox.db'),
        PORTAL_DB: portalDb,
        ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
        AUTH: 'on',
        LOG_LEVEL: portalLogLevel,
      }),
      { sandbox: { processingDelayMs: 50 }, now: () => Date.now() + offset, logStream },
    );
    await use({
      ...portal,
      portalDb,
      databaseUrl,
      log: () => log,
      advance: (ms) => (offset += ms),
      addUser: (email, password, orgs = [1001], role = 'recruiter') =>
        addUser(database, email, password, role, orgs),
    });
    await portal.close();
    rmSync(dir, { recursive: true, force: true });
  },
});

/** Fills in the sign-in form the page shows, and sends it. */
export async function fillSignIn(page: Page, email: string, password: string) {
  await page.getByLabel('E-mail').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
}

export async function signIn(page: Page, url: string, email: string, password: string) {
  await page.goto(url);
  await fillSignIn(page, email, password);
}

export async function newPage(browser: Browser) {
  const context = await browser.newContext();
  const page = await context.newPage();
  startOnTakenOverPages(page);
  return { context, page };
}
