import { infiniteQueryOptions } from '@tanstack/react-query';
import type { AuditListParams } from '@/domain/audit';
import { auditPageSchema } from '@/domain/audit';
import { requestJson } from '@/shared/api/http';

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
export function auditQuery(filters: AuditFilters, extra: Record<string, string> = {}): string {
  const query = new URLSearchParams();
  for (const key of auditFilterKeys) {
    const value = filters[key]?.trim();
    if (value) query.set(key, value);
  }
  for (const [key, value] of Object.entries(extra)) query.set(key, value);
  return query.toString();
}

export function auditPagesQueryOptions(filters: AuditFilters) {
  return infiniteQueryOptions({
    queryKey: ['audit', 'pages', filters],
    queryFn: async ({ pageParam, signal }) =>
      (
        await requestJson(
          `/api/audit?${auditQuery(filters, pageParam ? { cursor: pageParam } : {})}`,
          auditPageSchema,
          'Reading the audit trail',
          { signal },
        )
      ).data,
    initialPageParam: '',
    getNextPageParam: (page) => page.next ?? undefined,
  });
}

/** Where the selection downloads from, as CSV or JSON Lines. */
export const auditExportHref = (filters: AuditFilters, format: 'csv' | 'jsonl') =>
  `/api/audit/export?${auditQuery(filters, { format })}`;
