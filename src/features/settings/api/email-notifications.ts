import { queryOptions } from '@tanstack/react-query';
import { mailPreferencesSchema, type MailPreferences } from '@/domain/deliveries';
import { requestData, requestJson } from '@/shared/api/http';

/*
 * The signed-in user's e-mail choices (decision 056): which kinds of notification reach them by
 * e-mail, all on until turned off.
 */

export const emailNotificationsKey = ['email-notifications'] as const;

export function emailNotificationsQueryOptions() {
  return queryOptions({
    queryKey: emailNotificationsKey,
    queryFn: async ({ signal }) =>
      (
        await requestJson(
          '/api/me/email-notifications',
          mailPreferencesSchema,
          'Loading your e-mail choices',
          { signal },
        )
      ).data,
  });
}

export async function saveEmailNotifications(
  kinds: Partial<MailPreferences['kinds']>,
): Promise<MailPreferences> {
  return requestData(
    '/api/me/email-notifications',
    mailPreferencesSchema,
    'Saving your e-mail choices',
    { method: 'PUT', body: { kinds } },
  );
}
