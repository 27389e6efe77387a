import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Provider from 'oidc-provider';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sessionStateSchema } from '@/domain/auth';
import { buildPortal } from '@/server/app';
import { freePort } from '@/server/free-port';
import {
  startCaptureUpstream,
  testConfig,
  type CaptureUpstream,
} from '@/test-support/capture-upstream';
import { addUser, TestBrowser } from '@/test-support/test-browser';

// Single sign-on through OpenID Connect, against a real provider (oidc-provider)
// started by the test, with its development login and consent pages driven over HTTP.

const clientId = 'vms-portal';
const clientSecret = 'sso-test-secret-8f3a61c2d9';

let dir: string;
let upstream: CaptureUpstream;
let idp: Server;
let issuer: string;
let portalUrl: string;
let closePortal: () => Promise<void>;
let log = '';

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'portal-sso-'));
  const dbPath = join(dir, 'portal.db');
  upstream = await startCaptureUpstream();
  const port = await freePort();
  portalUrl = `http://127.0.0.1:${port}`;

  idp = createServer();
  await new Promise<void>((resolve) => idp.listen(0, '127.0.0.1', resolve));
  issuer = `http://127.0.0.1:${(idp.address() as AddressInfo).port}`;
  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: clientId,
        client_secret: clientSecret,
        redirect_uris: [`${portalUrl}/api/auth/oidc/callback`],
        grant_types: ['authorization_code'],
        response_types: ['code'],
      },
    ],
    // The login page takes any name: it is the e-mail address, verified unless it says otherwise.
    async findAccount(_context: unknown, id: string) {
      return {
        accountId: id,
        claims: async () => ({ sub: id, email: id, email_verified: !id.startsWith('unverified') }),
      };
    },
    claims: { openid: ['sub'], email: ['email', 'email_verified'] },
    pkce: { required: () => true },
    cookies: { keys: ['sso-test-cookie-key'] },
  });
  idp.on('request', provider.callback());

  const config = testConfig(upstream.url, {
    AUTH: 'on',
    PORTAL_DB: dbPath,
    OIDC_ISSUER: issuer,
    OIDC_CLIENT_ID: clientId,
    OIDC_CLIENT_SECRET: clientSecret,
    OIDC_LABEL: 'Staff login',
  });
  const { Writable } = await import('node:stream');
  const app = buildPortal(config, {
    logStream: new Writable({
      write(chunk: Buffer, _encoding, done) {
        log += chunk.toString('utf8');
        done();
      },
    }),
  });
  await app.listen({ port, host: '127.0.0.1' });
  closePortal = () => app.close();
  await addUser(dbPath, 'ada@example.com', 'correct horse battery staple', 'recruiter', [1001]);
  await addUser(dbPath, 'unverified-ada@example.com', 'correct horse battery staple', 'recruiter');
});

afterAll(async () => {
  await closePortal();
  idp.closeAllConnections();
  await new Promise<void>((resolve) => idp.close(() => resolve()));
  await upstream.close();
  rmSync(dir, { recursive: true, force: true });
});

/** The provider's side of the browser: its own cookies, its redirects followed by hand. */
async function atProvider(startUrl: string, login: string): Promise<string> {
  const jar = new Map<string, string>();
  let url = startUrl;
  for (let step = 0; step < 12; step += 1) {
    const cookie = [...jar].map(([name, value]) => `${name}=${value}`).join('; ');
    const res = await request(url, { headers: cookie ? { cookie } : {} });
    for (const line of [res.headers['set-cookie'] ?? []].flat()) {
      const [pair = ''] = line.split(';');
      const at = pair.indexOf('=');
      jar.set(pair.slice(0, at), pair.slice(at + 1));
    }
    const location = res.headers.location;
    const html = await res.body.text();
    if (typeof location === 'string') {
      const next = new URL(location, url).href;
      // Back to the portal: the browser goes on there.
      if (next.startsWith(portalUrl)) return next;
      url = next;
      continue;
    }
    // A page of the development interactions: sign in as `login`, then consent.
    const prompt = html.includes('name="login"') ? 'login' : 'consent';
    const posted = await request(url, {
      method: 'POST',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        cookie: [...jar].map(([name, value]) => `${name}=${value}`).join('; '),
      },
      body: new URLSearchParams({ prompt, login, password: 'anything' }).toString(),
    });
    await posted.body.text();
    const after = posted.headers.location;
    if (typeof after !== 'string') throw new Error(`the provider answered ${posted.statusCode}`);
    url = new URL(after, url).href;
  }
  throw new Error('the provider never sent the browser back');
}

async function signInWithSso(browser: TestBrowser, login: string) {
  const start = await browser.call('GET', '/api/auth/oidc/start');
  expect(start.status).toBe(302);
  const authorize = new URL(String(start.headers.location));
  expect(authorize.origin).toBe(issuer);
  expect(authorize.searchParams.get('code_challenge_method')).toBe('S256');
  expect(authorize.searchParams.get('scope')).toBe('openid email');
  const callback = await atProvider(authorize.href, login);
  return browser.call('GET', callback.slice(portalUrl.length));
}

describe('single sign-on (OpenID Connect)', () => {
  it('is offered on the sign-in page', async () => {
    const state = await new TestBrowser(portalUrl).session();
    expect(state.sso).toEqual({ label: 'Staff login' });
  });

  it('signs in a user with an account, with a new session of the portal', async () => {
    const browser = new TestBrowser(portalUrl);
    const back = await signInWithSso(browser, 'Ada@Example.com');
    expect(back.status).toBe(302);
    expect(back.headers.location).toBe('/');
    expect(browser.cookies.has('vms_session')).toBe(true);
    expect(browser.cookies.has('vms_sso')).toBe(false);
    const state = sessionStateSchema.parse((await browser.call('GET', '/api/session')).json());
    expect(state.user).toMatchObject({ email: 'ada@example.com', clientOrgIds: [1001] });
    expect(log).toContain('"event":"sign_in"');
    expect(log).toContain('"method":"sso"');
    expect(log).not.toContain(clientSecret);
  });

  it('signs in nobody without an account, or with an address the provider has not verified', async () => {
    for (const [login, reason] of [
      ['stranger@example.com', 'no_account'],
      ['unverified-ada@example.com', 'unverified_email'],
    ] as const) {
      const browser = new TestBrowser(portalUrl);
      const back = await signInWithSso(browser, login);
      expect(back.headers.location).toBe(`/?sso_error=${reason}`);
      expect(browser.cookies.has('vms_session')).toBe(false);
    }
  });

  it('refuses a callback in a browser that did not start the sign-in (login CSRF), and a used one', async () => {
    const victim = new TestBrowser(portalUrl);
    const attacker = new TestBrowser(portalUrl);
    const start = await attacker.call('GET', '/api/auth/oidc/start');
    const callback = await atProvider(String(start.headers.location), 'ada@example.com');
    const path = callback.slice(portalUrl.length);
    // The attacker hands the victim its callback link: the victim has no matching state cookie.
    const forced = await victim.call('GET', path);
    expect(forced.headers.location).toBe('/?sso_error=expired');
    expect(victim.cookies.has('vms_session')).toBe(false);
    // In the browser that started it, it works once; the same callback again does not.
    expect((await attacker.call('GET', path)).headers.location).toBe('/');
    const replay = await attacker.call('GET', path);
    expect(replay.headers.location).toBe('/?sso_error=expired');
  });
});
