// @vitest-environment jsdom
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { act, StrictMode } from 'react';
import type { Root } from 'react-dom/client';
import { hydrateRoot } from 'react-dom/client';
import { BrowserRouter } from 'react-router';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { PageShell } from '@/domain/page-shell';
import { pageShellAttribute, pageShellKey } from '@/domain/page-shell';
import type { PortalConfigResponse } from '@/domain/portal-config';
import { App, loadFirstPage } from './app';
import type { PrerenderedShells } from './prerender';

// The pages as the build's prerender step makes them, in a process of its own as in the build
// (one JavaScript world rendering both sides would have React's server renderer mark every
// context as its own), hydrated here by React's development build, which reports every
// difference between the page and what hydrates it (an attribute as well as a text); the
// production build in the browser reports only some, and keeps the page's version of the rest.
let shells: PrerenderedShells;
const dir = mkdtempSync(join(tmpdir(), 'portal-shells-'));
beforeAll(() => {
  const file = join(dir, 'shells.json');
  execFileSync(
    process.execPath,
    [join('node_modules', 'tsx', 'dist', 'cli.mjs'), 'scripts/prerender-shells.ts', '--to', file],
    { stdio: 'pipe' },
  );
  shells = JSON.parse(readFileSync(file, 'utf8')) as PrerenderedShells;
}, 120_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const actEnvironment = (on: boolean) => {
  (globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = on;
};

const sandbox = {
  kind: 'sandbox',
  label: 'sandbox',
} as const;
const config: PortalConfigResponse = {
  authRequired: false,
  clientOrgIds: [1001, 1002],
  clientOrgNames: { '1001': 'Northwind Health', '1002': 'Contoso Manufacturing' },
  vendorOrgId: 9001,
  dateFormat: 'YYYY-MM-DD',
  maxBatch: 500,
  timeoutMs: 30_000,
  upstream: sandbox,
  connections: [
    {
      name: 'sandbox',
      label: 'Sandbox',
      production: false,
      kind: 'sandbox',
      clientOrgIds: [1001, 1002],
      clientOrgNames: { '1001': 'Northwind Health', '1002': 'Contoso Manufacturing' },
      vendorOrgId: 9001,
      dateFormat: 'YYYY-MM-DD',
      maxBatch: 500,
      timeoutMs: 30_000,
      upstream: sandbox,
    },
  ],
  defaultConnection: 'sandbox',
};

let root: Root | null = null;
const said: string[] = [];
beforeEach(() => {
  actEnvironment(true);
  localStorage.clear();
  said.length = 0;
  const say = (...parts: unknown[]) => said.push(parts.map(String).join(' ').slice(0, 300));
  vi.spyOn(console, 'error').mockImplementation(say);
  vi.spyOn(console, 'warn').mockImplementation(say);
});
// What React reports of a failed hydration (window.reportError, as a browser's uncaught error).
const reported = (event: ErrorEvent) => {
  said.push(String(event.error ?? event.message).slice(0, 300));
  event.preventDefault();
};
beforeAll(() => window.addEventListener('error', reported));
afterAll(() => window.removeEventListener('error', reported));
afterEach(() => {
  act(() => root?.unmount());
  root = null;
});

/**
 * The page as the server sends it at `path` (the route `pattern`'s, or any other address's) in
 * `shell`, hydrated by the app as the browser does.
 */
async function hydrate(
  [path, pattern]: [string, string | null],
  shell: PageShell,
  settings: PortalConfigResponse = config,
  /** What a person does in the page before the app's code runs. */
  before: (container: HTMLElement) => void = () => {},
) {
  const pages = pattern
    ? shells.routes.find((route) => route.path === pattern)?.shells
    : shells.notFound;
  const page = pages?.[pageShellKey(shell)];
  if (!page) throw new Error(`no ${pageShellKey(shell)} page for ${pattern}`);
  history.replaceState(null, '', path);
  document.head.innerHTML = `<script type="application/json" id="portal-config">${JSON.stringify(settings)}</script>`;
  document.body.innerHTML = `<div id="root" ${pageShellAttribute}="${pageShellKey(shell)}">${page.html}</div>`;
  const container = document.getElementById('root');
  if (!container) throw new Error('no #root');
  const sent = container.innerHTML;
  before(container);
  await act(async () => {
    root = hydrateRoot(
      container,
      <StrictMode>
        <App shell={shell} router={BrowserRouter} />
      </StrictMode>,
    );
  });
  // Hydrated. What the app does next happens in its own time, waited for (vi.waitFor) as a user
  // would, rather than inside act().
  actEnvironment(false);
  return { container, sent };
}

const app: PageShell = { kind: 'app', role: 'admin', sandbox: true };

describe('hydrating the prerendered page', () => {
  it.each<[string, string | null]>([
    ['/requisitions/new', '/requisitions/new'],
    ['/requisitions?q=nurse&status=O', '/requisitions'],
    ['/requisitions/amend/40001', '/requisitions/amend/:reqId?'],
    ['/candidates?reqId=40001', '/candidates'],
    ['/settings', '/settings'],
    ['/nowhere', null],
  ])(
    'at %s matches the page to the letter, then draws the app’s own page',
    async (path, pattern) => {
      const { container, sent } = await hydrate([path, pattern], app);
      expect(said).toEqual([]);
      // The app has taken over: the org context (settings and this browser's choice) is shown.
      await vi.waitFor(
        () =>
          expect(container.querySelector('.org-bar select')?.textContent).toContain(
            '1001 · Northwind Health',
          ),
        { timeout: 10_000 },
      );
      expect(container.innerHTML).not.toBe(sent);
      expect(container.querySelector('[inert]')).toBe(null);
      expect(said).toEqual([]);
    },
  );

  it('of the form draws the form of the org chosen in this browser, once hydrated', async () => {
    localStorage.setItem('vms-portal:v1:client-org', '1002');
    const { container } = await hydrate(['/requisitions/new', '/requisitions/new'], app);
    expect(said).toEqual([]);
    await vi.waitFor(
      () => expect(container.querySelector<HTMLInputElement>('#field-orgid')?.value).toBe('1002'),
      { timeout: 10_000 },
    );
    // The sections after the first follow in a background render, as on any first render.
    await vi.waitFor(
      () => expect(container.querySelector('#section-classification')).not.toBe(null),
      { timeout: 10_000 },
    );
    expect(said).toEqual([]);
  });

  it('of the form keeps what was typed into it before the app ran, with the focus and caret, as the app takes over', async () => {
    // As main.tsx does: the page's module loaded before it hydrates, so the app's page is drawn
    // in the commit that removes the shell.
    await loadFirstPage('/requisitions/new');
    const { container } = await hydrate(
      ['/requisitions/new', '/requisitions/new'],
      app,
      config,
      (page) => {
        const title = page.querySelector<HTMLInputElement>('#field-titlerole');
        const priority = page.querySelector<HTMLSelectElement>('#field-reqpriority');
        if (!title || !priority) throw new Error('the form’s shell has no title or priority');
        title.focus();
        title.value = 'Night nurse';
        title.setSelectionRange(5, 5);
        priority.value = '1';
      },
    );
    expect(said).toEqual([]);
    // The app's own form (the org context drawn), given what was typed, where it was typed.
    await vi.waitFor(
      () => expect(container.querySelector<HTMLInputElement>('#field-orgid')?.value).toBe('1001'),
      { timeout: 10_000 },
    );
    const title = container.querySelector<HTMLInputElement>('#field-titlerole');
    expect(title?.value).toBe('Night nurse');
    expect(document.activeElement).toBe(title);
    expect([title?.selectionStart, title?.selectionEnd]).toEqual([5, 5]);
    expect(container.querySelector<HTMLSelectElement>('#field-reqpriority')?.value).toBe('1');
    expect(said).toEqual([]);
  });

  it('for a visitor without a session keeps to "Checking who is signed in…" until it knows', async () => {
    const { container } = await hydrate(
      ['/requisitions', '/requisitions'],
      { kind: 'session' },
      {
        ...config,
        authRequired: true,
      },
    );
    expect(said).toEqual([]);
    expect(container.textContent).toContain('Checking who is signed in…');
    expect(container.querySelector('nav')).toBe(null);
  });
});
