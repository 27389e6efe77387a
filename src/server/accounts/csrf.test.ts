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

// No state-changing call from another site, with sign-in on or off.

const password = 'correct horse battery staple';
const send = '/api/vms/requisitionimport?Client_Org_Id=1001&Vendor_Org_Id=9001';
const batch = [{ titlerole: 'Nurse' }];

let dir: string;
let upstream: CaptureUpstream;
let signInOn: TestPortal;
let signInOff: TestPortal;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'portal-csrf-'));
  upstream = await startCaptureUpstream();
  const dbPath = join(dir, 'portal.db');
  signInOn = await startTestPortal(
    testConfig(upstream.url, { AUTH: 'on', PORTAL_DB: dbPath, PORTAL_RATE_LIMIT_PER_MINUTE: '0' }),
  );
  signInOff = await startTestPortal(
    testConfig(upstream.url, { PORTAL_DB: join(dir, 'off.db'), PORTAL_RATE_LIMIT_PER_MINUTE: '0' }),
  );
  await addUser(dbPath, 'ada@example.com', password, 'admin');
});

afterAll(async () => {
  await signInOn.close();
  await signInOff.close();
  await upstream.close();
  rmSync(dir, { recursive: true, force: true });
});

beforeEach(() => {
  upstream.requests.length = 0;
});

function errorOf(answer: { json(): unknown }) {
  return apiErrorBodySchema.parse(answer.json()).error;
}

describe('with sign-in on', () => {
  let browser: TestBrowser;
  beforeAll(async () => {
    browser = new TestBrowser(signInOn.url);
    expect((await browser.signIn('ada@example.com', password)).status).toBe(200);
  });

  it('sends with the session’s token from the portal’s own page', async () => {
    expect((await browser.call('POST', send, { body: batch })).status).toBe(202);
    expect(upstream.requests).toHaveLength(1);
  });

  it('refuses a state-changing call without the token, or with another one, and sends nothing', async () => {
    for (const headers of [{}, { 'x-csrf-token': 'A'.repeat(43) }]) {
      const answer = await browser.call('POST', send, { body: batch, noToken: true, headers });
      expect(answer.status).toBe(403);
      expect(errorOf(answer).code).toBe('csrf_failed');
    }
    for (const [method, path] of [
      ['DELETE', '/api/sessions'],
      ['PATCH', '/api/users/nobody'],
      ['PUT', '/api/me/drafts/d1'],
    ] as const) {
      const answer = await browser.call(method, path, { body: {}, noToken: true });
      expect(answer.status, `${method} ${path}`).toBe(403);
    }
    expect(upstream.requests).toHaveLength(0);
    // The session itself still works: the refusals signed nobody out.
    expect((await browser.call('POST', send, { body: batch })).status).toBe(202);
  });

  it('refuses a call from another origin even with the cookie and the token', async () => {
    const evil = new TestBrowser(signInOn.url, 'https://evil.example');
    evil.cookies.set('vms_session', browser.cookies.get('vms_session') ?? '');
    evil.csrfToken = browser.csrfToken;
    const answer = await evil.call('POST', send, { body: batch });
    expect(answer.status).toBe(403);
    expect(errorOf(answer)).toMatchObject({ code: 'csrf_failed' });
    expect(errorOf(answer).message).toContain('another site');
    // Origin alone is enough (a browser without Fetch Metadata)…
    const originOnly = await evil.call('POST', send, {
      body: batch,
      headers: { 'sec-fetch-site': '' },
    });
    expect(originOnly.status).toBe(403);
    expect(errorOf(originOnly).message).toContain('https://evil.example');
    // …and so is Sec-Fetch-Site, whatever Origin says.
    const sameSite = await browser.call('POST', send, {
      body: batch,
      headers: { 'sec-fetch-site': 'same-site' },
    });
    expect(sameSite.status).toBe(403);
    expect(upstream.requests).toHaveLength(0);
  });

  it('refuses a cross-site text/plain form post, and a same-origin one is not JSON (415)', async () => {
    const form = new TestBrowser(signInOn.url, 'https://evil.example');
    form.cookies.set('vms_session', browser.cookies.get('vms_session') ?? '');
    const crossSite = await form.call('POST', send, {
      raw: { contentType: 'text/plain', body: '[{"titlerole":"x"}]' },
    });
    expect(crossSite.status).toBe(403);
    const ownPage = await browser.call('POST', send, {
      raw: { contentType: 'text/plain', body: '[{"titlerole":"x"}]' },
    });
    expect(ownPage.status).toBe(415);
    const signIn = await browser.call('POST', '/api/session', {
      raw: {
        contentType: 'application/x-www-form-urlencoded',
        body: `email=ada%40example.com&password=${encodeURIComponent(password)}`,
      },
    });
    expect(signIn.status).toBe(415);
    expect(upstream.requests).toHaveLength(0);
  });

  it('refuses a sign-in posted from another site (login CSRF)', async () => {
    const evil = new TestBrowser(signInOn.url, 'https://evil.example');
    const answer = await evil.signIn('ada@example.com', password);
    expect(answer.status).toBe(403);
    expect(evil.cookies.size).toBe(0);
  });

  it('accepts a call with neither Origin nor Sec-Fetch-Site (no browser page: curl, a script)', async () => {
    const answer = await browser.call('POST', send, {
      body: batch,
      headers: { origin: '', 'sec-fetch-site': '' },
    });
    expect(answer.status).toBe(202);
  });
});

describe('with sign-in off (loopback, the default)', () => {
  it('still sends from the portal’s own page and from scripts, with no account and no token', async () => {
    const page = new TestBrowser(signInOff.url);
    expect((await page.call('POST', send, { body: batch })).status).toBe(202);
    expect(
      (
        await signInOff.call('POST', send, {
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify(batch),
        })
      ).status,
    ).toBe(202);
    expect(upstream.requests).toHaveLength(2);
  });

  it('refuses a page on another site: it cannot make the portal send', async () => {
    const evil = new TestBrowser(signInOff.url, 'http://evil.example');
    const answer = await evil.call('POST', send, { body: batch });
    expect(answer.status).toBe(403);
    expect(errorOf(answer).code).toBe('csrf_failed');
    const form = await evil.call('POST', send, {
      raw: { contentType: 'text/plain', body: JSON.stringify(batch) },
    });
    expect(form.status).toBe(403);
    expect(upstream.requests).toHaveLength(0);
  });

  it('says sign-in is off, and has no accounts or records to offer', async () => {
    const page = new TestBrowser(signInOff.url);
    expect(await page.session()).toEqual({
      authRequired: false,
      user: null,
      csrfToken: '',
      sso: null,
    });
    expect((await page.signIn('ada@example.com', password)).status).toBe(404);
    expect((await page.call('GET', '/api/users')).status).toBe(404);
    expect((await page.call('GET', '/api/me/drafts')).status).toBe(404);
    expect((await page.call('GET', '/api/journal')).status).toBe(200);
  });
});
