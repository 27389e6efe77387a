import {
  sentAfterBackupRows,
  sentAfterBackupSql,
  toKeyRecord,
  type IdempotencyKeyStore,
  type KeyRecord,
  type KeyRow,
} from '@/server/proxy/store/idempotency-keys';
import type { PortalPool } from '@/server/store/postgres/pool';

/**
 * The PostgreSQL store of idempotency keys: the same statements as the SQLite one. The insert's
 * `ON CONFLICT DO NOTHING` is what makes a key claimed by exactly one process of several.
 */
export function createPostgresIdempotencyKeyStore(pool: PortalPool): IdempotencyKeyStore {
  const count = async (sql: string, values: unknown[]) =>
    (await pool.query(sql, values)).rowCount ?? 0;
  return {
    async insertInFlight(key, fingerprint, now) {
      return (
        (await count(
          `INSERT INTO idempotency_keys (key, fingerprint, state, created_at)
           VALUES ($1, $2, 'in_flight', $3) ON CONFLICT (key) DO NOTHING`,
          [key, fingerprint, now],
        )) === 1
      );
    },
    async find(key): Promise<KeyRecord | undefined> {
      const { rows } = await pool.query<KeyRow>(
        'SELECT fingerprint, state, created_at, status, headers, body FROM idempotency_keys WHERE key = $1',
        [key],
      );
      const row = rows[0];
      return row ? toKeyRecord(row) : undefined;
    },
    async settle(key, outcome, now) {
      await pool.query(
        `UPDATE idempotency_keys SET state = 'settled', settled_at = $1, status = $2, headers = $3,
           body = $4 WHERE key = $5`,
        [now, outcome.status, JSON.stringify(outcome.headers), outcome.body, key],
      );
    },
    async markUnknown(key, now) {
      return (
        (await count(
          `UPDATE idempotency_keys SET state = 'unknown', settled_at = $1
           WHERE key = $2 AND state = 'in_flight'`,
          [now, key],
        )) === 1
      );
    },
    async forget(key) {
      await pool.query('DELETE FROM idempotency_keys WHERE key = $1', [key]);
    },
    async markInFlightUnknown(now, createdUpTo) {
      return count(
        `UPDATE idempotency_keys SET state = 'unknown', settled_at = $1
         WHERE state = 'in_flight' AND created_at <= $2`,
        [now, createdUpTo],
      );
    },
    async purgeCreatedUpTo(cutoff) {
      return count('DELETE FROM idempotency_keys WHERE created_at <= $1', [cutoff]);
    },
    async listSentAfterBackup() {
      return sentAfterBackupRows(
        (await pool.query<{ body: Buffer | null }>(sentAfterBackupSql)).rows,
      );
    },
  };
}
