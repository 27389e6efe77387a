import type { PortalSqlite } from '@/server/store/portal-database';
import type { PortalPool } from '@/server/store/postgres/pool';
import type { RetentionStore } from '@/server/store/retention';

/*
 * The watch's kept results (RESULTS_RETENTION_DAYS, decision 060): a batch the watch is done with
 * (settled or given up) goes whole once it ended before the cutoff, with the rows and the body
 * the VMS answered, which name candidates. A batch still watched is never pruned, however old.
 */

export function createResultsRetention(db: PortalSqlite): RetentionStore {
  const prune = db.prepare<[number, number]>(
    `DELETE FROM batch_watches WHERE rowid IN (
       SELECT rowid FROM batch_watches
       WHERE state <> 'watching' AND coalesce(finished_at, accepted_at) < ? LIMIT ?)`,
  );
  return {
    async pruneBefore(cutoff, limit) {
      return prune.run(cutoff, limit).changes;
    },
  };
}

/** Rows another process is pruning are skipped, not waited for, and counted by that process. */
export function createPostgresResultsRetention(pool: PortalPool): RetentionStore {
  return {
    async pruneBefore(cutoff, limit) {
      const { rowCount } = await pool.query(
        `DELETE FROM batch_watches WHERE (connection, batch_id) IN (
           SELECT connection, batch_id FROM batch_watches
           WHERE state <> 'watching' AND coalesce(finished_at, accepted_at) < $1
           LIMIT $2 FOR UPDATE SKIP LOCKED)`,
        [cutoff, limit],
      );
      return rowCount ?? 0;
    },
  };
}
