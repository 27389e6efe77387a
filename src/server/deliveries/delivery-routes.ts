import { randomBytes } from 'node:crypto';
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { ApiError } from '@/domain/api-error';
import {
  createdWebhookSchema,
  deliveryChannels,
  deliveryLogSchema,
  newWebhookSchema,
  webhookChangesSchema,
  webhookSchema,
  type DeliveryLogEntry,
  type Webhook,
} from '@/domain/deliveries';
import type { PortalConfig } from '@/server/config';
import { registerApiGuards } from '@/server/http/api-guards';
import { isoTime } from '@/server/http/iso-time';
import {
  bodySchema,
  partSchema,
  querySchema,
  responseSchema,
  withRouteSchemas,
} from '@/server/http/route-schemas';
import { checkWebhookUrl, hostNameProblem, hostOf } from '@/server/webhooks/webhook-address';
import type { StoredDelivery, StoredWebhook } from './store/delivery-store';

export interface DeliveryRoutesOptions {
  config: PortalConfig;
  now?: () => number;
}

/**
 * A webhook's address as shown after it is saved: its origin only. A chat's incoming-webhook
 * address carries its credential in the path (Slack's /services/T…/B…/secret, Teams' likewise), so
 * once saved it is not shown again, like the signing secret; an admin who needs another types it.
 */
export function shownAddress(url: string): string {
  const parsed = new URL(url);
  return parsed.pathname === '/' && parsed.search === '' ? parsed.origin : `${parsed.origin}/…`;
}

function webhookOf(stored: StoredWebhook): Webhook {
  return {
    id: stored.id,
    name: stored.name,
    url: shownAddress(stored.url),
    connection: stored.connection,
    events: stored.events,
    createdAt: isoTime(stored.createdAt),
    updatedAt: isoTime(stored.updatedAt),
  };
}

const idParams = partSchema(
  z.object({ id: z.coerce.number().int().positive() }),
  () => new ApiError('not_found', 'There is no such webhook.'),
);

const logQuery = z.object({
  channel: z.enum(deliveryChannels).optional(),
  limit: z.coerce.number().int().min(1).max(500).default(100),
});

/**
 * `/api/admin` (decision 056), for admins: the webhooks (list, add, change, remove, send a test)
 * and the delivery log of both channels, failures first.
 */
export const deliveryRoutes: FastifyPluginAsync<DeliveryRoutesOptions> = async (
  app,
  { config, now = Date.now },
) => {
  const deliveries = app.deliveries;
  const store = deliveries.store;
  await registerApiGuards(app, config, 'admin');
  const routes = withRouteSchemas(app);
  const allowed = config.notifications.webhookAllowHosts;
  const connections = config.connections.map(({ name }) => name);

  /** The address checked as an admin typed it; refused with one message that says why. */
  async function checkedUrl(raw: string): Promise<string> {
    const checked = checkWebhookUrl(raw, allowed);
    const problem =
      'problem' in checked ? checked.problem : await hostNameProblem(checked.url, allowed);
    if (problem !== null || 'problem' in checked) {
      throw new ApiError('invalid_body', problem ?? 'The webhook address cannot be used.', [
        { field: 'url', message: problem ?? 'The webhook address cannot be used.' },
      ]);
    }
    return checked.url.toString();
  }

  function checkedConnection(connection: string | null | undefined): void {
    if (connection === null || connection === undefined || connections.includes(connection)) return;
    const message = `There is no connection "${connection}"; choose one of ${connections.join(', ')}, or none for every connection.`;
    throw new ApiError('invalid_body', message, [{ field: 'connection', message }]);
  }

  function audit(
    request: FastifyRequest,
    event: 'webhook_added' | 'webhook_changed' | 'webhook_removed',
    webhook: StoredWebhook,
  ): void {
    app.auditTrail.auth(
      event,
      {
        webhookId: webhook.id,
        name: webhook.name,
        // The host only: the path of a chat's webhook address is its credential.
        host: hostOf(new URL(webhook.url)),
        scope: webhook.connection ?? 'every connection',
        events: webhook.events,
      },
      request,
    );
  }

  routes.get(
    '/webhooks',
    {
      config: { pageHeaders: false },
      schema: { response: { 200: responseSchema(z.object({ items: z.array(webhookSchema) })) } },
    },
    async () => ({ items: (await store.webhooks()).map(webhookOf) }),
  );

  routes.post(
    '/webhooks',
    {
      config: { pageHeaders: false },
      schema: {
        body: bodySchema(newWebhookSchema),
        response: { 201: responseSchema(createdWebhookSchema) },
      },
    },
    async (request, reply) => {
      const { name, url, connection, events } = request.body;
      checkedConnection(connection);
      const address = await checkedUrl(url);
      // The receiver's key to check signatures with: shown this once, kept on the server.
      const secret = `whsec_${randomBytes(24).toString('base64url')}`;
      const stored = await store.addWebhook(
        { name, url: address, connection, events },
        secret,
        now(),
      );
      audit(request, 'webhook_added', stored);
      reply.code(201);
      return { webhook: webhookOf(stored), secret };
    },
  );

  routes.patch(
    '/webhooks/:id',
    {
      config: { pageHeaders: false },
      schema: {
        params: idParams,
        body: bodySchema(webhookChangesSchema),
        response: { 200: responseSchema(webhookSchema) },
      },
    },
    async (request) => {
      const { url, ...rest } = request.body;
      checkedConnection(rest.connection);
      const changes = url === undefined ? rest : { ...rest, url: await checkedUrl(url) };
      const changed = await store.changeWebhook(request.params.id, changes, now());
      if (!changed) throw new ApiError('not_found', 'There is no such webhook.');
      audit(request, 'webhook_changed', changed);
      return webhookOf(changed);
    },
  );

  routes.delete(
    '/webhooks/:id',
    {
      config: { pageHeaders: false },
      schema: { params: idParams, response: { 200: responseSchema(webhookSchema) } },
    },
    async (request) => {
      const found = await store.webhookWithSecret(request.params.id);
      if (!found || !(await store.removeWebhook(found.id))) {
        throw new ApiError('not_found', 'There is no such webhook.');
      }
      audit(request, 'webhook_removed', found);
      return webhookOf(found);
    },
  );

  routes.post(
    '/webhooks/:id/test',
    {
      config: { pageHeaders: false },
      schema: {
        params: idParams,
        response: {
          200: responseSchema(
            z.object({
              delivered: z.boolean(),
              status: z.number().int().nullable(),
              reason: z.string().nullable(),
            }),
          ),
        },
      },
    },
    async (request) => {
      const at = now();
      const body = JSON.stringify({
        text: 'Test delivery from the VMS portal: this webhook works.',
        portal: { event: 'test', at: isoTime(at) },
      });
      const result = await deliveries.sendTest(request.params.id, body);
      if (result === null) throw new ApiError('not_found', 'There is no such webhook.');
      return result.sent
        ? { delivered: true, status: result.status, reason: null }
        : { delivered: false, status: result.status, reason: result.reason };
    },
  );

  routes.get(
    '/deliveries',
    {
      config: { pageHeaders: false },
      schema: {
        querystring: querySchema(logQuery, 'The delivery log'),
        response: { 200: responseSchema(deliveryLogSchema) },
      },
    },
    async (request) => {
      const { channel, limit } = request.query;
      const rows = await store.log(limit, channel);
      const names = new Map((await store.webhooks()).map((hook) => [String(hook.id), hook.name]));
      const emails = new Map<string, string>();
      for (const row of rows) {
        if (row.channel !== 'email' || emails.has(row.target)) continue;
        const user = await app.accounts.users.byId(row.target);
        emails.set(row.target, user?.email ?? `user ${row.target}`);
      }
      const targetOf = (row: StoredDelivery) =>
        row.channel === 'email'
          ? (emails.get(row.target) ?? row.target)
          : (names.get(row.target) ?? `webhook ${row.target} (removed)`);
      return {
        items: rows.map((row): DeliveryLogEntry => ({
          id: row.id,
          channel: row.channel,
          target: targetOf(row),
          kind: row.kind,
          title: row.title,
          state: row.state,
          attempts: row.attempts,
          lastStatus: row.lastStatus,
          lastError: row.lastError,
          createdAt: isoTime(row.createdAt),
          updatedAt: isoTime(row.updatedAt),
          nextAttemptAt: row.state === 'pending' ? isoTime(row.nextAt) : null,
          sentAt: row.sentAt === null ? null : isoTime(row.sentAt),
        })),
      };
    },
  );
};
