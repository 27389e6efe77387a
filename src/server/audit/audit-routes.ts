import type { FastifyPluginAsync } from 'fastify';
import fp from 'fastify-plugin';
import {
  auditExportQuerySchema,
  auditListQuerySchema,
  auditPageSchema,
  auditPageSize,
  type AuditEntry,
  type AuditExportFormat,
  type AuditFilter,
  type AuditPage,
} from '@/domain/audit';
import type { PortalConfig } from '@/server/config';
import { registerApiGuards } from '@/server/http/api-guards';
import { newestPage, oldestFirstPages, sendDownload } from '@/server/http/entry-pages';
import { querySchema, responseSchema, withRouteSchemas } from '@/server/http/route-schemas';
import { auditCursorAfter, type AuditStore } from './store/audit-events';

export interface AuditRoutesOptions {
  config: PortalConfig;
}

/** Events read per page while exporting: enough to keep the stream busy, little memory. */
const exportPage = 500;

export const csvColumns = [
  'id',
  'at',
  'event',
  'userId',
  'email',
  'connection',
  'address',
  'outcome',
  'status',
  'traceId',
  'details',
] as const satisfies readonly (keyof AuditEntry)[];

/**
 * One CSV cell (RFC 4180): quoted when it holds a comma, a quote or a line break. A cell that a
 * spreadsheet would run as a formula (=, +, -, @, a tab or a carriage return first) is given a
 * leading apostrophe, so opening the export never runs what someone typed into the portal.
 */
export function csvCell(value: unknown): string {
  let text =
    value === null || value === undefined
      ? ''
      : typeof value === 'object'
        ? JSON.stringify(value)
        : String(value);
  if (/^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

function csvLine(entry: AuditEntry): string {
  return `${csvColumns.map((column) => csvCell(entry[column])).join(',')}\r\n`;
}

/**
 * The export of a selection, oldest first, as text chunks: CSV (a header row first) or JSON Lines.
 * The first page is read before anything is sent, so a store that fails is still a clean error;
 * then a page at a time, each read only once the one before is written out, so a selection of any
 * size is streamed without being held in memory.
 */
export async function exportLines(
  store: AuditStore,
  filter: AuditFilter,
  format: AuditExportFormat,
  pageSize = exportPage,
): Promise<AsyncGenerator<string>> {
  const pages = await oldestFirstPages(
    (page) => store.list(filter, page),
    auditCursorAfter,
    pageSize,
  );
  async function* lines(): AsyncGenerator<string> {
    if (format === 'csv') yield `${csvColumns.join(',')}\r\n`;
    for await (const page of pages) {
      yield page
        .map((entry) => (format === 'csv' ? csvLine(entry) : `${JSON.stringify(entry)}\n`))
        .join('');
    }
  }
  return lines();
}

/**
 * The audit trail's API under /api/audit, for admins (decision 036): the list, newest first in
 * pages, and the export of a selection as CSV or JSON Lines, streamed oldest first a page at a
 * time. Read-only: nothing here changes or deletes an event.
 */
const routes: FastifyPluginAsync<AuditRoutesOptions> = async (app, { config }) => {
  const trail = app.auditTrail;
  await registerApiGuards(app, config, 'admin');
  const retentionDays = Math.round(config.audit.retentionMs / (24 * 60 * 60 * 1000));

  const api = withRouteSchemas(app);

  api.get(
    '/',
    {
      config: { pageHeaders: false },
      schema: {
        querystring: querySchema(auditListQuerySchema, 'The audit trail'),
        response: { 200: responseSchema(auditPageSchema) },
      },
    },
    async (request): Promise<AuditPage> => {
      const { cursor, limit, ...filter } = request.query;
      const size = limit ?? auditPageSize.default;
      const store = await trail.reader();
      const page = await newestPage(
        (page) => store.list(filter, page),
        auditCursorAfter,
        cursor ?? null,
        size,
      );
      return { ...page, retentionDays };
    },
  );

  api.get(
    '/export',
    {
      config: { pageHeaders: false },
      schema: { querystring: querySchema(auditExportQuerySchema, 'The audit trail') },
    },
    async (request, reply) => {
      const { format = 'csv', ...filter } = request.query;
      const store = await trail.reader();
      const lines = await exportLines(store, filter, format);
      return sendDownload(
        reply,
        {
          name: 'audit',
          format,
          contentType:
            format === 'csv' ? 'text/csv; charset=utf-8' : 'application/x-ndjson; charset=utf-8',
        },
        lines,
      );
    },
  );
};

export const auditRoutes = fp(routes, {
  name: 'audit-routes',
  fastify: '5.x',
  encapsulate: true,
  dependencies: ['audit'],
});
