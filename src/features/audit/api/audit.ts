import { infiniteQueryOptions } from '@tanstack/react-query';
import type { AuditListParams } from '@/domain/audit';
import { auditPageSchema } from '@/domain/audit';
import { cursorPages, queryString } from '@/shared/api/cursor-pages';

/**
 * The portal server's audit trail (decision 036), for admins: pages of events, the newest first,
 * and the address of an export. The answers are parsed with the schemas the server answers with.
 */
export const auditFilterKeys = [
  'event',
  'email',
  'connection',
  'from',
  'to',
] as const satisfies ReadonlyArray<keyof AuditListParams>;

export type AuditFilters = Partial<Record<(typeof auditFilterKeys)[number], string>>;

/** The filters as a query string, empty ones left out. */
export const auditQuery = (filters: AuditFilters, extra: Record<string, string> = {}): string =>
  queryString(filters, extra);

export function auditPagesQueryOptions(filters: AuditFilters) {
  return infiniteQueryOptions({
    queryKey: ['audit', 'pages', filters],
    ...cursorPages(
      (cursor) => `/api/audit?${auditQuery(filters, cursor)}`,
      auditPageSchema,
      'Reading the audit trail',
    ),
  });
}

/** Where the selection downloads from, as CSV or JSON Lines. */
export const auditExportHref = (filters: AuditFilters, format: 'csv' | 'jsonl') =>
  `/api/audit/export?${auditQuery(filters, { format })}`;
