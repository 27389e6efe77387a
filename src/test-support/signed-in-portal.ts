import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sandboxDemo, type SandboxOptions } from '@/sandbox/index';
import type { BuildPortalOptions } from '@/server/app';
import { loadConfig } from '@/server/config';
import { startTestPortal, type TestPortal } from './capture-upstream';
import { testStoreEnv } from './postgres-server';
import { startTestSandbox, type TestSandbox } from './sandbox-client';
import { addUser, TestBrowser } from './test-browser';

/** Every account's password in these portals. */
export const testPassword = 'correct horse battery staple';

export interface TestAccount {
  email: string;
  role: 'recruiter' | 'qa' | 'admin';
  /** The client orgs a recruiter (or a QA engineer) works for; none by default. */
  orgs?: readonly number[];
}

export interface SignedInPortalOptions {
  /** The temporary folder's prefix, to tell a test's files apart. */
  prefix: string;
  /** How long the sandbox takes per item, in milliseconds. */
  processingDelayMs: number;
  /** The sandbox's database in the test's folder, kept across its restarts; else its own. */
  sandboxDbInFolder?: boolean;
  /** Settings added to (or replacing) the portal's defaults here. */
  env?: NodeJS.ProcessEnv;
  portal?: Omit<BuildPortalOptions, 'logStream'>;
  /** The accounts made, each then signed in with a browser of its own. */
  accounts: readonly TestAccount[];
}

export interface SignedInPortal {
  dir: string;
  /** The PORTAL_DB file (in the postgres project, the name its database is derived from). */
  dbPath: string;
  /** The sandbox now serving (a restart replaces it). */
  readonly sandbox: TestSandbox;
  portal: TestPortal;
  /** The signed-in browser of an account made at the start or added since. */
  browser(email: string): TestBrowser;
  /** Makes one more account, signed in with a browser of its own. */
  addAccount(account: TestAccount): Promise<TestBrowser>;
  /**
   * Stops the sandbox and starts it again on its port, with its database when it is in the
   * folder, and these options (a rule read differently): the portal talks to it unchanged.
   */
  restartSandbox(options?: Partial<SandboxOptions>): Promise<void>;
  close(): Promise<void>;
}

/**
 * A started portal with sign-in on, in front of the real sandbox (its demo credentials and
 * orgs), on a real database (PostgreSQL in the postgres test project), with accounts made and
 * each signed in: the set-up of the tests that drive the portal as several people.
 */
export async function startSignedInPortal(options: SignedInPortalOptions): Promise<SignedInPortal> {
  const dir = mkdtempSync(join(tmpdir(), options.prefix));
  const dbPath = join(dir, 'portal.db');
  const sandboxDb = options.sandboxDbInFolder ? { dbPath: join(dir, 'sandbox.db') } : {};
  let sandbox = await startTestSandbox({
    processingDelayMs: options.processingDelayMs,
    ...sandboxDb,
  });
  const portal = await startTestPortal(
    loadConfig(
      testStoreEnv({
        VMS_BASE_URL: sandbox.url,
        VMS_API_KEY: sandboxDemo.apiKey,
        VMS_API_SECRET: sandboxDemo.apiSecret,
        VMS_CLIENT_ORGS: '1001,1002',
        VMS_VENDOR_ORG_ID: String(sandboxDemo.vendorOrgId),
        VMS_PRODUCTION: 'off',
        AUTH: 'on',
        PORTAL_DB: dbPath,
        LOG_LEVEL: 'silent',
        ...options.env,
      }),
    ),
    options.portal,
  );
  const browsers = new Map<string, TestBrowser>();
  async function addAccount(account: TestAccount): Promise<TestBrowser> {
    await addUser(dbPath, account.email, testPassword, account.role, account.orgs);
    const browser = new TestBrowser(portal.url);
    const signedIn = await browser.signIn(account.email, testPassword);
    if (signedIn.status !== 200) {
      throw new Error(`${account.email} could not sign in: ${signedIn.status} ${signedIn.text}`);
    }
    browsers.set(account.email, browser);
    return browser;
  }
  for (const account of options.accounts) await addAccount(account);
  return {
    dir,
    dbPath,
    get sandbox() {
      return sandbox;
    },
    portal,
    browser(email) {
      const browser = browsers.get(email);
      if (!browser) throw new Error(`No account ${email} was made for this portal`);
      return browser;
    },
    addAccount,
    async restartSandbox(changes = {}) {
      const { port } = sandbox;
      await sandbox.close();
      sandbox = await startTestSandbox({
        processingDelayMs: options.processingDelayMs,
        ...sandboxDb,
        ...changes,
        port,
      });
    },
    async close() {
      await portal.close();
      await sandbox.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
