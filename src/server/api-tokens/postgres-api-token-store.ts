import type { PortalPool } from '@/server/store/postgres/pool';
import {
  apiTokenColumns,
  apiTokenValues,
  toStoredApiToken,
  type ApiTokenRow,
  type ApiTokenStore,
} from './api-token-store';

/** Personal API tokens in PostgreSQL: one made through one process works on every other. */
export function createPostgresApiTokenStore(pool: PortalPool): ApiTokenStore {
  const rows = async (sql: string, values: unknown[] = []) =>
    (await pool.query<ApiTokenRow>(sql, values)).rows.map(toStoredApiToken);
  return {
    async create(tokenHash, token) {
      await pool.query(
        `INSERT INTO api_tokens (id, token_hash, user_id, name, scope, created_at, expires_at,
           last_used_at, revoked_at, revoked_by)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`,
        apiTokenValues(tokenHash, token),
      );
    },
    async byHash(tokenHash) {
      return (
        await rows(`SELECT ${apiTokenColumns} FROM api_tokens WHERE token_hash = $1`, [tokenHash])
      )[0];
    },
    async byId(id) {
      return (await rows(`SELECT ${apiTokenColumns} FROM api_tokens WHERE id = $1`, [id]))[0];
    },
    listForUser: (userId) =>
      rows(
        `SELECT ${apiTokenColumns} FROM api_tokens WHERE user_id = $1 ORDER BY created_at DESC, id`,
        [userId],
      ),
    listAll: () => rows(`SELECT ${apiTokenColumns} FROM api_tokens ORDER BY created_at DESC, id`),
    async revoke(id, at, by) {
      const result = await pool.query(
        'UPDATE api_tokens SET revoked_at = $1, revoked_by = $2 WHERE id = $3 AND revoked_at IS NULL',
        [at, by, id],
      );
      return result.rowCount === 1;
    },
    async touch(id, at) {
      await pool.query(
        'UPDATE api_tokens SET last_used_at = greatest(last_used_at, $1) WHERE id = $2',
        [at, id],
      );
    },
    async purgeEndedBefore(cutoff) {
      return (
        (
          await pool.query('DELETE FROM api_tokens WHERE expires_at < $1 OR revoked_at < $1', [
            cutoff,
          ])
        ).rowCount ?? 0
      );
    },
  };
}
