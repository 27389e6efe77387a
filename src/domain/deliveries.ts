import { z } from 'zod';
import { notificationKinds, type NotificationKind } from './notifications';

/**
 * Notifications that leave the portal (decision 056): by e-mail to the user a notification is
 * for, and by webhook to the addresses admins add. The shapes the admin API and each user's
 * e-mail settings answer with, and the browser parses with.
 */

export const deliveryChannels = ['email', 'webhook'] as const;
export type DeliveryChannel = (typeof deliveryChannels)[number];

export const deliveryStates = ['pending', 'sent', 'failed'] as const;
export type DeliveryState = (typeof deliveryStates)[number];

const kind = z.enum(notificationKinds);

/** A webhook as admins see it: never its secret, which is shown once when it is made. */
export const webhookSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  url: z.string(),
  /** The connection whose notices it receives; null: every connection's. */
  connection: z.string().nullable(),
  events: z.array(kind),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type Webhook = z.infer<typeof webhookSchema>;

/** POST /api/admin/webhooks: the webhook, and its signing secret this once. */
export const createdWebhookSchema = z.object({ webhook: webhookSchema, secret: z.string() });

const webhookName = z
  .string()
  .trim()
  .min(1, 'Give the webhook a name, such as "Recruiting channel".')
  .max(100, 'A webhook name has at most 100 characters.');
const webhookEvents = z
  .array(kind, {
    error: `Events are a list of: ${notificationKinds.join(', ')}.`,
  })
  .min(1, `Choose at least one event: ${notificationKinds.join(', ')}.`);

export const newWebhookSchema = z
  .object({
    name: webhookName,
    url: z.string().max(2000, 'A webhook address has at most 2,000 characters.'),
    connection: z.string().min(1).nullable().default(null),
    events: webhookEvents,
  })
  .strict();

export const webhookChangesSchema = z
  .object({
    name: webhookName.optional(),
    url: z.string().max(2000, 'A webhook address has at most 2,000 characters.').optional(),
    connection: z.string().min(1).nullable().optional(),
    events: webhookEvents.optional(),
  })
  .strict();

/** One delivery as the admins' log shows it: what, where, how it went; never its body. */
export const deliveryLogEntrySchema = z.object({
  id: z.number().int(),
  channel: z.enum(deliveryChannels),
  /** The user's e-mail address, or the webhook's name. */
  target: z.string(),
  kind,
  title: z.string(),
  state: z.enum(deliveryStates),
  attempts: z.number().int(),
  /** The receiver's HTTP status, or the SMTP server's reply code, when it answered. */
  lastStatus: z.number().int().nullable(),
  lastError: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
  nextAttemptAt: z.string().nullable(),
  sentAt: z.string().nullable(),
});
export type DeliveryLogEntry = z.infer<typeof deliveryLogEntrySchema>;

export const deliveryLogSchema = z.object({ items: z.array(deliveryLogEntrySchema) });

/** Which kinds of notification reach the signed-in user by e-mail; all on until turned off. */
export const mailPreferencesSchema = z.object({
  /** Whether the portal sends e-mail at all (SMTP_URL set). */
  mailConfigured: z.boolean(),
  kinds: z.record(kind, z.boolean()),
});
export type MailPreferences = z.infer<typeof mailPreferencesSchema>;

export const mailPreferenceChangesSchema = z
  .object({ kinds: z.partialRecord(kind, z.boolean()) })
  .strict();

/**
 * Each kind in a person's words, as "Tell me when …" finishes it: the Settings choices, the
 * webhooks' events and the unsubscribe page. A kind added to notificationKinds must be named here.
 */
export const notificationKindLabels: Record<NotificationKind, string> = {
  'batch.settled': 'a batch I sent settles at the VMS',
  'batch.gave_up': 'a batch I sent is still pending at the VMS when the portal stops watching it',
  'suite.scheduled_run':
    'a scheduled suite run I am told of ends, with what newly fails or was fixed',
};
