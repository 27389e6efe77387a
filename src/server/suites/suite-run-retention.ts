import { deletingRetention } from '@/server/store/retention';

/**
 * Suite runs (SUITE_RUN_RETENTION_DAYS, decision 060): a run that ended (finished or interrupted)
 * before the cutoff goes, with each case's result, which holds what was sent and answered. A run
 * still going is never pruned. The journal's calls of a run keep their run id; the journal's own
 * retention, shorter by default, prunes them.
 */
export const suiteRunRetention = deletingRetention({
  table: 'suite_runs',
  old: (cutoff) => `status <> 'running' AND coalesce(finished_at, started_at) < ${cutoff}`,
  postgresKey: 'id',
});
