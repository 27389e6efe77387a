import type { ReactNode, Ref } from 'react';
import { NavLink } from 'react-router';
import type { Role } from '@/domain/auth';

/** The pages, each with the least role that may open it (with sign-in off, everyone may). */
const navItems: ReadonlyArray<{ to: string; label: string; end: boolean; role: Role }> = [
  { to: '/requisitions', label: 'Requisitions', end: true, role: 'recruiter' },
  { to: '/requisitions/new', label: 'New requisition', end: true, role: 'recruiter' },
  { to: '/candidates', label: 'Candidates', end: false, role: 'recruiter' },
  { to: '/submissions', label: 'Submissions', end: false, role: 'recruiter' },
  { to: '/inspector', label: 'Inspector', end: false, role: 'qa' },
  { to: '/suites', label: 'Suites', end: false, role: 'qa' },
  { to: '/users', label: 'Users', end: false, role: 'admin' },
  { to: '/audit', label: 'Audit trail', end: false, role: 'admin' },
  { to: '/privacy', label: 'Personal data', end: false, role: 'admin' },
  { to: '/webhooks', label: 'Webhooks', end: false, role: 'admin' },
  { to: '/connections', label: 'Connections', end: false, role: 'admin' },
  { to: '/settings', label: 'Settings', end: false, role: 'recruiter' },
];

/** The pages the visitor may open, as links. */
export function MainNav({ may }: { may(role: Role): boolean }) {
  return (
    <nav aria-label="Main" className="main-nav">
      <ul>
        {navItems
          .filter((item) => may(item.role))
          .map((item) => (
            <li key={item.to}>
              <NavLink to={item.to} end={item.end}>
                {item.label}
              </NavLink>
            </li>
          ))}
      </ul>
    </nav>
  );
}

export function SandboxBanner() {
  return (
    <p className="sandbox-banner">
      <strong>Sandbox.</strong> This portal talks to the embedded sandbox VMS, not a real one: try
      anything, nothing reaches a client.
    </p>
  );
}

/**
 * The frame of every page: the banners, the brand and the org context, the navigation, and the
 * page in `main`. The app's own frame (AppShell) and the prerendered one (PageShellFrame) both
 * draw it, so the page the server sends looks as the app will.
 */
export function AppFrame({
  banners,
  orgBar,
  nav,
  mainRef,
  children,
}: {
  banners: ReactNode;
  orgBar: ReactNode;
  nav: ReactNode;
  mainRef?: Ref<HTMLElement>;
  children: ReactNode;
}) {
  return (
    <div className="app">
      <header className="app-header">
        <a href="#main" className="skip-link">
          Skip to main content
        </a>
        {banners}
        <div className="app-header__bar">
          <p className="app-header__brand">VMS submission portal</p>
          {orgBar}
        </div>
        {nav}
      </header>
      <main id="main" ref={mainRef} tabIndex={-1} className="app-main">
        {children}
      </main>
    </div>
  );
}
