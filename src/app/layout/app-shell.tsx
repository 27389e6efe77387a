import { lazy, Suspense, useEffect, useId, useRef } from 'react';
import { NavLink, Outlet, useLocation } from 'react-router';
import type { Role } from '../../domain/auth';
import { ClientOrgSelect } from '../../shared/config/client-org-select';
import { useOrg } from '../../shared/config/org-context';
import { startSigningOut, useMay, useSessionUser } from '../../shared/session/session';
import { useStorageProblem } from '../../shared/storage/local-store';
import { ConnectionBar, ProductionBanner } from './connection-bar';

// Only for a signed-in user: its code (the drafts' and history's stores) stays out of the first load.
const UserSyncBar = lazy(() =>
  import('../../core/batch/sync/use-user-sync').then((module) => ({
    default: module.UserSyncBar,
  })),
);

/**
 * The pages, each with the least role that may open it (with sign-in off, everyone may), and
 * whether it is only for someone signed in.
 */
const navItems: ReadonlyArray<{
  to: string;
  label: string;
  end: boolean;
  role: Role;
  signedIn?: true;
}> = [
  { to: '/requisitions', label: 'Requisitions', end: true, role: 'recruiter' },
  { to: '/requisitions/new', label: 'New requisition', end: true, role: 'recruiter' },
  { to: '/candidates', label: 'Candidates', end: false, role: 'recruiter' },
  { to: '/submissions', label: 'Submissions', end: false, role: 'recruiter' },
  { to: '/inspector', label: 'Inspector', end: false, role: 'qa' },
  { to: '/suites', label: 'Suites', end: false, role: 'qa' },
  { to: '/users', label: 'Users', end: false, role: 'admin' },
  { to: '/audit', label: 'Audit trail', end: false, role: 'admin' },
  { to: '/connections', label: 'Connections', end: false, role: 'admin' },
  { to: '/account', label: 'Account', end: false, role: 'qa', signedIn: true },
  { to: '/settings', label: 'Settings', end: false, role: 'recruiter' },
];

/** Who is signed in, and Sign out (only when sign-in is on). */
function UserBar() {
  const user = useSessionUser();
  if (!user) return null;
  return (
    <div className="org-bar__item">
      <span className="user-text">
        {user.email} ({user.role})
      </span>{' '}
      <button
        type="button"
        className="link-button app-header__sign-out"
        onClick={() => {
          // The app makes way at once; the code that saves and clears the work follows.
          startSigningOut();
          void import('../../core/batch/sync/sign-out').then(
            (module) => module.signOutHere(user),
            // The code could not be loaded (offline): the page starts again, still signed in,
            // rather than stay on "signing out" for ever.
            () => location.replace('/'),
          );
        }}
      >
        Sign out
      </button>
    </div>
  );
}

function NavItem({ item }: { item: (typeof navItems)[number] }) {
  const may = useMay(item.role);
  const user = useSessionUser();
  if (!may || (item.signedIn && !user)) return null;
  return (
    <li>
      <NavLink to={item.to} end={item.end}>
        {item.label}
      </NavLink>
    </li>
  );
}

/** The client org choice and the vendor org, always visible: every call is made for them. */
function OrgContextBar() {
  const { vendorOrgId } = useOrg();
  const selectId = useId();
  return (
    <div className="org-bar">
      <div className="org-bar__item">
        <label htmlFor={selectId}>Client org</label>
        <ClientOrgSelect id={selectId} />
      </div>
      <div className="org-bar__item">
        <span>Vendor org</span> <strong>{vendorOrgId}</strong>
      </div>
      <ConnectionBar />
      <UserBar />
    </div>
  );
}

function StorageWarning() {
  const problem = useStorageProblem();
  if (!problem) return null;
  return (
    <div role="alert" className="notice notice--error storage-warning">
      <p>{problem.message}</p>
    </div>
  );
}

/**
 * The frame of every page: the sandbox banner, the org context, the navigation and the page.
 * Focus moves to the page on navigation, so keyboard and screen reader users start there.
 */
export function AppShell() {
  const { config } = useOrg();
  const user = useSessionUser();
  const { pathname } = useLocation();
  const mainRef = useRef<HTMLElement>(null);
  const firstRender = useRef(true);

  useEffect(() => {
    if (firstRender.current) {
      firstRender.current = false;
      return;
    }
    mainRef.current?.focus({ preventScroll: true });
    window.scrollTo(0, 0);
  }, [pathname]);

  return (
    <div className="app">
      <header className="app-header">
        <a href="#main" className="skip-link">
          Skip to main content
        </a>
        {config.upstream.kind === 'sandbox' ? (
          <p className="sandbox-banner">
            <strong>Sandbox.</strong> This portal talks to the embedded sandbox VMS, not a real one:
            try anything, nothing reaches a client.
          </p>
        ) : null}
        <ProductionBanner />
        <div className="app-header__bar">
          <p className="app-header__brand">VMS submission portal</p>
          <OrgContextBar />
        </div>
        <nav aria-label="Main" className="main-nav">
          <ul>
            {navItems.map((item) => (
              <NavItem key={item.to} item={item} />
            ))}
          </ul>
        </nav>
      </header>
      <main id="main" ref={mainRef} tabIndex={-1} className="app-main">
        <StorageWarning />
        {user ? (
          <Suspense fallback={null}>
            <UserSyncBar user={user} />
          </Suspense>
        ) : null}
        <Suspense fallback={<p className="page-loading">Loading the page…</p>}>
          <Outlet />
        </Suspense>
      </main>
    </div>
  );
}
