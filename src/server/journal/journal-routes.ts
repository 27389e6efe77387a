import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
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
  journalRevealedExportRequestSchema,
  journalRevealRequestSchema,
  journalRevealSchema,
  journalStatusSchema,
  type JournalCurl,
  type JournalEntry,
  type JournalExportFormat,
  type JournalFilter,
  type JournalStatus,
  type JournalSummary,
} from '@/domain/journal';
import type { Connection, PortalConfig } from '@/server/config';
import { registerApiGuards } from '@/server/http/api-guards';
import { newestPage, sendDownload } from '@/server/http/entry-pages';
import { acceptJsonOnly } from '@/server/http/json-body';
import { requireUser } from '@/server/http/require-user';
import {
  bodySchema,
  partSchema,
  querySchema,
  responseSchema,
  withRouteSchemas,
} from '@/server/http/route-schemas';
import { curlFor } from './curl';
import { exportChunks } from './journal-export';
import {
  entryFor,
  exportFilterText,
  maskedCopies,
  mayReveal,
  onlyOwnCalls,
  revealInAddress,
  sentByViewer,
  summaryFor,
  viewerOf,
  type JournalViewer,
} from './journal-personal';
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
 * and Copy as cURL. Same guards as the proxy: the strict API headers, answers only to
 * this machine's names on a loopback portal (the journal holds what was sent), the rate limit.
 * Personal values leave masked (decision 058): a call is in full to whoever sent it, and to QA or
 * an admin who reveals it giving a reason (the one route that writes: to the audit trail). A
 * recruiter's journal is their own calls only, so their search tells nothing of anyone else's.
 */
const routes: FastifyPluginAsync<JournalRoutesOptions> = async (app, { config, upstreams }) => {
  const { journal } = app;
  await registerApiGuards(app, config, 'recruiter');
  acceptJsonOnly(app);

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

  /**
   * The default connection's calls include those recorded before connections had names; a
   * recruiter's are their own.
   */
  const scoped = (filter: JournalFilter, viewer: JournalViewer): JournalFilter => {
    const own = onlyOwnCalls(viewer);
    return {
      ...filter,
      ...(filter.connection === config.defaultConnection ? { connectionOrUnnamed: true } : {}),
      ...(own === undefined ? {} : { sentByUser: own }),
    };
  };

  /** Summaries the viewer may see (a recruiter, only their own), addresses masked but their own. */
  const visible = (summaries: JournalSummary[], viewer: JournalViewer): JournalSummary[] =>
    summaries
      .filter((summary) => onlyOwnCalls(viewer) === undefined || sentByViewer(summary, viewer))
      .map((summary) => summaryFor(summary, viewer));

  /** The call, if the viewer may see it at all: one a recruiter did not send is not there for them. */
  async function entryOf(id: number, viewer: JournalViewer): Promise<JournalEntry> {
    const entry = await (await reader()).get(id);
    if (!entry || (onlyOwnCalls(viewer) !== undefined && !sentByViewer(entry, viewer))) {
      throw missing(id);
    }
    return entry;
  }

  /** Its copies as cURL, PowerShell and Node, or why there are none. */
  function copiesOf(id: number, entry: JournalEntry): JournalCurl | ApiError {
    if (entry.operation === null) {
      return new ApiError(
        'not_found',
        `Call ${id} was to ${entry.path.split('?')[0]}, which is no VMS operation, so there is no call to the VMS to copy.`,
      );
    }
    const connection = upstreams.named(entry.connection);
    const base = connection ? upstreams.urlOf(connection) : null;
    if (base === null) {
      return new ApiError(
        'not_found',
        `Call ${id} went to the connection "${entry.connection ?? ''}", which this portal no longer has, so there is no address to copy.`,
      );
    }
    return curlFor(entry, entry.operation, base, connection?.profile ?? null);
  }

  /** Who may reveal: QA and admins; a recruiter is told so. */
  function revealer(request: FastifyRequest): JournalViewer {
    requireUser(request, config, 'qa');
    const viewer = viewerOf(request, config);
    if (!mayReveal(viewer)) {
      throw new ApiError(
        'forbidden',
        'Only QA users and admins may reveal personal data. You see the calls you sent in full.',
      );
    }
    return viewer;
  }

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
      const viewer = viewerOf(request, config);
      const filter = scoped(asked, viewer);
      const size = limit ?? journalPageSize.default;
      const store = await reader();
      const page = await searching(() =>
        newestPage((from) => store.list(filter, from), cursorAfter, cursor ?? null, size),
      );
      return { ...page, entries: page.entries.map((summary) => summaryFor(summary, viewer)) };
    },
  );

  /** The selection as a download, each call as `shown` gives it. */
  async function sendExport(
    request: FastifyRequest,
    reply: FastifyReply,
    format: JournalExportFormat,
    filter: JournalFilter,
    shown: (entry: JournalEntry) => JournalEntry,
  ) {
    const store = await reader();
    const chunks = await searching(() =>
      exportChunks(store, filter, format, `${request.protocol}://${request.host}`, shown),
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
  }

  api.get(
    '/export',
    {
      config: { pageHeaders: false },
      schema: { querystring: querySchema(journalExportQuerySchema, 'The journal') },
    },
    async (request, reply) => {
      const { format = 'har', reveal, ...asked } = request.query;
      if (reveal !== undefined) {
        // Already in this request's access log line; refused so that no client keeps doing it.
        throw new ApiError('invalid_parameter', revealInAddress, [
          { field: 'reveal', message: 'a reason to reveal goes in the body of a POST' },
        ]);
      }
      const viewer = viewerOf(request, config);
      return sendExport(request, reply, format, scoped(asked, viewer), (entry) =>
        entryFor(entry, viewer),
      );
    },
  );

  api.post(
    '/export',
    {
      config: { pageHeaders: false },
      schema: { body: bodySchema(journalRevealedExportRequestSchema) },
    },
    async (request, reply) => {
      const { format = 'har', reason, ...asked } = request.body;
      const viewer = revealer(request);
      const sent = await sendExport(
        request,
        reply,
        format,
        scoped(asked, viewer),
        (entry) => entry,
      );
      app.auditTrail.auth(
        'personal_data_revealed',
        { export: format, filter: exportFilterText(asked), reason },
        request,
      );
      return sent;
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
      const viewer = viewerOf(request, config);
      const entry = await entryOf(id, viewer);
      const own = sentByViewer(entry, viewer);
      return {
        ...(await detailOf(entry, viewer)),
        ...(own ? {} : entryFor(entry, viewer)),
        personalData: own ? ('full' as const) : ('masked' as const),
        mayReveal: !own && mayReveal(viewer),
      };
    },
  );

  /** A call with its batch's other calls and its replays, as the viewer may see them. */
  async function detailOf(entry: JournalEntry, viewer: JournalViewer) {
    const store = await reader();
    return {
      ...entry,
      related: visible(
        entry.batchId === null ? [] : await store.sameBatch(entry.batchId, entry.id),
        viewer,
      ),
      replays: visible(await store.replaysOf(entry.id), viewer),
    };
  }

  api.post(
    '/:id/reveal',
    {
      config: { pageHeaders: false },
      schema: {
        params: entryParams,
        body: bodySchema(journalRevealRequestSchema),
        response: { 200: responseSchema(journalRevealSchema) },
      },
    },
    async (request) => {
      const { id } = request.params;
      const viewer = revealer(request);
      const entry = await entryOf(id, viewer);
      const copies = copiesOf(id, entry);
      app.auditTrail.auth(
        'personal_data_revealed',
        { call: id, reason: request.body.reason },
        request,
      );
      return {
        call: {
          ...(await detailOf(entry, viewer)),
          personalData: 'full' as const,
          mayReveal: false,
        },
        copies: copies instanceof ApiError ? null : copies,
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
      const viewer = viewerOf(request, config);
      const entry = await entryOf(id, viewer);
      if (sentByViewer(entry, viewer)) {
        const copies = copiesOf(id, entry);
        if (copies instanceof ApiError) throw copies;
        return copies;
      }
      const shown = entryFor(entry, viewer);
      const copies = copiesOf(id, shown);
      if (copies instanceof ApiError) throw copies;
      return maskedCopies(copies, shown, entry);
    },
  );
};

export const journalRoutes = fp(routes, {
  name: 'journal-routes',
  fastify: '5.x',
  encapsulate: true,
  dependencies: ['journal'],
});
