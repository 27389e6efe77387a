import { queryOptions } from '@tanstack/react-query';
import type { BatchKind, ResultRow } from '@/core/batch/model/batch-kind';
import { resultRowsOf } from '@/core/batch/model/result-fields';
import { isSettled, nextPollDelay } from '@/core/batch/model/results-polling';
import { requestJson } from '@/shared/api/http';
import type { OrgScope } from '@/shared/api/vms';
import { vmsUrl } from '@/shared/api/vms';

/** A results answer: its rows, and its body as the VMS sent it (the Raw tab). */
export interface BatchResultsAnswer {
  rows: ResultRow[];
  raw: string;
}

/**
 * GET …results?batchid=: one row per item. Polled while any row is Pending, backing off; once
 * final the answer never changes, so it is not fetched again.
 */
export function batchResultsQueryOptions(kind: BatchKind, orgs: OrgScope, batchId: string) {
  // The kind's id stands for the kind: its operation and schema are fixed per id.
  // eslint-disable-next-line @tanstack/query/exhaustive-deps
  return queryOptions({
    queryKey: ['batches', kind.id, 'results', orgs, batchId],
    queryFn: async ({ signal }): Promise<BatchResultsAnswer> => {
      const answer = await requestJson(
        vmsUrl(kind.resultsOperation, orgs, { batchid: batchId }),
        resultRowsOf(kind),
        `Reading the results of batch ${batchId}`,
        { signal },
      );
      return { rows: answer.data, raw: answer.text };
    },
    refetchInterval: (query) =>
      query.state.status === 'error'
        ? false
        : nextPollDelay(query.state.data?.rows, query.state.dataUpdateCount),
    staleTime: (query) =>
      query.state.data && isSettled(query.state.data.rows) ? Number.POSITIVE_INFINITY : 0,
  });
}
