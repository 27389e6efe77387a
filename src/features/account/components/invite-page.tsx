import { useQueryClient } from '@tanstack/react-query';
import { useNavigate, useParams } from 'react-router';
import { passwordPolicy, passwordSchema } from '@/domain/auth';
import { acceptInvite } from '@/features/account/api/account';
import { ErrorNotice } from '@/shared/ui/error-notice';
import { BootField } from './boot-field';
import { BootPage, useBootForm } from './boot-page';

/** /invite/:token: an invited user chooses a password and is signed in. */
export function InvitePage() {
  const { token = '' } = useParams();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const { problem, busy, onSubmit } = useBootForm({
    check(data) {
      const password = String(data.get('password') ?? '');
      const checked = passwordSchema.safeParse(password);
      if (!checked.success) return checked.error.issues[0]?.message ?? 'Choose another password.';
      return password === String(data.get('again') ?? '')
        ? null
        : 'The two passwords differ; type the same one twice.';
    },
    async send(data) {
      const state = await acceptInvite(token, String(data.get('password') ?? ''));
      queryClient.setQueryData(['session'], state);
      void navigate('/', { replace: true });
    },
  });

  return (
    <BootPage title="Set your password" heading="Set your password">
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
    </BootPage>
  );
}
