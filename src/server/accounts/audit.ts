import type { FastifyBaseLogger, FastifyRequest } from 'fastify';

/** What the audit lines record. */
export type AuditEvent =
  | 'sign_in'
  | 'sign_in_failed'
  | 'sign_out'
  | 'sign_out_everywhere'
  | 'sessions_ended'
  | 'session_expired'
  | 'user_created'
  | 'user_invited'
  | 'user_disabled'
  | 'user_enabled'
  | 'grant_changed'
  | 'password_set'
  | 'api_token_created'
  | 'api_token_revoked'
  | 'send';

/** Values an audit line may hold: identifiers, counts, reasons. Never a password or a token. */
export type AuditFields = Record<
  string,
  string | number | boolean | null | readonly number[] | readonly string[]
>;

/**
 * Records an event. `request`, when the event happens in one, says who acted (its session), from
 * where and in which trace: the audit trail's row takes them from it (decision 036).
 */
export type Audit = (event: AuditEvent, fields: AuditFields, request?: FastifyRequest) => void;

/**
 * Structured audit lines (decision 026): one JSON line per event with `audit: true` and `event`,
 * through the server's logger (so its redaction applies as a second line of defence), at info so
 * they are written at the default LOG_LEVEL. A log shipper selects them by `audit`.
 */
export function auditTo(log: Pick<FastifyBaseLogger, 'info'>): Audit {
  return (event, fields) => log.info({ audit: true, event, ...fields }, `audit: ${event}`);
}
