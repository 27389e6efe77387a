import type { UserRecordPut, UserRecordStore } from '@/server/accounts/store/user-records';
import {
  conflictOf,
  toRecord,
  writtenRow,
  type RecordRow,
} from '@/server/accounts/store/user-records';
import { inTransaction, type PortalPool } from '@/server/store/postgres/pool';

/**
 * Each user's synced records in PostgreSQL. A write takes a transaction-scoped advisory lock on
 * the user's collection, so two processes writing for the same user number their changes one
 * after the other (the versions are the collection's change numbers, unique per collection).
 */
export function createPostgresUserRecordStore(pool: PortalPool): UserRecordStore {
  return {
    async changedSince(userId, collection, since, limit) {
      const { rows } = await pool.query<RecordRow>(
        `SELECT key, version, value, deleted, updated_at FROM user_records
         WHERE user_id = $1 AND collection = $2 AND version > $3 ORDER BY version LIMIT $4`,
        [userId, collection, since, limit],
      );
      const version = await pool.query<{ version: number | null }>(
        'SELECT max(version) AS version FROM user_records WHERE user_id = $1 AND collection = $2',
        [userId, collection],
      );
      return { records: rows.map(toRecord), version: version.rows[0]?.version ?? 0 };
    },
    async usage(userId, except) {
      const { rows } = await pool.query<{ records: number; bytes: number }>(
        `SELECT count(*) FILTER (WHERE deleted = 0)::bigint AS records,
           coalesce(sum(octet_length(key) + coalesce(octet_length(value), 0)), 0)::bigint AS bytes
         FROM user_records WHERE user_id = $1 AND NOT (collection = $2 AND key = $3)`,
        [userId, except.collection, except.key],
      );
      return { records: Number(rows[0]?.records ?? 0), bytes: Number(rows[0]?.bytes ?? 0) };
    },
    async put(userId, collection, key, write, now): Promise<UserRecordPut> {
      return inTransaction(pool, async (client) => {
        await client.query('SELECT pg_advisory_xact_lock(hashtextextended($1, 0))', [
          `user_records ${userId} ${collection}`,
        ]);
        const { rows } = await client.query<RecordRow>(
          `SELECT key, version, value, deleted, updated_at FROM user_records
           WHERE user_id = $1 AND collection = $2 AND key = $3`,
          [userId, collection, key],
        );
        const conflict = conflictOf(key, rows[0], write.baseVersion);
        if (conflict) return conflict;
        const latest = await client.query<{ version: number | null }>(
          'SELECT max(version) AS version FROM user_records WHERE user_id = $1 AND collection = $2',
          [userId, collection],
        );
        const version = (latest.rows[0]?.version ?? 0) + 1;
        const row = writtenRow(key, version, write, now);
        await client.query(
          `INSERT INTO user_records (user_id, collection, key, version, value, deleted, updated_at)
           VALUES ($1, $2, $3, $4, $5, $6, $7)
           ON CONFLICT (user_id, collection, key) DO UPDATE SET
             version = excluded.version, value = excluded.value, deleted = excluded.deleted,
             updated_at = excluded.updated_at`,
          [userId, collection, key, version, row.value, row.deleted, now],
        );
        return { kind: 'stored', record: toRecord(row) };
      });
    },
  };
}
