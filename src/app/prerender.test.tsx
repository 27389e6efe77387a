// @vitest-environment jsdom
import { beforeAll, describe, expect, it } from 'vitest';
import type { PageShell } from '@/domain/page-shell';
import { pageShellKey, pageShells } from '@/domain/page-shell';
import type { PrerenderedShells } from './prerender';
import { prerenderShells } from './prerender';
import { routeTable } from './route-table';

// The prerender step's pages (src/app/hydration.test.tsx hydrates them as the build makes them, in
// Node). Read with the browser's own parser.
let shells: PrerenderedShells;
beforeAll(async () => {
  shells = await prerenderShells();
});

const admin: PageShell = { kind: 'app', role: 'admin', sandbox: false };

function pageAt(path: string, shell: PageShell = admin) {
  const pages = shells.routes.find((route) => route.path === path)?.shells;
  const page = pages?.[pageShellKey(shell)];
  if (!page) throw new Error(`no prerendered ${pageShellKey(shell)} page for ${path}`);
  return { title: page.title, document: parse(page.html) };
}

const parse = (html: string | undefined) =>
  new DOMParser().parseFromString(html ?? '', 'text/html');

const text = (element: Element | null) => element?.textContent?.replace(/\s+/g, ' ').trim();

/** Each label's text, when it names a control that is in the page. */
function labelsOf(document: Document): string[] {
  return [...document.querySelectorAll('label')]
    .filter((label) => label.htmlFor && document.getElementById(label.htmlFor))
    .map((label) => text(label) ?? '');
}

describe('the prerendered pages', () => {
  const headings: Record<string, string> = {
    '/': 'Requisitions',
    '/requisitions': 'Requisitions',
    '/requisitions/new': 'New requisition',
    '/requisitions/import': 'Import requisitions',
    '/requisitions/amend/:reqId?': 'Amend a requisition',
    '/candidates': 'Submit a candidate',
    '/candidates/import': 'Import candidates',
    '/submissions': 'Submissions',
    '/inspector': 'Inspector',
    '/suites': 'Suites',
    '/users': 'Users',
    '/account': 'Account',
    '/audit': 'Audit trail',
    '/privacy': 'Personal data',
    '/webhooks': 'Webhooks and deliveries',
    '/connections': 'Connections',
    '/settings': 'Settings',
  };
  /** Pages whose heading is what they show (a suite's name): their shells draw none of it. */
  const headless = ['/suites/:id', '/suites/:id/runs/:runId', '/suites/runs/:runId'];

  it('cover every route of the route table, and `/`', () => {
    expect(shells.routes.map((route) => route.path).sort()).toEqual(
      ['/', ...routeTable.map((route) => route.path)].sort(),
    );
    expect([...Object.keys(headings), ...headless].sort()).toEqual(
      shells.routes.map((route) => route.path).sort(),
    );
    for (const path of headless) {
      const { document } = pageAt(path);
      expect(document.querySelector('main h1'), path).toBe(null);
      expect(text(document.querySelector('main')), path).toBe('Loading the page…');
    }
  });

  it('have each page’s heading and title, in the app’s frame with its navigation', () => {
    for (const [path, heading] of Object.entries(headings)) {
      const { title, document } = pageAt(path);
      expect(text(document.querySelector('main h1')), path).toBe(heading);
      expect(title, path).toContain('VMS submission portal');
      expect(text(document.querySelector('.app-header__brand'))).toBe('VMS submission portal');
      expect(document.querySelector('nav[aria-label="Main"] a[href="/requisitions/new"]')).not.toBe(
        null,
      );
    }
    expect(text(pageAt('/requisitions/new').document.querySelector('a.active'))).toBe(
      'New requisition',
    );
  });

  it('have the form’s first section with its labels, hints and fields, and no section after it', () => {
    const { title, document } = pageAt('/requisitions/new');
    expect(title).toBe('New requisition · VMS submission portal');
    const form = document.querySelector('form[aria-label="New requisition"]');
    expect(text(form?.querySelector('section h2') ?? null)).toBe('Basics');
    expect(labelsOf(document)).toEqual([
      'Org ID · orgid (required)',
      'Job title · titlerole (required)',
      'Number of openings · noofopenings (required)',
      'Client internal req · clientinternalreq (required)',
      'Priority · reqpriority',
      'Engagement type · engagementtype (required)',
    ]);
    expect(text(document.getElementById('field-clientinternalreq-hint'))).toMatch(
      /^Unique within the client organization/,
    );
    expect(form?.querySelectorAll('section.form-section')).toHaveLength(1);
    expect(document.getElementById('section-classification')).toBe(null);
    // Blank: no value of anyone's in it.
    for (const input of form?.querySelectorAll('input') ?? []) expect(input.value).toBe('');
    expect(text(document.querySelector('.tray h2'))).toBe('Batch to send');
    expect(text(document.querySelector('.tray p'))).toBe('Loading the batch…');
  });

  it('have the list’s frame as it is while the list loads', () => {
    const { document } = pageAt('/requisitions');
    expect(labelsOf(document)).toEqual([
      'Filter by',
      'Operator',
      'Req ID',
      'Search titles',
      'Only submittable (Open or Interview occurring, openings left, submittals not closed)',
    ]);
    expect(text(document.querySelector('[role="status"].list-status'))).toBe(
      'Loading requisitions…',
    );
    expect(document.querySelector('table')).toBe(null);
  });

  it('take typing before the app has run, but show their buttons disabled until it has', () => {
    for (const path of ['/requisitions/new', '/requisitions']) {
      const { document } = pageAt(path);
      expect(document.querySelector('[inert]'), path).toBe(null);
      const fields = [...document.querySelectorAll('main input, main select, main textarea')];
      expect(fields.length, path).toBeGreaterThan(0);
      expect(
        fields.filter((field) => field.hasAttribute('disabled')),
        path,
      ).toEqual([]);
      const buttons = [...document.querySelectorAll('main button')];
      expect(buttons.length, path).toBeGreaterThan(0);
      expect(
        buttons.filter((button) => !button.hasAttribute('disabled')).map((b) => b.textContent),
        path,
      ).toEqual([]);
    }
  });

  it('show nothing of the settings or of this browser: the org context is left to the app', () => {
    const { document } = pageAt('/requisitions');
    expect(text(document.querySelector('.org-bar'))).toBe('');
    expect(document.querySelector('.org-bar select')).toBe(null);
    expect(text(document.querySelector('.page__lead'))).toBe('');
  });

  it('show a visitor without a session nothing of the app, on every page', () => {
    for (const route of shells.routes) {
      const { document } = pageAt(route.path, { kind: 'session' });
      expect(text(document.body)).toBe('Checking who is signed in…');
      expect(document.querySelector('nav')).toBe(null);
    }
    expect(text(parse(shells.notFound['session']?.html).body)).toBe('Checking who is signed in…');
  });

  it('offer the pages the shell’s role may open, and its page only to them', () => {
    const linksOf = (document: Document) =>
      [...document.querySelectorAll('nav[aria-label="Main"] a')].map((link) => text(link));
    const recruiter = pageAt('/users', { kind: 'app', role: 'recruiter', sandbox: false });
    expect(linksOf(recruiter.document)).toEqual([
      'Requisitions',
      'New requisition',
      'Candidates',
      'Submissions',
      'Settings',
    ]);
    expect(recruiter.document.querySelector('h1')).toBe(null);
    expect(text(recruiter.document.querySelector('main'))).toBe('Loading the page…');
    const qa = pageAt('/inspector', { kind: 'app', role: 'qa', sandbox: false });
    expect(linksOf(qa.document)).toContain('Inspector');
    expect(linksOf(qa.document)).not.toContain('Users');
    expect(text(qa.document.querySelector('h1'))).toBe('Inspector');
    expect(linksOf(pageAt('/users').document)).toHaveLength(12);
  });

  it('say the page works on the sandbox only in the sandbox’s shells', () => {
    for (const shell of pageShells) {
      if (shell.kind !== 'app') continue;
      const banner = pageAt('/requisitions/new', shell).document.querySelector('.sandbox-banner');
      expect(text(banner), pageShellKey(shell)).toBe(
        shell.sandbox
          ? 'Sandbox. This portal talks to the embedded sandbox VMS, not a real one: try anything, nothing reaches a client.'
          : undefined,
      );
    }
  });

  it('answer any other address with the not-found page, and leave the invite page to the app', () => {
    const notFound = parse(shells.notFound[pageShellKey(admin)]?.html);
    expect(text(notFound.querySelector('h1'))).toBe('Page not found');
    expect(shells.bare).toEqual(['/invite/:token']);
  });
});
