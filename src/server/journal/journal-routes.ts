import type { FastifyPluginAsync } from 'fastify';
import fp from 'fastify-plugin';
import { z } from 'zod';
import { ApiError } from '@/domain/api-error';
import {
  journalCurlSchema,
  journalDetailSchema,
  journalExportQuerySchema,
  journalListQuerySchema,
  journalPageSchema,
  journalPageSize,
  journalStatusSchema,
  type JournalFilter,
  type JournalStatus,
} from '@/domain/journal';
import type { Connection, PortalConfig } from '@/server/config';
import { registerApiGuards } from '@/server/http/api-guards';
import { newestPage, sendDownload } from '@/server/http/entry-pages';
import {
  partSchema,
  querySchema,
  responseSchema,
  withRouteSchemas,
} from '@/server/http/route-schemas';
import { curlFor } from './curl';
import { exportChunks } from './journal-export';
import { cursorAfter, JournalSearchError, type JournalReader } from './store/journal-store';

/**
 * What the journal needs of the proxy's upstreams: where each connection's VMS is, for Copy as
 * cURL. The proxy's ConnectionUpstreams is one; the journal does not import the proxy.
 */
export interface UpstreamAddresses {
  /** The connection named `name`; the default one for null (a call recorded before names). */
  named(name: string | null): Connection | undefined;
  /** The connection's base URL, ending in `/`; null when it has none. */
  urlOf(connection: Connection): string | null;
}

export interface JournalRoutesOptions {
  config: PortalConfig;
  /** Where each connection's VMS is (for Copy as cURL). */
  upstreams: UpstreamAddresses;
}

/** A search the store could not run is the user's text, not a fault: 400, never 500. */
async function searching<T>(read: () => Promise<T>): Promise<T> {
  try {
    return await read();
  } catch (error) {
    if (error instanceof JournalSearchError) {
      throw new ApiError('invalid_parameter', error.message, [
        { field: 'q', message: error.message },
      ]);
    }
    throw error;
  }
}

/** `/api/journal/:id…`: an id that cannot be one names no call in the journal, 404. */
const entryParams = partSchema(
  z.object({
    id: z
      .string()
      .regex(/^[1-9]\d{0,15}$/)
      .transform(Number),
  }),
  (_issue, { id }) =>
    new ApiError(
      'not_found',
      `There is no call "${String(id).slice(0, 40)}" in the journal: ids are whole numbers.`,
    ),
);

function missing(id: number): ApiError {
  return new ApiError(
    'not_found',
    `There is no call ${id} in the journal. It may have been pruned (JOURNAL_RETENTION_DAYS, JOURNAL_MAX_MB).`,
  );
}

/**
 * The inspector's API under /api/journal (decision 025): the list with its filters and search,
 * one call in full with its batch's other calls and its replays, the export (HAR or JSON Lines),
 * and Copy as cURL. Read-only. Same guards as the proxy: the strict API headers, answers only to
 * this machine's names on a loopback portal (the journal holds what was sent), the rate limit.
 */
const routes: FastifyPluginAsync<JournalRoutesOptions> = async (app, { config, upstreams }) => {
  const { journal } = app;
  // The journal holds every call's bodies: QA's and admins'.
  await registerApiGuards(app, config, 'qa');

  const api = withRouteSchemas(app);

  const status: JournalStatus = {
    enabled: journal !== null,
    retentionDays: Math.round(config.journal.retentionMs / (24 * 60 * 60 * 1000)),
    maxMb: Math.round(config.journal.maxBytes / (1024 * 1024)),
    bodyLimitKb: Math.round(config.journal.bodyLimitBytes / 1024),
  };
  api.get(
    '/status',
    {
      config: { pageHeaders: false },
      schema: { response: { 200: responseSchema(journalStatusSchema) } },
    },
    async () => status,
  );

  async function reader(): Promise<JournalReader> {
    if (journal === null) {
      throw new ApiError(
        'not_found',
        'The call journal is off on this portal (JOURNAL=off), so no calls are recorded. Ask the administrator to set JOURNAL=on.',
      );
    }
    return journal.reader();
  }

  /** The default connection's calls include those recorded before connections had names. */
  const withUnnamed = (filter: JournalFilter): JournalFilter =>
    filter.connection === config.defaultConnection
      ? { ...filter, connectionOrUnnamed: true }
      : filter;

  api.get(
    '/',
    {
      config: { pageHeaders: false },
      schema: {
        querystring: querySchema(journalListQuerySchema, 'The journal'),
        response: { 200: responseSchema(journalPageSchema) },
      },
    },
    async (request) => {
      const { cursor, limit, ...asked } = request.query;
      const filter = withUnnamed(asked);
      const size = limit ?? journalPageSize.default;
      const store = await reader();
      return searching(() =>
        newestPage((page) => store.list(filter, page), cursorAfter, cursor ?? null, size),
      );
    },
  );

  api.get(
    '/export',
    {
      config: { pageHeaders: false },
      schema: { querystring: querySchema(journalExportQuerySchema, 'The journal') },
    },
    async (request, reply) => {
      const { format = 'har', ...asked } = request.query;
      const filter = withUnnamed(asked);
      const store = await reader();
      const chunks = await searching(() =>
        exportChunks(store, filter, format, `${request.protocol}://${request.host}`),
      );
      return sendDownload(
        reply,
        {
          name: 'vms-calls',
          format,
          contentType:
            format === 'har'
              ? 'application/json; charset=utf-8'
              : 'application/x-ndjson; charset=utf-8',
        },
        chunks,
      );
    },
  );

  api.get(
    '/:id',
    {
      config: { pageHeaders: false },
      schema: { params: entryParams, response: { 200: responseSchema(journalDetailSchema) } },
    },
    async (request) => {
      const { id } = request.params;
      const store = await reader();
      const entry = await store.get(id);
      if (!entry) throw missing(id);
      return {
        ...entry,
        related: entry.batchId === null ? [] : await store.sameBatch(entry.batchId, id),
        replays: await store.replaysOf(id),
      };
    },
  );

  api.get(
    '/:id/curl',
    {
      config: { pageHeaders: false },
      schema: { params: entryParams, response: { 200: responseSchema(journalCurlSchema) } },
    },
    async (request) => {
      const { id } = request.params;
      const entry = await (await reader()).get(id);
      if (!entry) throw missing(id);
      if (entry.operation === null) {
        throw new ApiError(
          'not_found',
          `Call ${id} was to ${entry.path.split('?')[0]}, which is no VMS operation, so there is no call to the VMS to copy.`,
        );
      }
      const connection = upstreams.named(entry.connection);
      const base = connection ? upstreams.urlOf(connection) : null;
      if (base === null) {
        throw new ApiError(
          'not_found',
          `Call ${id} went to the connection "${entry.connection ?? ''}", which this portal no longer has, so there is no address to copy.`,
        );
      }
      return curlFor(entry, entry.operation, base, connection?.profile ?? null);
    },
  );
};

export const journalRoutes = fp(routes, {
  name: 'journal-routes',
  fastify: '5.x',
  encapsulate: true,
  dependencies: ['journal'],
});
