import type { FastifyBaseLogger, FastifyRequest } from 'fastify';
import type { AuditEventName } from '@/domain/audit';

/**
 * What the accounts and the proxy record through the audit lines: the domain's events but the two
 * the trail writes itself (a refusal, and the count of refusals it did not keep).
 */
export type AuditEvent = Exclude<AuditEventName, 'refused' | 'events_suppressed'>;

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
