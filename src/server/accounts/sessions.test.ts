import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiErrorBodySchema } from '@/domain/api-error';
import { sessionStateSchema, signedOutEverywhereSchema } from '@/domain/auth';
import { runUsersCli } from '@/server/cli/users';
import {
  startCaptureUpstream,
  startTestPortal,
  testConfig,
  type CaptureUpstream,
  type TestPortal,
} from '@/test-support/capture-upstream';
import { testStoreEnv } from '@/test-support/postgres-server';
import { addUser, TestBrowser } from '@/test-support/test-browser';
import { queryTestDatabase } from '@/test-support/test-database';

// Server-side sessions in the portal database, as ASVS 5.0 level 2 asks.

const password = 'correct horse battery staple';
const orgs = '?Client_Org_Id=1001&Vendor_Org_Id=9001';
const minute = 60_000;

let dir: string;
let dbPath: string;
let upstream: CaptureUpstream;
let portal: TestPortal;
let proxied: TestPortal;
let clock = Date.parse('2026-11-23T09:00:00Z');
const now = () => clock;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'portal-sessions-'));
  dbPath = join(dir, 'portal.db');
  upstream = await startCaptureUpstream();
  const env = { AUTH: 'on', PORTAL_DB: dbPath, PORTAL_RATE_LIMIT_PER_MINUTE: '0' };
  portal = await startTestPortal(testConfig(upstream.url, env), { now });
  // The same database behind a reverse proxy that terminates TLS.
  proxied = await startTestPortal(testConfig(upstream.url, { ...env, TRUST_PROXY: '127.0.0.1' }), {
    now,
  });
  await addUser(dbPath, 'ada@example.com', password, 'recruiter', [1001]);
  await addUser(dbPath, 'bob@example.com', password, 'recruiter', [1001]);
});

afterAll(async () => {
  await portal.close();
  await proxied.close();
  await upstream.close();
  rmSync(dir, { recursive: true, force: true });
});

function code(answer: { json(): unknown }): string {
  return apiErrorBodySchema.parse(answer.json()).error.code;
}

async function signedIn(email = 'ada@example.com', on: TestPortal = portal): Promise<TestBrowser> {
  const browser = new TestBrowser(on.url);
  expect((await browser.signIn(email, password)).status).toBe(200);
  return browser;
}

describe('signing in', () => {
  it('says whether sign-in is required, and who is signed in', async () => {
    const browser = new TestBrowser(portal.url);
    expect(await browser.session()).toEqual({
      authRequired: true,
      user: null,
      csrfToken: '',
      sso: null,
    });
    const answer = await browser.signIn('  Ada@Example.com ', password);
    expect(answer.status).toBe(200);
    const state = sessionStateSchema.parse(answer.json());
    expect(state.user).toMatchObject({
      email: 'ada@example.com',
      role: 'recruiter',
      clientOrgIds: [1001],
    });
    expect(state.csrfToken).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(await browser.session()).toEqual(state);
    expect(answer.headers['cache-control']).toBe('no-store');
  });

  it('keeps the session in an HttpOnly, SameSite=Lax cookie of 256 random bits, never Secure over plain HTTP', async () => {
    const browser = await signedIn();
    const [cookie] = browser.setCookies;
    expect(cookie).toMatch(/^vms_session=[A-Za-z0-9_-]{43}; /);
    expect(cookie).toContain('; Path=/');
    expect(cookie).toContain('; HttpOnly');
    expect(cookie).toContain('; SameSite=Lax');
    expect(cookie).toContain(`; Max-Age=${12 * 60 * 60}`);
    expect(cookie).not.toContain('Secure');
    expect(cookie).not.toContain('Domain');
  });

  it('stores only a digest of the session id', async () => {
    const browser = await signedIn();
    const id = browser.cookies.get('vms_session') ?? '';
    const rows = await queryTestDatabase<{ id_hash: Buffer }>(
      dbPath,
      'SELECT id_hash FROM sessions',
    );
    expect(rows.length).toBeGreaterThan(0);
    for (const { id_hash: stored } of rows) {
      expect(stored).toHaveLength(32);
      expect(stored.includes(Buffer.from(id))).toBe(false);
    }
  });

  it('behind TRUST_PROXY over HTTPS: Secure and the __Host- prefix; a cookie without it is not read there', async () => {
    const https = { 'x-forwarded-proto': 'https', 'x-forwarded-host': 'portal.example.com' };
    const browser = new TestBrowser(proxied.url, 'https://portal.example.com');
    const answer = await browser.call('POST', '/api/session', {
      body: { email: 'ada@example.com', password },
      headers: { ...https, 'sec-fetch-site': 'same-origin' },
    });
    expect(answer.status).toBe(200);
    const [cookie] = browser.setCookies;
    expect(cookie).toMatch(/^__Host-vms_session=[A-Za-z0-9_-]{43}; Path=\/; /);
    expect(cookie).toContain('; Secure');
    expect(cookie).toContain('; HttpOnly');
    const state = sessionStateSchema.parse(
      (await browser.call('GET', '/api/session', { headers: https })).json(),
    );
    expect(state.user?.email).toBe('ada@example.com');

    // Over HTTPS only the __Host- cookie is read: one without the prefix (which a sibling
    // subdomain or a plain-HTTP page could have planted) is no session there.
    const id = browser.cookies.get('__Host-vms_session') ?? '';
    const planted = await new TestBrowser(proxied.url).call('GET', '/api/session', {
      headers: { ...https, cookie: `vms_session=${id}` },
    });
    expect(sessionStateSchema.parse(planted.json()).user).toBeNull();
  });

  it('ignores X-Forwarded-Proto without TRUST_PROXY', async () => {
    const browser = new TestBrowser(portal.url);
    await browser.call('POST', '/api/session', {
      body: { email: 'ada@example.com', password },
      headers: { 'x-forwarded-proto': 'https' },
    });
    expect(browser.setCookies[0]).toMatch(/^vms_session=/);
    expect(browser.setCookies[0]).not.toContain('Secure');
  });

  it('gives a new session id at sign-in and ends the one the browser had (no fixation)', async () => {
    const browser = await signedIn('bob@example.com');
    const before = browser.cookies.get('vms_session') ?? '';
    // Someone else signs in in the same browser: the old id must not become theirs.
    expect((await browser.signIn('ada@example.com', password)).status).toBe(200);
    const after = browser.cookies.get('vms_session') ?? '';
    expect(after).not.toBe(before);
    const stale = await new TestBrowser(portal.url).call('GET', '/api/session', {
      headers: { cookie: `vms_session=${before}` },
    });
    expect(sessionStateSchema.parse(stale.json()).user).toBeNull();

    // An id planted by an attacker is never adopted: sign-in sets another.
    const planted = 'A'.repeat(43);
    const victim = new TestBrowser(portal.url);
    victim.cookies.set('vms_session', planted);
    await victim.signIn('ada@example.com', password);
    expect(victim.cookies.get('vms_session')).not.toBe(planted);
  });
});

describe('how long a session lasts (a clock the test moves)', () => {
  it('ends after 30 minutes without use, and says so', async () => {
    const browser = await signedIn();
    clock += 29 * minute;
    expect((await browser.call('GET', `/api/vms/requisitions${orgs}`)).status).toBe(200);
    clock += 29 * minute; // 58 minutes after sign-in, 29 after the last use
    expect((await browser.call('GET', `/api/vms/requisitions${orgs}`)).status).toBe(200);
    clock += 31 * minute;
    const answer = await browser.call('GET', `/api/vms/requisitions${orgs}`);
    expect(answer.status).toBe(401);
    const { error } = apiErrorBodySchema.parse(answer.json());
    expect(error.code).toBe('unauthenticated');
    expect(error.message).toContain('30 minutes without use');
    expect(browser.cookies.has('vms_session')).toBe(false);
    expect((await browser.session()).user).toBeNull();
  });

  it('is not kept alive by asking who is signed in', async () => {
    const browser = await signedIn();
    for (let i = 0; i < 4; i += 1) {
      clock += 10 * minute;
      await browser.session();
    }
    expect((await browser.call('GET', `/api/vms/requisitions${orgs}`)).status).toBe(401);
  });

  it('ends 12 hours after sign-in however busy', async () => {
    const browser = await signedIn();
    for (let hour = 0; hour < 11; hour += 1) {
      clock += 20 * minute;
      expect((await browser.call('GET', `/api/vms/requisitions${orgs}`)).status).toBe(200);
      clock += 20 * minute;
      expect((await browser.call('GET', `/api/vms/requisitions${orgs}`)).status).toBe(200);
      clock += 20 * minute;
      expect((await browser.call('GET', `/api/vms/requisitions${orgs}`)).status).toBe(200);
    }
    clock += 60 * minute;
    const answer = await browser.call('GET', `/api/vms/requisitions${orgs}`);
    expect(answer.status).toBe(401);
    expect(apiErrorBodySchema.parse(answer.json()).error.message).toContain('12 hours');
  });
});

describe('signing out', () => {
  it('ends this session and clears the cookie', async () => {
    const browser = await signedIn();
    const id = browser.cookies.get('vms_session') ?? '';
    const out = await browser.call('DELETE', '/api/session');
    expect(out.status).toBe(204);
    expect(browser.setCookies.at(-1)).toMatch(/^vms_session=; Path=\/; Max-Age=0; /);
    const replayed = await new TestBrowser(portal.url).call('GET', `/api/vms/requisitions${orgs}`, {
      headers: { cookie: `vms_session=${id}` },
    });
    expect(replayed.status).toBe(401);
  });

  it('everywhere: every session of the user ends, other users keep theirs', async () => {
    // Sessions left by the tests above are ended first, so the count below is the phone's alone.
    await (await signedIn()).call('DELETE', '/api/sessions');
    const laptop = await signedIn();
    const phone = await signedIn();
    const other = await signedIn('bob@example.com');
    const everywhere = await laptop.call('DELETE', '/api/sessions');
    expect(everywhere.status).toBe(200);
    // The phone's session ended; the laptop's own is not counted among the others.
    expect(signedOutEverywhereSchema.parse(everywhere.json())).toEqual({ otherSessions: 1 });
    expect(laptop.setCookies.at(-1)).toMatch(/^vms_session=; /);
    expect((await laptop.call('GET', `/api/vms/requisitions${orgs}`)).status).toBe(401);
    expect((await phone.call('GET', `/api/vms/requisitions${orgs}`)).status).toBe(401);
    expect((await other.call('GET', `/api/vms/requisitions${orgs}`)).status).toBe(200);
  });

  it('writes audit lines for signing out and for sessions that ended, with no session id', async () => {
    const browser = await signedIn('bob@example.com');
    const id = browser.cookies.get('vms_session') ?? '';
    await browser.call('DELETE', '/api/session');
    const expiring = await signedIn('bob@example.com');
    clock += 31 * minute;
    await expiring.call('GET', `/api/vms/requisitions${orgs}`);
    const audit = portal.logLines().filter((line) => line.audit === true);
    expect(audit).toContainEqual(
      expect.objectContaining({ event: 'sign_out', email: 'bob@example.com' }),
    );
    expect(audit).toContainEqual(
      expect.objectContaining({ event: 'session_expired', reason: 'idle' }),
    );
    expect(portal.rawLog()).not.toContain(id);
    expect(portal.rawLog()).not.toContain(expiring.cookies.get('vms_session') ?? 'none');
  });

  it('needs a session to sign out everywhere, and none to sign out', async () => {
    const nobody = new TestBrowser(portal.url);
    expect((await nobody.call('DELETE', '/api/session')).status).toBe(204);
    const everywhere = await nobody.call('DELETE', '/api/sessions');
    expect(everywhere.status).toBe(401);
    expect(code(everywhere)).toBe('unauthenticated');
  });
});

describe('a new password', () => {
  it('ends every other session of the account (accepting an invite, a reset by a new invite)', async () => {
    await addUser(dbPath, 'cara@example.com', password, 'recruiter', [1001]);
    const here = await signedIn('cara@example.com');
    const there = await signedIn('cara@example.com');
    const other = await signedIn('bob@example.com');
    // A reset: a new invite for an account that has a password.
    let printed = '';
    const code = await runUsersCli(['invite', 'cara@example.com'], {
      env: testStoreEnv({ PORTAL_DB: dbPath, LOG_LEVEL: 'silent' }),
      stdout: (text) => {
        printed += text;
      },
      stderr: () => {},
      readStdin: async () => '',
      askHidden: null,
    });
    expect(code).toBe(0);
    const token = /\/invite\/([A-Za-z0-9_-]{43})/.exec(printed)?.[1];
    const fresh = new TestBrowser(portal.url);
    const accepted = await fresh.call('POST', `/api/invites/${token}`, {
      body: { password: 'a brand new passphrase' },
    });
    expect(accepted.status).toBe(200);
    for (const old of [here, there]) {
      const answer = await old.call('GET', `/api/vms/requisitions${orgs}`);
      expect(answer.status).toBe(401);
    }
    expect((await fresh.call('GET', `/api/vms/requisitions${orgs}`)).status).toBe(200);
    // Another account's sessions are not touched.
    expect((await other.call('GET', `/api/vms/requisitions${orgs}`)).status).toBe(200);
    expect(portal.logLines()).toContainEqual(
      expect.objectContaining({
        event: 'password_set',
        email: 'cara@example.com',
        sessionsEnded: 2,
      }),
    );
  });
});

describe('a session valid in one portal process is valid in another on the same database', () => {
  it('signs in on one and is recognised by the other', async () => {
    const browser = await signedIn('ada@example.com', portal);
    const id = browser.cookies.get('vms_session') ?? '';
    const elsewhere = await new TestBrowser(proxied.url).call('GET', '/api/session', {
      headers: { cookie: `vms_session=${id}` },
    });
    expect(sessionStateSchema.parse(elsewhere.json()).user?.email).toBe('ada@example.com');
  });
});
