import { useQueryClient } from '@tanstack/react-query';
import type { FormEvent } from 'react';
import { useState } from 'react';
import { useNavigate, useParams } from 'react-router';
import { passwordPolicy, passwordSchema } from '@/domain/auth';
import { acceptInvite } from '@/features/account/api/account';
import { errorMessage } from '@/shared/api/http';
import { ErrorNotice } from '@/shared/ui/error-notice';
import { BootField } from './boot-field';

/** /invite/:token: an invited user chooses a password and is signed in. */
export function InvitePage() {
  const { token = '' } = useParams();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const [problem, setProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const data = new FormData(event.currentTarget);
    const password = String(data.get('password') ?? '');
    const checked = passwordSchema.safeParse(password);
    if (!checked.success) {
      setProblem(checked.error.issues[0]?.message ?? 'Choose another password.');
      return;
    }
    if (password !== String(data.get('again') ?? '')) {
      setProblem('The two passwords differ; type the same one twice.');
      return;
    }
    setBusy(true);
    setProblem(null);
    try {
      const state = await acceptInvite(token, password);
      queryClient.setQueryData(['session'], state);
      void navigate('/', { replace: true });
    } catch (error) {
      setProblem(errorMessage(error));
    } finally {
      setBusy(false);
    }
  };

  return (
    <main id="main" className="boot sign-in">
      <title>Set your password · VMS submission portal</title>
      <h1>Set your password</h1>
      <p>
        Choose a password of at least {passwordPolicy.min} characters: a short sentence you will
        remember works well.
      </p>
      <form className="sign-in__form" noValidate onSubmit={(event) => void onSubmit(event)}>
        <BootField
          label="New password"
          name="password"
          type="password"
          autoComplete="new-password"
          minLength={passwordPolicy.min}
          required
        />
        <BootField
          label="The same password again"
          name="again"
          type="password"
          autoComplete="new-password"
          required
        />
        <ErrorNotice message={problem} />
        <button type="submit" className="button" disabled={busy}>
          {busy ? 'Saving…' : 'Set password and sign in'}
        </button>
      </form>
    </main>
  );
}
