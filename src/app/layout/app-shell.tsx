import { lazy, Suspense, useEffect, useId, useLayoutEffect, useRef } from 'react';
import { Link, Outlet, useLocation } from 'react-router';
import { roleRank } from '@/domain/auth';
import { NotificationBell } from '@/features/notifications/components/notification-bell';
import { ClientOrgSelect } from '@/shared/config/client-org-select';
import { useOrg } from '@/shared/config/org-context';
import { sessionMay, startSigningOut, useSession, useSessionUser } from '@/shared/session/session';
import { useStorageProblem } from '@/shared/storage/local-store';
import { PageLoading } from '@/shared/ui/page-loading';
import { AppFrame, MainNav, SandboxBanner } from './app-frame';
import { ConnectionBar, ProductionBanner } from './connection-bar';
import { announceRestored, restoreShellState } from './takeover';

// Only for a signed-in user: its code (the drafts' and history's stores) stays out of the first load.
const UserSyncBar = lazy(() =>
  import('@/core/batch/sync/use-user-sync').then((module) => ({
    default: module.UserSyncBar,
  })),
);

/** Who is signed in, and Sign out (only when sign-in is on). */
function UserBar() {
  const user = useSessionUser();
  if (!user) return null;
  return (
    <div className="org-bar__item">
      <span className="user-text">
        {user.email} ({user.role})
      </span>{' '}
      {/* Their API tokens: only a QA engineer or an admin has any (decision 037). */}
      {roleRank[user.role] >= roleRank.qa ? (
        <>
          <Link to="/account" className="app-header__account">
            Account
          </Link>{' '}
        </>
      ) : null}
      <button
        type="button"
        className="link-button app-header__sign-out"
        onClick={() => {
          // The app makes way at once; the code that saves and clears the work follows.
          startSigningOut();
          void import('@/core/batch/sync/sign-out').then(
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

/** The client org choice and the vendor org, always visible: every call is made for them. */
function OrgContextBar() {
  const { vendorOrgId, config } = useOrg();
  const session = useSession();
  const selectId = useId();
  // Notifications are a user's own: none to show to a visitor not signed in. With sign-in off,
  // the portal's own (its batches are sent by no one in particular).
  const signInOn = session?.authRequired ?? config.authRequired ?? false;
  const bell = !signInOn || (session?.user ?? null) !== null;
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
      {bell ? (
        <div className="org-bar__item">
          <NotificationBell />
        </div>
      ) : null}
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
 * The app's frame of every page (AppFrame): the sandbox banner, the org context, the navigation
 * and the page. Focus moves to the page on navigation, so keyboard and screen reader users start
 * there.
 */
export function AppShell() {
  const { config } = useOrg();
  const session = useSession();
  const user = session?.user ?? null;
  const { pathname } = useLocation();
  const mainRef = useRef<HTMLElement>(null);
  const shownPath = useRef(pathname);

  // Taking over the prerendered page: what was typed into it, and its focus, are put in this
  // page in the commit that removed it, before another key can land (takeover.ts).
  useLayoutEffect(() => {
    const frame = mainRef.current?.closest('.app');
    if (frame) restoreShellState(frame);
  }, []);
  // And told to the page once its effects (the form's subscribers) have run.
  useEffect(announceRestored, []);

  // The page's own address is not a move: compared with the last one shown rather than counted,
  // as an effect may run twice for one mount (StrictMode), which focused the page over a field.
  useEffect(() => {
    if (shownPath.current === pathname) return;
    shownPath.current = pathname;
    mainRef.current?.focus({ preventScroll: true });
    window.scrollTo(0, 0);
  }, [pathname]);

  return (
    <AppFrame
      banners={
        <>
          {config.upstream.kind === 'sandbox' ? <SandboxBanner /> : null}
          <ProductionBanner />
        </>
      }
      orgBar={<OrgContextBar />}
      nav={<MainNav may={(role) => sessionMay(session, role)} />}
      mainRef={mainRef}
    >
      <StorageWarning />
      {user ? (
        <Suspense fallback={null}>
          <UserSyncBar user={user} />
        </Suspense>
      ) : null}
      <Suspense fallback={<PageLoading />}>
        <Outlet />
      </Suspense>
    </AppFrame>
  );
}
