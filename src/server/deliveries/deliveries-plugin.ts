import { randomBytes } from 'node:crypto';
import fp from 'fastify-plugin';
import type { NotificationKind } from '@/domain/notifications';
import type { PortalConfig } from '@/server/config';
import { mailMessage, type MailContent } from '@/server/mail/mail-message';
import { Mailer } from '@/server/mail/mailer';
import type { PortalDatabase } from '@/server/store/database';
import { purgeRounds } from '@/server/store/purge-rounds';
import { WebhookSender } from '@/server/webhooks/webhook-delivery';
import { deliveryIdHeader, mailChannel, webhookChannel } from './channels';
import { DeliveryWorker, type AttemptResult, type RetrySchedule } from './delivery-worker';
import {
  createDeliveryStore,
  type AttemptEnd,
  type DeliveryStore,
  type StoredDelivery,
} from './store/delivery-store';
import { createPostgresDeliveryStore } from './store/postgres/delivery-store';
import { unsubscribeToken } from './unsubscribe-token';

declare module 'fastify' {
  interface FastifyInstance {
    /** Notifications by e-mail and webhook: the outbox, the webhooks, each user's choices. */
    deliveries: Deliveries;
  }
}

export interface Deliveries {
  store: DeliveryStore;
  /** Whether SMTP_URL is set: without it no e-mail is made. */
  mailConfigured: boolean;
  /** The key that signs unsubscribe links. */
  linkKey(): Promise<string>;
  /** Sends a webhook's test delivery now, outside the outbox; the outcome as the log words it. */
  sendTest(webhookId: number, body: string): Promise<AttemptResult | null>;
  /** Looks at the outbox now. */
  wake(): void;
}

export interface DeliveriesOptions {
  config: PortalConfig;
  retry?: Partial<RetrySchedule>;
  pollMs?: number;
  now?: () => number;
}

/** Sent and failed deliveries are kept this long for the log, as the notifications are. */
const keepMs = 90 * 24 * 60 * 60 * 1000;

/** The deliveries' store on the portal database, as this plugin and the tests open it. */
export function openDeliveryStore(database: PortalDatabase): DeliveryStore {
  return database.open('deliveries', {
    sqlite: createDeliveryStore,
    postgres: createPostgresDeliveryStore,
  });
}

/** The address links in e-mail and webhooks start with. */
export function portalOrigin(config: PortalConfig): string {
  return config.auth.publicOrigin ?? `http://${config.host}:${config.port}`;
}

/**
 * Notifications by e-mail and webhook (decision 056): two channels on the notifier that put
 * deliveries in the outbox, and the worker that sends them with retries. Registered after the
 * notifications and before the watch, which tells.
 */
export const deliveriesPlugin = fp<DeliveriesOptions>(
  async (app, { config, retry, pollMs, now = Date.now }) => {
    const store = openDeliveryStore(app.database);
    const origin = portalOrigin(config);
    const settings = config.notifications.mail;
    const mailer = settings ? new Mailer(settings) : null;
    const sender = new WebhookSender({ allowed: config.notifications.webhookAllowHosts });
    let key: Promise<string> | null = null;
    const linkKey = () => {
      key ??= store.linkKey(() => randomBytes(32).toString('base64url'));
      // A failed read is asked again next time rather than kept.
      key.catch(() => {
        key = null;
      });
      return key;
    };

    /** A signed POST of `body` to the webhook, named by `id` so the receiver can skip a repeat. */
    async function post(
      webhook: { url: string; secret: string },
      body: string,
      id: string,
    ): Promise<AttemptResult> {
      const result = await sender.send(webhook.url, webhook.secret, body, {
        [deliveryIdHeader]: id,
      });
      return result.delivered
        ? { sent: true, status: result.status }
        : { sent: false, status: result.status, reason: result.reason, retry: result.retry };
    }

    async function send(delivery: StoredDelivery): Promise<AttemptResult> {
      if (delivery.channel === 'email') {
        if (!mailer) {
          return {
            sent: false,
            status: null,
            reason: 'E-mail is off (SMTP_URL is not set).',
            retry: false,
          };
        }
        // An account disabled since the notice was taken gets nothing more.
        const user = await app.accounts.users.byId(delivery.target);
        if (!user || user.disabled) {
          return {
            sent: false,
            status: null,
            reason: 'The account was disabled; nothing is e-mailed to it.',
            retry: false,
          };
        }
        const result = await mailer.send(mailMessage(JSON.parse(delivery.payload) as MailContent));
        return result.sent
          ? { sent: true, status: null }
          : { sent: false, status: null, reason: result.reason, retry: !result.permanent };
      }
      const webhook = await store.webhookWithSecret(Number(delivery.target));
      if (!webhook) {
        return { sent: false, status: null, reason: 'The webhook was removed.', retry: false };
      }
      const { id, body } = JSON.parse(delivery.payload) as { id: string; body: string };
      return post(webhook, body, id);
    }

    const users = app.accounts.users;
    function attempted(delivery: StoredDelivery, end: AttemptEnd): void {
      app.portalMetrics?.delivery(
        delivery.channel,
        end.state === 'sent' ? 'sent' : end.state === 'pending' ? 'retry' : 'failed',
      );
      if (end.state === 'pending') return;
      void (async () => {
        const user = delivery.channel === 'email' ? await users.byId(delivery.target) : undefined;
        app.auditTrail.unattended(
          end.state === 'sent' ? 'notification_sent' : 'notification_failed',
          {
            userId: delivery.channel === 'email' ? delivery.target : null,
            email: user?.email ?? null,
            connection: null,
            outcome: end.state === 'sent' ? 'ok' : 'failed',
            status: end.status,
            details: {
              channel: delivery.channel,
              delivery: delivery.id,
              kind: delivery.kind,
              about: delivery.about,
              webhookId: delivery.channel === 'webhook' ? Number(delivery.target) : null,
              attempts: delivery.attempts,
              reason: end.state === 'failed' ? end.error : null,
            },
          },
        );
      })().catch((error: unknown) =>
        app.log.error(
          { err: error instanceof Error ? { message: error.message } : String(error) },
          'deliveries: the audit event of a delivery could not be made',
        ),
      );
    }

    const worker = new DeliveryWorker({
      store,
      send,
      attempted,
      log: app.log,
      now,
      ...(retry ? { retry } : {}),
      ...(pollMs !== undefined ? { pollMs } : {}),
    });
    const added = () => worker.wake();

    if (mailer) {
      app.notifier.addChannel(
        mailChannel({
          store,
          origin,
          added,
          async addressOf(userId) {
            const user = await users.byId(userId);
            return user && !user.disabled ? user.email : null;
          },
          async unsubscribeUrl(userId: string, kind: NotificationKind) {
            const url = new URL('/unsubscribe', origin);
            url.searchParams.set('token', unsubscribeToken(await linkKey(), userId, kind));
            return url.toString();
          },
        }),
      );
    }
    app.notifier.addChannel(webhookChannel({ store, origin, added }));

    app.decorate('deliveries', {
      store,
      mailConfigured: mailer !== null,
      linkKey,
      async sendTest(webhookId, body) {
        const webhook = await store.webhookWithSecret(webhookId);
        if (!webhook) return null;
        return post(webhook, body, `dlv_test_${randomBytes(6).toString('hex')}`);
      },
      wake: added,
    } satisfies Deliveries);

    const rounds = purgeRounds({
      everyMs: 60 * 60 * 1000,
      log: app.log,
      failure: 'deliveries: old ones could not be removed',
      purge: () => store.prune(now() - keepMs),
    });
    app.addHook('onReady', () => worker.start());
    app.addHook('onClose', async () => {
      rounds.stop();
      await worker.stop();
      await sender.close();
      mailer?.close();
    });
    await rounds.first;
  },
  {
    name: 'deliveries',
    fastify: '5.x',
    dependencies: ['database', 'notifications', 'accounts', 'audit'],
  },
);
