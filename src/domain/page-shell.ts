import type { Role } from './auth';
import { roles } from './auth';

/**
 * The page the portal server sends before the app's code has run (decision 040). The build
 * prerenders each page in each of these shells; the server picks one per request; the app renders
 * that same shell as it hydrates, and its own page once it has hydrated.
 * - `session`: sign-in is on and the request has no session: "Checking who is signed in…", and
 *   nothing of the app, so a signed-out visitor never sees a signed-in page.
 * - `app`: the app's frame and the page's own shell (its heading, the form's first section, the
 *   list's frame), with the navigation `role` may use (admin: every page, as with sign-in off) and
 *   the sandbox banner when the page will work on the embedded sandbox.
 */
export type PageShell = { kind: 'session' } | { kind: 'app'; role: Role; sandbox: boolean };

export const pageShells: readonly PageShell[] = [
  { kind: 'session' },
  ...roles.flatMap((role) =>
    [false, true].map((sandbox): PageShell => ({ kind: 'app', role, sandbox })),
  ),
];

/** How a shell is named in the build's output and on the page (`app:qa:sandbox`). */
export function pageShellKey(shell: PageShell): string {
  return shell.kind === 'session'
    ? 'session'
    : `app:${shell.role}${shell.sandbox ? ':sandbox' : ''}`;
}

/** The shell a key names; null for none (a page the server sent without one). */
export function pageShellOf(key: string | null | undefined): PageShell | null {
  return pageShells.find((shell) => pageShellKey(shell) === key) ?? null;
}

/** The attribute of the page's root element that names the shell inside it. */
export const pageShellAttribute = 'data-shell';

/**
 * The id of the page's JSON list of its own modules (`<script type="application/json">`), which
 * the page's start script preloads once the page has been drawn.
 */
export const pageModulesId = 'page-modules';
