import { createHash } from 'node:crypto';
import type { NotificationKind } from '@/domain/notifications';
import type { MailContent } from '@/server/mail/mail-message';
import type { Notice, NoticeChannel } from '@/server/notifications/notifier';
import type { DeliveryStore, StoredWebhook } from './store/delivery-store';

/** The header that names a webhook delivery, the same on every attempt of it. */
export const deliveryIdHeader = 'x-portal-delivery';

/**
 * A delivery's id as receivers see it: the same however often the notice is told or the
 * delivery attempted, so a receiver that got an attempt whose answer was lost can drop the repeat.
 */
export function deliveryId(about: string, channel: string, target: string): string {
  const digest = createHash('sha256').update(`${about}\n${channel}\n${target}`).digest('hex');
  return `dlv_${digest.slice(0, 24)}`;
}

/** What a webhook receives: a `text` line Slack and Teams show, and the same as fields. */
export function webhookBody(notice: Notice, link: string, id: string): string {
  return JSON.stringify({
    text: `${notice.title}: ${link}`,
    portal: {
      deliveryId: id,
      event: notice.kind,
      title: notice.title,
      link,
      connection: notice.connection,
      about: notice.about,
      at: new Date(notice.at).toISOString(),
    },
  });
}

export function receives(webhook: StoredWebhook, notice: Notice): boolean {
  return (
    webhook.events.includes(notice.kind) &&
    (webhook.connection === null || webhook.connection === notice.connection)
  );
}

export interface ChannelOptions {
  store: DeliveryStore;
  /** The portal's address people open (PORTAL_PUBLIC_URL), for absolute links. */
  origin: string;
  /** A delivery was added: the worker looks at the outbox now. */
  added: () => void;
}

/**
 * Webhooks: one delivery per webhook that receives the notice's kind for its connection (or every
 * connection), its body made now and kept, so every attempt sends the same bytes.
 */
export function webhookChannel({ store, origin, added }: ChannelOptions): NoticeChannel {
  return {
    name: 'webhook',
    async take(notice) {
      const link = new URL(notice.link, origin).toString();
      let any = false;
      for (const webhook of (await store.webhooks()).filter((each) => receives(each, notice))) {
        const target = String(webhook.id);
        const id = deliveryId(notice.about, 'webhook', target);
        any =
          (await store.enqueue({
            about: notice.about,
            channel: 'webhook',
            target,
            kind: notice.kind,
            title: notice.title,
            payload: JSON.stringify({ id, body: webhookBody(notice, link, id) }),
            at: notice.at,
          })) || any;
      }
      if (any) added();
    },
  };
}

export interface MailChannelOptions extends ChannelOptions {
  /** The user's e-mail address, or null for one who is gone or disabled. */
  addressOf: (userId: string) => Promise<string | null>;
  unsubscribeUrl: (userId: string, kind: NotificationKind) => Promise<string>;
}

/**
 * E-mail: to the user the notice is for, unless they turned its kind off. The portal's own
 * notices (sign-in off) have no one to mail. The message's words are made now: counts, ids and
 * the absolute link, no candidate's data (decision 052).
 */
export function mailChannel(options: MailChannelOptions): NoticeChannel {
  const { store, origin, added } = options;
  return {
    name: 'email',
    async take(notice) {
      if (notice.userId === null) return;
      const choices = await store.mailChoices(notice.userId);
      if (choices.get(notice.kind) === false) return;
      const to = await options.addressOf(notice.userId);
      if (to === null) return;
      const content: MailContent = {
        to,
        subject: notice.title,
        lines: [`${notice.title}.`],
        link: { label: 'See it in the portal', url: new URL(notice.link, origin).toString() },
        unsubscribeUrl: await options.unsubscribeUrl(notice.userId, notice.kind),
      };
      const isNew = await store.enqueue({
        about: notice.about,
        channel: 'email',
        target: notice.userId,
        kind: notice.kind,
        title: notice.title,
        payload: JSON.stringify(content),
        at: notice.at,
      });
      if (isNew) added();
    },
  };
}
