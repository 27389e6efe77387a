import type { FastifyPluginAsync } from 'fastify';
import { ApiError } from '@/domain/api-error';
import {
  mailPreferenceChangesSchema,
  mailPreferencesSchema,
  type MailPreferences,
} from '@/domain/deliveries';
import { notificationKinds } from '@/domain/notifications';
import type { PortalConfig } from '@/server/config';
import { registerApiGuards } from '@/server/http/api-guards';
import { requireUser } from '@/server/http/require-user';
import { bodySchema, responseSchema, withRouteSchemas } from '@/server/http/route-schemas';
import type { DeliveryStore } from './store/delivery-store';

export interface MailPreferenceRoutesOptions {
  config: PortalConfig;
}

async function preferencesOf(
  store: DeliveryStore,
  userId: string,
  mailConfigured: boolean,
): Promise<MailPreferences> {
  const choices = await store.mailChoices(userId);
  return {
    mailConfigured,
    kinds: Object.fromEntries(
      notificationKinds.map((kind) => [kind, choices.get(kind) ?? true]),
    ) as MailPreferences['kinds'],
  };
}

/**
 * `/api/me/email-notifications`: which kinds of notification reach the signed-in user by e-mail
 * (all until turned off), read and changed by that user only.
 */
export const mailPreferenceRoutes: FastifyPluginAsync<MailPreferenceRoutesOptions> = async (
  app,
  { config },
) => {
  const { store, mailConfigured } = app.deliveries;
  await registerApiGuards(app, config, 'recruiter');
  const routes = withRouteSchemas(app);
  const userOf = (request: Parameters<typeof requireUser>[0]) => {
    const session = requireUser(request, config);
    if (!session) {
      throw new ApiError(
        'not_found',
        'Sign-in is off on this portal, so there are no users to e-mail: notifications are in the app only.',
      );
    }
    return session.user.id;
  };

  routes.get(
    '/',
    {
      config: { pageHeaders: false },
      schema: { response: { 200: responseSchema(mailPreferencesSchema) } },
    },
    async (request) => preferencesOf(store, userOf(request), mailConfigured),
  );

  routes.put(
    '/',
    {
      config: { pageHeaders: false },
      schema: {
        body: bodySchema(mailPreferenceChangesSchema),
        response: { 200: responseSchema(mailPreferencesSchema) },
      },
    },
    async (request) => {
      const userId = userOf(request);
      for (const kind of notificationKinds) {
        const enabled = request.body.kinds[kind];
        if (enabled !== undefined) await store.setMailChoice(userId, kind, enabled);
      }
      return preferencesOf(store, userId, mailConfigured);
    },
  );
};
