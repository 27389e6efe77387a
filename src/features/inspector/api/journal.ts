import { infiniteQueryOptions, queryOptions } from '@tanstack/react-query';
import type { JournalListParams } from '@/domain/journal';
import {
  journalCurlSchema,
  journalDetailSchema,
  journalPageSchema,
  journalRevealSchema,
} from '@/domain/journal';
import { cursorPages, queryString } from '@/shared/api/cursor-pages';
import { requestDownload, requestJson } from '@/shared/api/http';
import { currentConnection } from '@/shared/config/current-connection';

/**
 * The portal server's call journal: pages of calls, the latest started first, one call in full,
 * and one call to copy as cURL, PowerShell or Node fetch. The answers are parsed with the schemas
 * the server answers with.
 */
export const journalFilterKeys = [
  'operation',
  'method',
  'status',
  'org',
  'batch',
  'key',
  'trace',
  'run',
  'from',
  'to',
  'q',
] as const satisfies ReadonlyArray<keyof JournalListParams>;

export type JournalFilters = Partial<Record<(typeof journalFilterKeys)[number], string>>;

/**
 * The filters as a query string (empty ones left out), for the calls of the page's connection
 * only: the journal of one VMS is never mixed with another's.
 */
export const filterQuery = (filters: JournalFilters, extra: Record<string, string> = {}): string =>
  queryString({ connection: currentConnection() }, filters, extra);

/** The journal's query keys: every one starts with `all`, which a change to the journal refreshes. */
export const journalKeys = {
  all: ['journal'] as const,
  pages: (filters: JournalFilters) => ['journal', 'pages', filters] as const,
  entry: (id: number) => ['journal', 'entry', id] as const,
};

export function journalPagesQueryOptions(filters: JournalFilters) {
  return infiniteQueryOptions({
    queryKey: journalKeys.pages(filters),
    ...cursorPages(
      (cursor) => `/api/journal?${filterQuery(filters, cursor)}`,
      journalPageSchema,
      'Reading the call journal',
    ),
    // Live while the inspector is open and in view: a call made meanwhile (in another tab, by a
    // colleague, by a script) appears without a click. The pages are read again from the first,
    // each cursor taken from the page just read, so none is skipped or shown twice.
    refetchInterval: journalLiveMs,
  });
}

/** How often an open inspector asks for calls made since. */
export const journalLiveMs = 3000;

export function journalEntryQueryOptions(id: number) {
  return queryOptions({
    queryKey: journalKeys.entry(id),
    queryFn: async ({ signal }) =>
      (
        await requestJson(`/api/journal/${id}`, journalDetailSchema, `Reading call ${id}`, {
          signal,
        })
      ).data,
  });
}

/** A call as cURL (with its signature snippet), PowerShell and Node fetch, made by the server. */
export async function fetchCurl(id: number) {
  return (await requestJson(`/api/journal/${id}/curl`, journalCurlSchema, `Copying call ${id}`))
    .data;
}

/**
 * One call with its personal data, for QA and admins (decision 058): the reason is required and
 * goes to the audit trail; the answer holds the call and its copies in full.
 */
export async function revealCall(id: number, reason: string) {
  return (
    await requestJson(`/api/journal/${id}/reveal`, journalRevealSchema, `Revealing call ${id}`, {
      method: 'POST',
      body: { reason },
    })
  ).data;
}

/**
 * The selection exported with its personal data, for QA and admins (decisions 058, 061): a POST
 * with the reason and the filters in its body, so the reason is in no address (an access log, the
 * browser's history); the answer is the file, read whole and then saved.
 */
export async function fetchRevealedExport(
  filters: JournalFilters,
  format: 'har' | 'jsonl',
  reason: string,
) {
  const given = Object.fromEntries(
    Object.entries(filters).flatMap(([name, value]) => {
      const trimmed = value?.trim();
      return trimmed ? [[name, trimmed]] : [];
    }),
  );
  const connection = currentConnection();
  return requestDownload(
    '/api/journal/export',
    `Exporting the calls with personal data as ${format === 'har' ? 'HAR' : 'JSON Lines'}`,
    `vms-calls.${format}`,
    {
      method: 'POST',
      body: { ...given, ...(connection === null ? {} : { connection }), format, reason },
      // An export of many calls takes longer than one call's answer.
      timeoutMs: 5 * 60_000,
    },
  );
}
