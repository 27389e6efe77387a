import { z } from 'zod';
import { connectionParam, instant, pageParams, param } from './journal';
import { oneOf } from './settings';

/**
 * The audit trail's HTTP API (docs/decisions/036-audit-trail.md): who did what and when — sign-ins
 * and failed ones, accounts and grants changed, each send, each refusal — as admins list, filter
 * and export it. The portal server answers with these shapes and the browser parses them with
 * the same schemas. Details hold identifiers, counts and reasons; never a password, a token, a
 * key or a body.
 */

/** Every event the trail records. */
export const auditEvents = [
  'sign_in',
  'sign_in_failed',
  'sign_out',
  'sign_out_everywhere',
  'sessions_ended',
  'session_expired',
  'user_created',
  'user_invited',
  'user_disabled',
  'user_enabled',
  'grant_changed',
  'password_set',
  /** A personal API token made, or revoked by its owner or an admin (decision 037). */
  'api_token_created',
  'api_token_revoked',
  /** A webhook added, changed or removed by an admin (decision 056). */
  'webhook_added',
  'webhook_changed',
  'webhook_removed',
  /** A notification delivered by e-mail or webhook, or given up on (details: channel). */
  'notification_sent',
  'notification_failed',
  /** A suite's schedule added, changed (stopped or resumed by hand too) or removed (decision 057). */
  'schedule_added',
  'schedule_changed',
  'schedule_removed',
  /** A schedule stopped by the portal: its owner disabled, or a grant it runs with lost. */
  'schedule_stopped',
  /** A scheduled occurrence started, skipped (missed while down), or ended with its outcome. */
  'schedule_run',
  /** A batch sent through the proxy (a POST), answered by the VMS or not. */
  'send',
  /**
   * The server's watch of a batch the VMS accepted: recorded, settled (every row final) or given
   * up (still pending after WATCH_GIVE_UP_HOURS); the user is the batch's sender.
   */
  'watch_started',
  'watch_settled',
  'watch_gave_up',
  /**
   * A call refused with 403: a role, an org or a connection not granted, a CSRF or origin check, a
   * call outside an API token's scope; or with 401 for an API token revoked, expired or unknown.
   */
  'refused',
  /** Refusals and failed sign-ins made without a session past what the trail keeps per minute. */
  'events_suppressed',
  /**
   * A journaled call's, or an export's, personal data shown in full to QA or an admin (decision
   * 058); details: the call's id or the export's format and filters, and the reason given.
   */
  'personal_data_revealed',
  /**
   * One person's data found and exported, or erased, on their request by an admin (decision 059;
   * details: the reason and how many records of each store, never a personal value).
   */
  'personal_data_exported',
  'personal_data_erased',
] as const;
export type AuditEventName = (typeof auditEvents)[number];

/** Whether a name read back from a store is one this release writes. */
export function isAuditEvent(name: string): name is AuditEventName {
  return (auditEvents as readonly string[]).includes(name);
}

/** `ok`: done; `failed`: tried and did not succeed (a sign-in, a send the VMS refused); `refused`: the portal said no. */
export const auditOutcomes = ['ok', 'failed', 'refused'] as const;
export type AuditOutcome = (typeof auditOutcomes)[number];

export const auditExportFormats = ['csv', 'jsonl'] as const;
export type AuditExportFormat = (typeof auditExportFormats)[number];
export const auditPageSize = { default: 50, max: 200 } as const;

/** A value in an event's details: identifiers, counts, flags, reasons, lists of them. */
const detailValue = z.union([
  z.string(),
  z.number(),
  z.boolean(),
  z.null(),
  z.array(z.union([z.string(), z.number()])),
]);

/** One event as the list and the export give it. */
export const auditEntrySchema = z.object({
  id: z.number().int().positive(),
  /** When it happened (ISO 8601, UTC). */
  at: z.iso.datetime(),
  /**
   * One of `auditEvents`; a name this release does not know (written by a newer one sharing the
   * database) is given as it was written, never read as another event.
   */
  event: z.string().min(1),
  /** Who did it: the signed-in user, else the account it was about (a failed sign-in's); null when nobody is known. */
  userId: z.string().nullable(),
  email: z.string().nullable(),
  /** The VMS connection, for a send or a refused call to one. */
  connection: z.string().nullable(),
  /** The client's address (behind a trusted reverse proxy, from X-Forwarded-For). */
  address: z.string().nullable(),
  outcome: z.enum(auditOutcomes),
  /** The HTTP status answered, where there was one. */
  status: z.number().int().nullable(),
  details: z.record(z.string(), detailValue),
  /** The W3C trace id of the request (its `traceparent`), to follow it into the VMS's own logs. */
  traceId: z.string().nullable(),
});
export type AuditEntry = z.infer<typeof auditEntrySchema>;

/** `GET /api/audit`: a page, newest first; `next` is the cursor of the following page. */
export const auditPageSchema = z.object({
  entries: z.array(auditEntrySchema),
  next: z.string().nullable(),
  /** How many days events are kept (AUDIT_RETENTION_DAYS). */
  retentionDays: z.number().int().positive(),
});
export type AuditPage = z.infer<typeof auditPageSchema>;

/** The filters of the list and the export; from and to are inclusive (a date: the whole day). */
export const auditFilterSchema = z.object({
  event: oneOf('event', auditEvents),
  /** The e-mail address of who did it (any case). */
  email: param.pipe(
    z
      .string()
      .max(320, 'email must be at most 320 characters.')
      .transform((value) => value.toLowerCase())
      .optional(),
  ),
  connection: connectionParam,
  from: instant('from'),
  to: instant('to'),
});
export type AuditFilter = z.output<typeof auditFilterSchema>;

export const auditListQuerySchema = auditFilterSchema.extend(pageParams(auditPageSize.max));

export const auditExportQuerySchema = auditFilterSchema.extend({
  format: oneOf('format', auditExportFormats),
});

/** What the browser puts in the address: every filter as text. */
export type AuditListParams = z.input<typeof auditListQuerySchema>;
