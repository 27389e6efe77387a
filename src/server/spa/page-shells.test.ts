import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pageShellKey, pageShells } from '@/domain/page-shell';
import {
  startCaptureUpstream,
  startTestPortal,
  testConfig,
  type CaptureUpstream,
  type TestPortal,
} from '@/test-support/capture-upstream';
import { addUser, TestBrowser } from '@/test-support/test-browser';

// The page the server sends before the app runs (decision 040): the build's prerendered page in
// the shell this request may see, and a CSP that lets the page's own inline scripts run and no
// other. A small stand-in for the build's output, so the server's choices are what is tested.

const password = 'correct horse battery staple';
const headScript = 'document.documentElement.dataset.test = "head";';
const bodyScript = 'window.started = true;';
let dir: string;
let upstream: CaptureUpstream;
const portals: TestPortal[] = [];

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'portal-shells-'));
  const dist = join(dir, 'dist');
  mkdirSync(join(dist, 'assets'), { recursive: true });
  writeFileSync(
    join(dist, 'index.html'),
    `<!doctype html><html><head><meta charset="UTF-8" /><script>${headScript}</script><title>VMS submission portal</title></head><body><div id="root"></div><script>${bodyScript}</script></body></html>`,
  );
  const shellsOf = (path: string) =>
    Object.fromEntries(
      pageShells.map((shell) => [
        pageShellKey(shell),
        { title: `${path} page`, html: `<p>${path} in ${pageShellKey(shell)}</p>` },
      ]),
    );
  const paths = ['/', '/requisitions', '/requisitions/amend/:reqId?'];
  writeFileSync(
    join(dist, 'shells.json'),
    JSON.stringify({
      routes: paths.map((path) => ({ path, shells: shellsOf(path) })),
      notFound: shellsOf('other'),
      bare: ['/invite/:token'],
    }),
  );
  writeFileSync(
    join(dist, 'route-preloads.json'),
    JSON.stringify({
      routes: paths.map((path) => ({ path, scripts: [], styles: [] })),
      notFound: { scripts: [], styles: [] },
    }),
  );
  upstream = await startCaptureUpstream();
});

afterAll(async () => {
  for (const portal of portals) await portal.close();
  await upstream.close();
  rmSync(dir, { recursive: true, force: true });
});

async function portalWith(env: NodeJS.ProcessEnv = {}) {
  const portal = await startTestPortal(
    testConfig(upstream.url, {
      PORTAL_DB: join(dir, `portal-${portals.length}.db`),
      PORTAL_RATE_LIMIT_PER_MINUTE: '0',
      ...env,
    }),
    { distDir: join(dir, 'dist') },
  );
  portals.push(portal);
  return portal;
}

async function page(browser: TestBrowser, path: string) {
  const answer = await browser.call('GET', path, { headers: { accept: 'text/html' } });
  expect(answer.status, path).toBe(200);
  const root = /<div id="root"( data-shell="([^"]*)")?>(.*?)<\/div>/s.exec(answer.text);
  return {
    shell: root?.[2] ?? null,
    content: root?.[3] ?? null,
    title: /<title>([^<]*)<\/title>/.exec(answer.text)?.[1],
    answer,
  };
}

const sha256 = (script: string) =>
  `'sha256-${createHash('sha256').update(script).digest('base64')}'`;

describe('with sign-in off', () => {
  it('sends each page in the app’s shell, with every page in its navigation, titled', async () => {
    const browser = new TestBrowser((await portalWith()).url);
    expect(await page(browser, '/requisitions?status=O')).toMatchObject({
      shell: 'app:admin',
      content: '<p>/requisitions in app:admin</p>',
      title: '/requisitions page',
    });
    expect((await page(browser, '/requisitions/amend/42')).content).toBe(
      '<p>/requisitions/amend/:reqId? in app:admin</p>',
    );
    expect((await page(browser, '/')).content).toBe('<p>/ in app:admin</p>');
    expect((await page(browser, '/somewhere/else')).content).toBe('<p>other in app:admin</p>');
  });

  it('leaves the invite page to the app: no shell', async () => {
    const browser = new TestBrowser((await portalWith()).url);
    expect(await page(browser, '/invite/abc')).toMatchObject({
      shell: null,
      content: '',
      title: 'VMS submission portal',
    });
  });

  it('draws the page in the colours and with the wire names this browser chose (its cookie)', async () => {
    const browser = new TestBrowser((await portalWith()).url);
    const htmlTag = async () =>
      /<html[^>]*>/.exec((await page(browser, '/requisitions/new')).answer.text)?.[0];
    expect(await htmlTag()).toBe('<html>');
    browser.cookies.set('vms_display', 'dark.wire');
    expect(await htmlTag()).toBe('<html data-theme="dark" data-wire-names="shown">');
    browser.cookies.set('vms_display', 'light');
    expect(await htmlTag()).toBe('<html data-theme="light">');
    // Nothing but a known choice reaches the page.
    browser.cookies.set('vms_display', 'dark"><script>alert(1)</script>');
    expect(await htmlTag()).toBe('<html>');
  });

  it('lets the page’s own inline scripts run, by their hashes, and no other inline script', async () => {
    const browser = new TestBrowser((await portalWith()).url);
    for (const path of ['/requisitions', '/api/config']) {
      const csp = String((await browser.call('GET', path)).headers['content-security-policy']);
      const scriptSrc = /script-src ([^;]*)/.exec(csp)?.[1]?.split(' ');
      expect(scriptSrc, path).toEqual(["'self'", sha256(headScript), sha256(bodyScript)]);
      expect(csp).not.toContain('unsafe-inline');
    }
  });
});

describe('with sign-in on', () => {
  let url: string;
  beforeAll(async () => {
    const portal = await portalWith({ AUTH: 'on', PORTAL_DB: join(dir, 'signed.db') });
    url = portal.url;
    await addUser(join(dir, 'signed.db'), 'rita@example.com', password, 'recruiter', [1001]);
    await addUser(join(dir, 'signed.db'), 'quinn@example.com', password, 'qa', [1001]);
  });

  it('sends a visitor without a session the page that shows nothing of the app', async () => {
    const visitor = new TestBrowser(url);
    for (const path of ['/', '/requisitions', '/requisitions/new', '/users']) {
      expect(await page(visitor, path), path).toMatchObject({ shell: 'session' });
    }
  });

  it('sends a signed-in user the app’s shell with the pages their role may open', async () => {
    const recruiter = new TestBrowser(url);
    expect((await recruiter.signIn('rita@example.com', password)).status).toBe(200);
    const seen = await page(recruiter, '/requisitions');
    expect(seen).toMatchObject({ shell: 'app:recruiter' });
    expect(seen.answer.headers['vary']).toContain('Cookie');
    const qa = new TestBrowser(url);
    expect((await qa.signIn('quinn@example.com', password)).status).toBe(200);
    expect((await page(qa, '/requisitions')).shell).toBe('app:qa');
    // Signed out, the page that shows nothing again, even to a request with the ended session's
    // cookie.
    const ended = new TestBrowser(url);
    for (const [name, value] of qa.cookies) ended.cookies.set(name, value);
    expect((await qa.call('DELETE', '/api/session')).status).toBe(204);
    expect((await page(qa, '/requisitions')).shell).toBe('session');
    expect(ended.cookieHeader()).toMatch(/vms_session=/);
    expect((await page(ended, '/requisitions')).shell).toBe('session');
  });
});
