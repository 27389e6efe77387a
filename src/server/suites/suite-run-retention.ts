import type { PortalSqlite } from '@/server/store/portal-database';
import type { PortalPool } from '@/server/store/postgres/pool';
import type { RetentionStore } from '@/server/store/retention';

/*
 * Suite runs (SUITE_RUN_RETENTION_DAYS, decision 060): a run that ended (finished or interrupted)
 * before the cutoff goes, with each case's result, which holds what was sent and answered. A run
 * still going is never pruned. The journal's calls of a run keep their run id; the journal's own
 * retention, shorter by default, prunes them.
 */

export function createSuiteRunRetention(db: PortalSqlite): RetentionStore {
  const prune = db.prepare<[number, number]>(
    `DELETE FROM suite_runs WHERE id IN (
       SELECT id FROM suite_runs
       WHERE status <> 'running' AND coalesce(finished_at, started_at) < ? ORDER BY id LIMIT ?)`,
  );
  return {
    async pruneBefore(cutoff, limit) {
      return prune.run(cutoff, limit).changes;
    },
  };
}

/** Rows another process is pruning are skipped, not waited for, and counted by that process. */
export function createPostgresSuiteRunRetention(pool: PortalPool): RetentionStore {
  return {
    async pruneBefore(cutoff, limit) {
      const { rowCount } = await pool.query(
        `DELETE FROM suite_runs WHERE id IN (
           SELECT id FROM suite_runs
           WHERE status <> 'running' AND coalesce(finished_at, started_at) < $1
           ORDER BY id LIMIT $2 FOR UPDATE SKIP LOCKED)`,
        [cutoff, limit],
      );
      return rowCount ?? 0;
    },
  };
}
