import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { notificationKindLabels, type MailPreferences } from '@/domain/deliveries';
import { notificationKinds, type NotificationKind } from '@/domain/notifications';
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
  // The box shows the change in the same render as the click, not when the query's cache next
  // tells its readers (a later task): a controlled box that waits for the cache is first put
  // back as it was, and a second click meanwhile would undo the first. What the server kept
  // replaces the shown change; should it refuse, the box shows again what it had.
  const [shown, setShown] = useState<Partial<Record<NotificationKind, boolean>>>({});
  const save = useMutation({
    mutationFn: saveEmailNotifications,
    onSuccess: (saved, change) => {
      queryClient.setQueryData(emailNotificationsKey, saved);
      setShown((now) => withoutKinds(now, change));
    },
    onError: (_error, change) => setShown((now) => withoutKinds(now, change)),
  });
  const choose = (kind: NotificationKind, enabled: boolean) => {
    setShown((now) => ({ ...now, [kind]: enabled }));
    save.mutate({ [kind]: enabled });
  };

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
              checked={shown[kind] ?? choices.data.kinds[kind]}
              onChange={(enabled) => choose(kind, enabled)}
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

function withoutKinds(
  shown: Partial<Record<NotificationKind, boolean>>,
  change: Partial<MailPreferences['kinds']>,
): Partial<Record<NotificationKind, boolean>> {
  const rest = { ...shown };
  // A later click on the same box, still on its way, keeps showing its own choice.
  for (const kind of Object.keys(change) as NotificationKind[])
    if (rest[kind] === change[kind]) delete rest[kind];
  return rest;
}
