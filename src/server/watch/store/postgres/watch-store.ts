import type { PortalPool } from '@/server/store/postgres/pool';
import {
  insertColumns,
  newWatchValues,
  outcomeValues,
  toStoredWatch,
  watchColumns,
  type WatchRow,
  type WatchStore,
} from '@/server/watch/store/watch-store';

/** The watches in PostgreSQL: every portal process sharing the database sees the same ones. */
export function createPostgresWatchStore(pool: PortalPool): WatchStore {
  const rows = async (sql: string, values: unknown[] = []) =>
    (await pool.query<WatchRow>(sql, values)).rows.map(toStoredWatch);
  return {
    async record(watch) {
      const result = await pool.query(
        `INSERT INTO batch_watches (${insertColumns})
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13)
         ON CONFLICT (connection, batch_id) DO NOTHING`,
        newWatchValues(watch),
      );
      return result.rowCount === 1;
    },
    due: (now, limit) =>
      rows(
        `SELECT ${watchColumns} FROM batch_watches
         WHERE state = 'watching' AND next_at <= $1
           AND (claimed_until IS NULL OR claimed_until < $1)
         ORDER BY next_at LIMIT $2`,
        [now, limit],
      ),
    async nextDueAt() {
      const { rows: found } = await pool.query<{ next: number | null }>(
        `SELECT min(next_at) AS next FROM batch_watches WHERE state = 'watching'`,
      );
      const next = found[0]?.next ?? null;
      return next === null ? null : Number(next);
    },
    async watching() {
      const { rows: found } = await pool.query<{ count: string }>(
        `SELECT count(*) AS count FROM batch_watches WHERE state = 'watching'`,
      );
      return Number(found[0]?.count ?? 0);
    },
    async claim(connection, batchId, owner, until, now) {
      // One statement: PostgreSQL re-checks the condition on the row it locked, so of two
      // processes claiming together exactly one gets a row back.
      const result = await pool.query(
        `UPDATE batch_watches SET claimed_by = $1, claimed_until = $2
         WHERE connection = $3 AND batch_id = $4 AND state = 'watching'
           AND (claimed_until IS NULL OR claimed_until < $5)`,
        [owner, until, connection, batchId, now],
      );
      return result.rowCount === 1;
    },
    async checked(connection, batchId, owner, outcome) {
      await pool.query(
        `UPDATE batch_watches SET state = $1, next_at = $2, last_checked_at = $3, last_status = $4,
           last_problem = $5, finished_at = $6,
           results_rows = coalesce($7, results_rows), results_body = coalesce($8, results_body),
           results_at = coalesce($9, results_at),
           attempts = attempts + 1, claimed_by = NULL, claimed_until = NULL
         WHERE connection = $10 AND batch_id = $11 AND claimed_by = $12`,
        [...outcomeValues(outcome), connection, batchId, owner],
      );
    },
    async releaseLeases() {
      await pool.query(
        'UPDATE batch_watches SET claimed_by = NULL, claimed_until = NULL WHERE claimed_by IS NOT NULL',
      );
    },
    async releaseOwn(owner) {
      await pool.query(
        'UPDATE batch_watches SET claimed_by = NULL, claimed_until = NULL WHERE claimed_by = $1',
        [owner],
      );
    },
    byBatch: (batchId) =>
      rows(
        `SELECT ${watchColumns} FROM batch_watches WHERE batch_id = $1 ORDER BY accepted_at DESC`,
        [batchId],
      ),
  };
}
