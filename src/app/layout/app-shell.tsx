import { Suspense, useEffect, useId, useRef } from 'react';
import { NavLink, Outlet, useLocation } from 'react-router';
import { ClientOrgSelect } from '../../shared/config/client-org-select';
import { useOrg } from '../../shared/config/org-context';
import { useStorageProblem } from '../../shared/storage/local-store';

const navItems = [
  { to: '/requisitions', label: 'Requisitions', end: true },
  { to: '/requisitions/new', label: 'New requisition', end: true },
  { to: '/candidates', label: 'Candidates', end: false },
  { to: '/submissions', label: 'Submissions', end: false },
  { to: '/inspector', label: 'Inspector', end: false },
  { to: '/settings', label: 'Settings', end: false },
] as const;

/** The client org choice and the vendor org, always visible: every call is made for them. */
function OrgContextBar() {
  const { config, vendorOrgId } = useOrg();
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
      <div className="org-bar__item">
        <span>VMS</span> <strong>{config.upstream.label}</strong>
      </div>
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
        <div className="app-header__bar">
          <p className="app-header__brand">VMS submission portal</p>
          <OrgContextBar />
        </div>
        <nav aria-label="Main" className="main-nav">
          <ul>
            {navItems.map((item) => (
              <li key={item.to}>
                <NavLink to={item.to} end={item.end}>
                  {item.label}
                </NavLink>
              </li>
            ))}
          </ul>
        </nav>
      </header>
      <main id="main" ref={mainRef} tabIndex={-1} className="app-main">
        <StorageWarning />
        <Suspense fallback={<p className="page-loading">Loading the page…</p>}>
          <Outlet />
        </Suspense>
      </main>
    </div>
  );
}
