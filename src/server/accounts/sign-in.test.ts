import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { apiErrorBodySchema } from '@/domain/api-error';
import {
  startCaptureUpstream,
  startTestPortal,
  testConfig,
  type CaptureUpstream,
  type TestPortal,
} from '@/test-support/capture-upstream';
import { addUser, TestBrowser } from '@/test-support/test-browser';
import { queryTestDatabase, testDatabaseBytes } from '@/test-support/test-database';

// Sign-in attempts limited per account and per address with back-off, and
// one answer for every failure (no user enumeration).

const password = 'correct horse battery staple';
const second = 1000;

let dir: string;
let dbPath: string;
let upstream: CaptureUpstream;
let portal: TestPortal;
let clock = Date.parse('2026-11-23T09:00:00Z');

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'portal-sign-in-'));
  dbPath = join(dir, 'portal.db');
  upstream = await startCaptureUpstream();
  portal = await startTestPortal(
    testConfig(upstream.url, { AUTH: 'on', PORTAL_DB: dbPath, TRUST_PROXY: '127.0.0.1' }),
    { now: () => clock },
  );
  await addUser(dbPath, 'ada@example.com', password, 'recruiter', [1001]);
  await addUser(dbPath, 'gone@example.com', password, 'recruiter', [1001]);
  await addUser(dbPath, 'admin@example.com', password, 'admin');
  await queryTestDatabase(dbPath, `UPDATE users SET disabled = 1 WHERE email = 'gone@example.com'`);
  await queryTestDatabase(
    dbPath,
    `INSERT INTO users (id, email, role, created_at) VALUES ('u-invited', 'new@example.com', 'recruiter', 0)`,
  );
});

afterAll(async () => {
  await portal.close();
  await upstream.close();
  rmSync(dir, { recursive: true, force: true });
});

let address = 0;
/** A browser at its own client address (X-Forwarded-For, believed from 127.0.0.1). */
function browserAt(ip = `192.0.2.${(address += 1)}`) {
  const browser = new TestBrowser(portal.url);
  return {
    browser,
    signIn: (email: string, secret: string) =>
      browser.call('POST', '/api/session', {
        body: { email, password: secret },
        headers: { 'x-forwarded-for': ip },
      }),
  };
}

beforeEach(() => {
  // Past every back-off of the test before.
  clock += 2 * 60 * 60 * second;
});

function errorOf(answer: { json(): unknown }) {
  return apiErrorBodySchema.parse(answer.json()).error;
}

describe('one answer for every failure', () => {
  it('is the same status and body for an unknown address, a wrong password, a disabled account and a pending invite', async () => {
    const { signIn } = browserAt();
    const answers = [
      await signIn('nobody@example.com', password),
      await signIn('ada@example.com', 'wrong password here'),
      await signIn('gone@example.com', password),
      await signIn('new@example.com', password),
    ];
    for (const answer of answers) {
      expect(answer.status).toBe(401);
      expect(answer.text).toBe(answers[0]?.text);
      expect(errorOf(answer).code).toBe('invalid_credentials');
    }
  });

  it('costs about the same time for an unknown account as for a known one (a dummy hash is verified)', async () => {
    const { signIn } = browserAt();
    await signIn('nobody@example.com', 'warm up the dummy hash');
    const time = async (email: string) => {
      const started = performance.now();
      await signIn(email, 'wrong password here');
      return performance.now() - started;
    };
    const known: number[] = [];
    const unknown: number[] = [];
    for (let i = 0; i < 3; i += 1) {
      clock += 2 * 60 * 60 * second;
      known.push(await time('ada@example.com'));
      unknown.push(await time(`nobody${i}@example.com`));
    }
    const median = (values: number[]) => [...values].sort((a, b) => a - b)[1] ?? 0;
    // argon2id takes tens of milliseconds; skipping it would take about one.
    expect(median(unknown)).toBeGreaterThan(median(known) * 0.4);
  });

  it('logs why in the audit line, never the password', async () => {
    const { signIn } = browserAt();
    await signIn('ada@example.com', 'Sup3r-secret-typo!');
    await signIn('Sup3r-secret-typo!', 'whatever-typed-here');
    await signIn('ada@example.com', password);
    const audit = portal.logLines().filter((line) => line.audit === true);
    expect(audit).toContainEqual(
      expect.objectContaining({
        event: 'sign_in_failed',
        email: 'ada@example.com',
        reason: 'wrong_password',
      }),
    );
    expect(audit).toContainEqual(
      expect.objectContaining({ event: 'sign_in_failed', email: null, reason: 'unknown_account' }),
    );
    expect(audit).toContainEqual(
      expect.objectContaining({ event: 'sign_in', email: 'ada@example.com', method: 'password' }),
    );
    expect(portal.rawLog()).not.toContain('Sup3r-secret-typo!');
    expect(portal.rawLog()).not.toContain(password);
  });
});

describe('what a failed sign-in keeps', () => {
  it('keeps no name that is not an account, in the database or the log, and still limits it', async () => {
    // A password typed into the e-mail box, then into the password box: what people do.
    const typo = 'Wr0ng-B0x-Passw0rd!';
    for (let i = 0; i < 5; i += 1) {
      // Each from its own address: only the count per account name can stop the sixth.
      expect((await browserAt().signIn(typo, 'the password box')).status).toBe(401);
    }
    expect((await browserAt().signIn(typo, 'the password box')).status).toBe(429);
    // An e-mail-shaped name that is no account is not kept either.
    const stranger = 'someone.unknown@example.org';
    expect((await browserAt().signIn(stranger, 'anything at all')).status).toBe(401);

    const bytes = testDatabaseBytes(dbPath);
    for (const secret of [typo, typo.toLowerCase(), stranger]) {
      expect(bytes.includes(Buffer.from(secret, 'utf8'))).toBe(false);
      expect(bytes.includes(Buffer.from(Buffer.from(secret, 'utf8').toString('hex')))).toBe(false);
      expect(portal.rawLog().toLowerCase()).not.toContain(secret.toLowerCase());
    }
    const keys = await queryTestDatabase<{ key: string }>(
      dbPath,
      'SELECT key FROM sign_in_failures',
    );
    expect(keys.length).toBeGreaterThan(0);
    expect(keys.some((row) => row.key.includes('example'))).toBe(false);
  });
});

describe('back-off', () => {
  it('refuses the sixth attempt after five wrong passwords with 429 and Retry-After, even with the right password', async () => {
    const { signIn } = browserAt();
    for (let i = 0; i < 5; i += 1) {
      expect((await signIn('ada@example.com', `wrong password ${i}`)).status).toBe(401);
    }
    const sixth = await signIn('ada@example.com', password);
    expect(sixth.status).toBe(429);
    expect(sixth.headers['retry-after']).toBe('30');
    expect(errorOf(sixth).code).toBe('rate_limited');

    // From another address too: the account is what is limited.
    expect((await browserAt().signIn('ada@example.com', password)).status).toBe(429);
    // Other accounts are not.
    expect((await browserAt().signIn('admin@example.com', password)).status).toBe(200);

    clock += 29 * second;
    expect((await signIn('ada@example.com', password)).headers['retry-after']).toBe('1');
    clock += 1 * second;
    // Waited: one more wrong password doubles the wait.
    expect((await signIn('ada@example.com', 'wrong again')).status).toBe(401);
    const next = await signIn('ada@example.com', password);
    expect(next.status).toBe(429);
    expect(next.headers['retry-after']).toBe('60');
    clock += 60 * second;
    // The right password, once allowed, signs in and clears the account's count.
    expect((await signIn('ada@example.com', password)).status).toBe(200);
    expect((await signIn('ada@example.com', 'one slip')).status).toBe(401);
    expect((await signIn('ada@example.com', password)).status).toBe(200);
  });

  it('limits one address trying many accounts', async () => {
    const { signIn } = browserAt('198.51.100.7');
    for (let i = 0; i < 20; i += 1) {
      expect((await signIn(`guess${i}@example.com`, 'password123456')).status).toBe(401);
    }
    const answer = await signIn('admin@example.com', password);
    expect(answer.status).toBe(429);
    expect(Number(answer.headers['retry-after'])).toBeGreaterThan(0);
    // Another address is not held up.
    expect((await browserAt().signIn('admin@example.com', password)).status).toBe(200);
  });

  it('keeps counting across a restart (the counts are in the database)', async () => {
    const { signIn } = browserAt();
    for (let i = 0; i < 5; i += 1) await signIn('ada@example.com', `wrong ${i}`);
    const again = await startTestPortal(
      testConfig(upstream.url, { AUTH: 'on', PORTAL_DB: dbPath }),
      { now: () => clock },
    );
    try {
      const answer = await new TestBrowser(again.url).signIn('ada@example.com', password);
      expect(answer.status).toBe(429);
    } finally {
      await again.close();
    }
  });
});
