import type { ReactNode } from 'react';
import { useMemo } from 'react';
import { settingsForConnection } from '@/domain/portal-config';
import { SignInPage } from '@/features/account/components/sign-in-page';
import { settleConnection } from '@/shared/config/current-connection';
import { OrgProvider } from '@/shared/config/org-context';
import type { PortalConfig } from '@/shared/config/portal-config';
import { useLocalOwnership } from '@/shared/session/local-ownership';
import { SessionProvider, useSessionQuery, useSigningOut } from '@/shared/session/session';

/**
 * Sign-in first when the server asks for it: no page, no data until someone is signed
 * in, and then only their client orgs. With sign-in off (one person on their own machine, the
 * default on loopback) the app starts at once, as before, while the session is read beside it.
 */
export function SessionGate({
  config,
  pending,
  children,
}: {
  config: PortalConfig;
  /**
   * What to show while the session is read and the work made ready, when the server already sent
   * a signed-in page (its shell): that page, rather than a message in its place.
   */
  pending?: ReactNode;
  children: ReactNode;
}) {
  // Asked when sign-in is on, or when the settings do not say (an older server): a 401 from any
  // call asks again, so a server that turns sign-in on is noticed either way.
  const session = useSessionQuery(config.authRequired !== false);
  const state = session.data ?? null;
  const user = state?.user ?? null;
  // The connection this page works on (the one chosen last, if the user may use it), and the
  // settings as they apply on it; settled before any page reads a store or calls the VMS.
  const connection = useMemo(
    () =>
      settleConnection(
        config.connections.map(({ name }) => name),
        config.defaultConnection,
        user?.connections ?? null,
      ),
    [config, user],
  );
  const granted = useMemo(() => {
    const onConnection = connection === null ? config : settingsForConnection(config, connection);
    if (!user || user.role === 'admin') return onConnection;
    const clientOrgIds = onConnection.clientOrgIds.filter((id) => user.clientOrgIds.includes(id));
    return {
      ...onConnection,
      clientOrgIds: clientOrgIds.length > 0 ? clientOrgIds : onConnection.clientOrgIds,
    };
  }, [config, user, connection]);

  const required = state?.authRequired ?? config.authRequired ?? false;
  const signingOut = useSigningOut();
  // With sign-in on, the browser may be shared: the work in it is made this user's (or set aside
  // for whoever it belongs to) before any page can show it.
  const owned = useLocalOwnership(required && user ? user.id : null);
  // The sign-in form takes the app's place at once; it can be used once the work is cleared.
  if (signingOut) return <SignInPage session={null} signingOut />;
  if (required && session.isPending) return pending ?? <CheckingSession />;
  if (required && !user) return <SignInPage session={state} />;
  if (required && owned === 'failed') {
    return (
      <main className="boot">
        <h1>Your work could not be opened</h1>
        <div role="alert" className="notice notice--error">
          <p>
            This browser would not let the portal sort out the work kept in it, so nothing is shown
            rather than risk showing someone else’s. Reload the page to try again; if it keeps
            happening, ask your portal administrator for help.
          </p>
        </div>
      </main>
    );
  }
  if (required && owned !== 'ready') {
    return (
      pending ?? (
        <main className="boot" aria-busy="true">
          <p>Getting your work ready…</p>
        </main>
      )
    );
  }
  if (user && connection === null) {
    return (
      <main className="boot">
        <h1>No VMS connection for you yet</h1>
        <p>
          You are signed in as {user.email}, but no VMS connection of this portal is granted to you.
          Ask your portal administrator to grant one.
        </p>
      </main>
    );
  }
  if (
    user &&
    user.role !== 'admin' &&
    !granted.clientOrgIds.some((id) => user.clientOrgIds.includes(id))
  ) {
    return (
      <main className="boot">
        <h1>No client org for you yet</h1>
        <p>
          You are signed in as {user.email}, but no client org of this portal is granted to you. Ask
          your portal administrator to grant one.
        </p>
      </main>
    );
  }
  return (
    <SessionProvider state={state}>
      <OrgProvider config={granted}>{children}</OrgProvider>
    </SessionProvider>
  );
}

/** While the session is read, with sign-in on: nothing of the app, whoever is asking. */
export function CheckingSession() {
  return (
    <main className="boot" aria-busy="true">
      <p>Checking who is signed in…</p>
    </main>
  );
}
