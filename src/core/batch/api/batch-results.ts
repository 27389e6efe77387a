import { queryOptions } from '@tanstack/react-query';
import type { BatchKind, ResultRow } from '@/core/batch/model/batch-kind';
import { resultRowsOf } from '@/core/batch/model/result-fields';
import { isSettled, nextPollDelay } from '@/core/batch/model/results-polling';
import { batchWatchSchema, type BatchWatch } from '@/domain/batch-watch';
import { requestJson, RequestFailure } from '@/shared/api/http';
import type { OrgScope } from '@/shared/api/vms';
import { vmsUrl } from '@/shared/api/vms';

/** What the portal's watch of a batch says of its progress (decision 055). */
export interface WatchProgress {
  state: BatchWatch['state'];
  /** Results calls the watch made: a long poll waits for this to move. */
  checks: number;
  /** Why the last check told nothing, or why the watch ended without settling. */
  problem: string | null;
}

/** A batch's results as the page holds them. */
export interface BatchResultsAnswer {
  /** One row per item; null while the portal's watch has had no answer from the VMS yet. */
  rows: ResultRow[] | null;
  /** The VMS's answer as it came (the Raw tab); null with the rows. */
  raw: string | null;
  /** Read from the portal's watch; null when the page asked the VMS itself (no watch). */
  watch: WatchProgress | null;
  /** Reads that found no watch: after two the page stops looking for one. */
  watchMisses: number;
}

/**
 * A watch is recorded as the proxy answers the send, so the page's first read may come before
 * it; the second read looks again before the page settles on asking the VMS itself.
 */
const watchTries = 2;
/** The long poll's wait (the server's most); the request's timeout leaves room for its answer. */
const waitSeconds = 25;
/** Between two long polls: the server does the waiting, this only keeps a loop from spinning. */
const betweenLongPollsMs = 250;

/** The portal's watch of a batch, or null when it has none the user may read (404). */
async function readWatch(
  batchId: string,
  connection: string | undefined,
  signal: AbortSignal,
  since?: number,
): Promise<BatchWatch | null> {
  const query = new URLSearchParams();
  if (connection !== undefined) query.set('connection', connection);
  if (since !== undefined) {
    query.set('since', String(since));
    query.set('wait', String(waitSeconds));
  }
  const search = query.size > 0 ? `?${query.toString()}` : '';
  try {
    const answer = await requestJson(
      `/api/watches/${encodeURIComponent(batchId)}${search}`,
      batchWatchSchema,
      `Reading the results of batch ${batchId}`,
      { signal, timeoutMs: (waitSeconds + 15) * 1000 },
    );
    return answer.data;
  } catch (error) {
    if (error instanceof RequestFailure && error.status === 404) return null;
    throw error;
  }
}

/** The watch's kept answer read as the page reads the VMS's own, by the kind's row schema. */
function fromWatch(kind: BatchKind, watch: BatchWatch): BatchResultsAnswer {
  const progress = { state: watch.state, checks: watch.checks, problem: watch.problem };
  if (!watch.results) return { rows: null, raw: null, watch: progress, watchMisses: 0 };
  const parsed = resultRowsOf(kind).safeParse(JSON.parse(watch.results.raw));
  if (!parsed.success) {
    throw new RequestFailure(
      'shape',
      `The results the portal kept for batch ${watch.batchId} are not in the shape the portal expects (${parsed.error.issues[0]?.message ?? 'no detail'}). Tell the administrator.`,
    );
  }
  return { rows: parsed.data, raw: watch.results.raw, watch: progress, watchMisses: 0 };
}

/**
 * A batch's results. Where the portal watches the batch (decision 055) they are read from the
 * portal's own store, a long poll telling the page of each check the watch makes, and the
 * browser never asks the VMS. Without a watch (WATCH=off, a batch sent before the watch, one
 * sent by someone else) the page asks the VMS itself as before: GET …results?batchid=, polled
 * while any row is Pending, backing off. Once final the answer never changes and is not read
 * again.
 */
export function batchResultsQueryOptions(
  kind: BatchKind,
  orgs: OrgScope,
  batchId: string,
  connection?: string,
) {
  // The kind's id stands for the kind: its operation and schema are fixed per id.
  // eslint-disable-next-line @tanstack/query/exhaustive-deps
  return queryOptions({
    queryKey: ['batches', kind.id, 'results', orgs, batchId, connection ?? null],
    queryFn: async ({ signal, client, queryKey }): Promise<BatchResultsAnswer> => {
      const held = client.getQueryData<BatchResultsAnswer>(queryKey);
      const misses = held?.watchMisses ?? 0;
      if (misses < watchTries) {
        const since = held?.watch?.state === 'watching' ? held.watch.checks : undefined;
        const watch = await readWatch(batchId, connection, signal, since);
        if (watch) return fromWatch(kind, watch);
      }
      const answer = await requestJson(
        vmsUrl(kind.resultsOperation, orgs, { batchid: batchId }),
        resultRowsOf(kind),
        `Reading the results of batch ${batchId}`,
        { signal },
      );
      return {
        rows: answer.data,
        raw: answer.text,
        watch: null,
        watchMisses: Math.min(watchTries, misses + 1),
      };
    },
    refetchInterval: (query) => {
      const data = query.state.data;
      if (query.state.status === 'error') return false;
      if (data?.watch) return data.watch.state === 'watching' ? betweenLongPollsMs : false;
      return nextPollDelay(data?.rows ?? undefined, query.state.dataUpdateCount);
    },
    staleTime: (query) => (isFinal(query.state.data) ? Number.POSITIVE_INFINITY : 0),
  });
}

/** Nothing more will change: the watch finished, or the VMS's rows are all final. */
function isFinal(data: BatchResultsAnswer | undefined): boolean {
  if (!data) return false;
  if (data.watch) return data.watch.state !== 'watching';
  return data.rows !== null && isSettled(data.rows);
}

/**
 * The portal's watch of a batch read once, without waiting: a closed Submissions card learns
 * whether its batch settled (and how) without asking the VMS. Null where there is no watch.
 */
export function batchWatchQueryOptions(batchId: string, connection?: string) {
  return queryOptions({
    queryKey: ['batches', 'watch', batchId, connection ?? null],
    queryFn: ({ signal }) => readWatch(batchId, connection, signal),
    staleTime: (query) =>
      query.state.data?.state === 'watching' ? 60_000 : Number.POSITIVE_INFINITY,
  });
}
