import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useId } from 'react';
import { notificationKindLabels, type MailPreferences } from '@/domain/deliveries';
import { notificationKinds } from '@/domain/notifications';
import {
  emailNotificationsKey,
  emailNotificationsQueryOptions,
  saveEmailNotifications,
} from '@/features/settings/api/email-notifications';
import { errorMessage } from '@/shared/api/http';
import { CheckboxField } from '@/shared/ui/checkbox';
import { ErrorNotice } from '@/shared/ui/error-notice';

/**
 * Which notifications reach the signed-in user by e-mail, besides the bell: one box per kind,
 * saved as it is changed. Every e-mail also has a link that turns its kind off.
 */
export function EmailNotificationsSection() {
  const id = useId();
  const queryClient = useQueryClient();
  const choices = useQuery(emailNotificationsQueryOptions());
  // The box shows the change at once and is put back should the server refuse it.
  const save = useMutation({
    mutationFn: saveEmailNotifications,
    onMutate: (change) => {
      const before = queryClient.getQueryData<MailPreferences>(emailNotificationsKey);
      if (before) {
        queryClient.setQueryData(emailNotificationsKey, {
          ...before,
          kinds: { ...before.kinds, ...change },
        });
      }
      return { before };
    },
    onError: (_error, _change, context) => {
      if (context?.before) queryClient.setQueryData(emailNotificationsKey, context.before);
    },
    onSuccess: (saved) => queryClient.setQueryData(emailNotificationsKey, saved),
  });

  return (
    <section className="settings-section" aria-labelledby={id}>
      <h2 id={id}>E-mail notifications</h2>
      {choices.isError ? (
        <p role="alert" className="notice notice--error">
          {errorMessage(choices.error)}
        </p>
      ) : !choices.data ? (
        <p>Loading your e-mail choices…</p>
      ) : (
        <>
          <p className="field__hint">
            {choices.data.mailConfigured
              ? 'Notifications are in the app (the bell) and, for what you tick here, by e-mail to your account’s address.'
              : 'This portal sends no e-mail (SMTP_URL is not set on the server): notifications are in the app only. Your choices are kept for when it does.'}
          </p>
          {notificationKinds.map((kind) => (
            <CheckboxField
              key={kind}
              checked={choices.data.kinds[kind]}
              onChange={(enabled) => save.mutate({ [kind]: enabled })}
            >
              E-mail me when {notificationKindLabels[kind]}
            </CheckboxField>
          ))}
          <ErrorNotice message={save.isError ? errorMessage(save.error) : null} />
          <div role="status">{save.isSuccess ? 'Saved.' : null}</div>
        </>
      )}
    </section>
  );
}
