import { useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import type { SessionState } from '@/domain/auth';
import { errorMessage, RequestFailure } from '@/shared/api/http';
import { takeSignedOutNote } from '@/shared/session/local-ownership';
import { signIn } from '@/shared/session/session';
import { BootField } from './boot-field';
import { BootPage, useBootForm } from './boot-page';

/** What came back from single sign-on (`/?sso_error=…`), in words. */
const ssoProblems: Record<string, string> = {
  no_account:
    'Your single sign-on account has no account in this portal. Ask your portal administrator to invite you with the same e-mail address.',
  unverified_email:
    'Your single sign-on provider has not verified your e-mail address, so the portal cannot tell who you are. Verify it there, then try again.',
  expired: 'The single sign-on took too long and expired. Try again.',
  failed: 'Single sign-on did not work this time. Try again, or sign in with your password.',
};

/**
 * Sign in. One message whatever was wrong (no one learns which e-mail addresses have
 * accounts); after repeated failures the server asks to wait, and the page says how long.
 */
export function SignInPage({
  session,
  signingOut = false,
}: {
  session: SessionState | null;
  /** The previous user's work is still being saved and cleared: the form waits for it. */
  signingOut?: boolean;
}) {
  const queryClient = useQueryClient();
  const id = useId();
  // What signing out did, said once on the page it ends at.
  const [note] = useState(takeSignedOutNote);
  const { problem, busy, onSubmit } = useBootForm({
    firstProblem: () => {
      const sso = new URLSearchParams(location.search).get('sso_error');
      return sso === null ? null : (ssoProblems[sso] ?? ssoProblems['failed'] ?? null);
    },
    async send(data) {
      const state = await signIn(
        String(data.get('email') ?? ''),
        String(data.get('password') ?? ''),
      );
      queryClient.setQueryData(['session'], state);
      // What a signed-out page read (401s) is read again as this user.
      await queryClient.invalidateQueries({
        predicate: (query) => query.queryKey[0] !== 'session',
      });
    },
    describe: (error) =>
      error instanceof RequestFailure && error.status === 401
        ? 'The e-mail address or the password is not right. Check both and try again.'
        : errorMessage(error),
  });

  return (
    <BootPage title="Sign in" heading="Sign in to the VMS submission portal">
      <div role="status">
        {signingOut ? (
          <p className="notice">Saving your work and signing out…</p>
        ) : note ? (
          <p className="notice">{note}</p>
        ) : null}
      </div>
      <form
        className="sign-in__form"
        onSubmit={(event) => void onSubmit(event)}
        aria-describedby={problem ? `${id}-problem` : undefined}
      >
        <BootField
          label="E-mail"
          name="email"
          type="email"
          autoComplete="username"
          required
          disabled={signingOut}
        />
        <BootField
          label="Password"
          name="password"
          type="password"
          autoComplete="current-password"
          required
          disabled={signingOut}
        />
        {problem ? (
          <p id={`${id}-problem`} role="alert" className="notice notice--error">
            {problem}
          </p>
        ) : null}
        <button type="submit" className="button" disabled={busy || signingOut}>
          {busy ? 'Signing in…' : 'Sign in'}
        </button>
      </form>
      {session?.sso ? (
        <p>
          <a className="button button--secondary" href="/api/auth/oidc/start">
            Sign in with {session.sso.label}
          </a>
        </p>
      ) : null}
      <p className="field__hint">
        No account yet? Ask your portal administrator for an invitation link.
      </p>
    </BootPage>
  );
}
