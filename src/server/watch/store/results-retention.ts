import { deletingRetention } from '@/server/store/retention';

/**
 * The watch's kept results (RESULTS_RETENTION_DAYS, decision 060): a batch the watch is done with
 * (settled or given up) goes whole once it ended before the cutoff, with the rows and the body
 * the VMS answered, which name candidates. A batch still watched is never pruned, however old.
 */
export const resultsRetention = deletingRetention({
  table: 'batch_watches',
  old: (cutoff) => `state <> 'watching' AND coalesce(finished_at, accepted_at) < ${cutoff}`,
  postgresKey: 'connection, batch_id',
});
