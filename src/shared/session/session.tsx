import { queryOptions, useQuery, useQueryClient } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { createContext, useContext, useEffect, useSyncExternalStore } from 'react';
import type { Role, SessionState, SessionUser } from '@/domain/auth';
import { roleRank, sessionStateSchema, signedOutEverywhereSchema } from '@/domain/auth';
import { onSignedOut, requestJson, requestOk, setCsrfToken } from '@/shared/api/http';

/**
 * Who is signed in: `GET /api/session`, read once and again whenever the server says
 * the session is gone. Its CSRF token goes with every call that changes something.
 */
/** Who is signed in: one query, refreshed whenever a call says the session changed. */
const sessionKey = ['session'] as const;

export function sessionQueryOptions(enabled = true) {
  return queryOptions({
    queryKey: sessionKey,
    // With sign-in off (the server says so in its settings) there is no one to ask about: the
    // page starts without the call, and the CSRF layer asks only if something is ever sent.
    enabled,
    queryFn: async ({ signal }) => {
      const state = (
        await requestJson('/api/session', sessionStateSchema, 'Checking who is signed in', {
          signal,
        })
      ).data;
      setCsrfToken(state.csrfToken);
      return state;
    },
    staleTime: 60_000,
  });
}

const SessionContext = createContext<SessionState | null>(null);

export function SessionProvider({
  state,
  children,
}: {
  state: SessionState | null;
  children: ReactNode;
}) {
  return <SessionContext.Provider value={state}>{children}</SessionContext.Provider>;
}

/** The session as last read; null before it is known (or in a component rendered on its own). */
export function useSession(): SessionState | null {
  return useContext(SessionContext);
}

export function useSessionUser(): SessionUser | null {
  return useSession()?.user ?? null;
}

/**
 * Whether the current user may do what `role` may: always when sign-in is off (one person on
 * their own machine, as before), else by the signed-in user's role (admin ⊃ qa ⊃ recruiter).
 */
export function useMay(role: Role): boolean {
  return sessionMay(useSession(), role);
}

/** useMay's rule, for a session at hand. */
export function sessionMay(session: SessionState | null, role: Role): boolean {
  if (!session || !session.authRequired) return true;
  const user = session.user;
  return user !== null && roleRank[user.role] >= roleRank[role];
}

/** Reads the session again when any call is answered 401 (expired, signed out elsewhere). */
export function useSessionWatch(): void {
  const queryClient = useQueryClient();
  useEffect(
    () =>
      onSignedOut(() => {
        setCsrfToken(null);
        void queryClient.invalidateQueries({ queryKey: sessionKey });
      }),
    [queryClient],
  );
}

export function useSessionQuery(enabled = true) {
  useSessionWatch();
  return useQuery(sessionQueryOptions(enabled));
}

/** Sign in with a password; the session is read again. */
export async function signIn(email: string, password: string): Promise<SessionState> {
  const state = (
    await requestJson('/api/session', sessionStateSchema, 'Signing in', {
      method: 'POST',
      body: { email, password },
    })
  ).data;
  setCsrfToken(state.csrfToken);
  return state;
}

/**
 * Ends this browser's session, or with `everywhere` every session of the user; resolves with how
 * many sessions on other browsers and devices ended (0 for this one alone).
 */
export async function endSession(everywhere = false): Promise<number> {
  let others = 0;
  if (everywhere) {
    others = (
      await requestJson('/api/sessions', signedOutEverywhereSchema, 'Signing out everywhere', {
        method: 'DELETE',
      })
    ).data.otherSessions;
  } else {
    await requestOk('/api/session', 'Signing out', { method: 'DELETE' });
  }
  setCsrfToken(null);
  return others;
}

/**
 * Signing out is under way: from the click on, the app is replaced by a page that shows nothing
 * of the user's while their work is saved and cleared.
 */
let signingOut = false;
const signingOutListeners = new Set<() => void>();

export function startSigningOut(): void {
  signingOut = true;
  for (const listener of signingOutListeners) listener();
}

export function useSigningOut(): boolean {
  return useSyncExternalStore(
    (listener) => {
      signingOutListeners.add(listener);
      return () => signingOutListeners.delete(listener);
    },
    () => signingOut,
    () => false,
  );
}
