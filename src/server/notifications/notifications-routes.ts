import type { FastifyPluginAsync } from 'fastify';
import { z } from 'zod';
import {
  markReadSchema,
  notificationListSchema,
  type PortalNotification,
} from '@/domain/notifications';
import type { PortalConfig } from '@/server/config';
import { registerApiGuards } from '@/server/http/api-guards';
import { requireUser } from '@/server/http/require-user';
import {
  bodySchema,
  querySchema,
  responseSchema,
  withRouteSchemas,
} from '@/server/http/route-schemas';
import type { StoredNotification } from './store/notification-store';

export interface NotificationRoutesOptions {
  config: PortalConfig;
  now?: () => number;
}

const listQuery = z.object({
  limit: z.coerce.number().int().min(1).max(100).default(20),
  /** An id: only notifications older than it (the next page). */
  before: z.coerce.number().int().positive().optional(),
});

function answerOf(stored: StoredNotification): PortalNotification {
  return {
    id: stored.id,
    kind: stored.kind,
    title: stored.title,
    link: stored.link,
    createdAt: new Date(stored.createdAt).toISOString(),
    readAt: stored.readAt === null ? null : new Date(stored.readAt).toISOString(),
  };
}

/**
 * `/api/notifications`: the signed-in user's own, newest first, with how many are unread; `POST
 * /read` marks some (by id) or all read. Nobody reads or marks another's. With sign-in off, the
 * portal's own (made for batches sent without a user).
 */
export const notificationRoutes: FastifyPluginAsync<NotificationRoutesOptions> = async (
  app,
  { config, now = Date.now },
) => {
  const store = app.notificationStore;
  await registerApiGuards(app, config, 'recruiter');
  const routes = withRouteSchemas(app);
  routes.get(
    '/',
    {
      config: { pageHeaders: false },
      schema: {
        querystring: querySchema(listQuery, 'The notifications'),
        response: { 200: responseSchema(notificationListSchema) },
      },
    },
    async (request) => {
      const userId = requireUser(request, config)?.user.id ?? null;
      const { limit, before } = request.query;
      const [items, unread] = await Promise.all([
        store.list(userId, limit, before),
        store.unread(userId),
      ]);
      return { unread, items: items.map(answerOf) };
    },
  );
  routes.post(
    '/read',
    {
      config: { pageHeaders: false },
      schema: {
        body: bodySchema(markReadSchema),
        response: {
          200: responseSchema(z.object({ marked: z.number().int(), unread: z.number().int() })),
        },
      },
    },
    async (request) => {
      const userId = requireUser(request, config)?.user.id ?? null;
      const body = request.body;
      const marked = await store.markRead(userId, 'all' in body ? 'all' : body.ids, now());
      return { marked, unread: await store.unread(userId) };
    },
  );
};
