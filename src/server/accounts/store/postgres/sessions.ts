import {
  toSession,
  type SessionRow,
  type SessionStore,
  type StoredSession,
} from '@/server/accounts/store/sessions';
import type { PortalPool } from '@/server/store/postgres/pool';

/** Sessions in PostgreSQL: one made by one process is valid on every other. */
export function createPostgresSessionStore(pool: PortalPool): SessionStore {
  return {
    async create(idHash, session) {
      await pool.query(
        `INSERT INTO sessions (id_hash, user_id, csrf_token, created_at, last_seen_at)
         VALUES ($1, $2, $3, $4, $5)`,
        [idHash, session.userId, session.csrfToken, session.createdAt, session.lastSeenAt],
      );
    },
    async find(idHash): Promise<StoredSession | undefined> {
      const { rows } = await pool.query<SessionRow>(
        'SELECT user_id, csrf_token, created_at, last_seen_at FROM sessions WHERE id_hash = $1',
        [idHash],
      );
      const row = rows[0];
      return row ? toSession(row) : undefined;
    },
    async touch(idHash, at) {
      await pool.query(
        'UPDATE sessions SET last_seen_at = greatest(last_seen_at, $1) WHERE id_hash = $2',
        [at, idHash],
      );
    },
    async delete(idHash) {
      await pool.query('DELETE FROM sessions WHERE id_hash = $1', [idHash]);
    },
    async deleteForUser(userId) {
      return (await pool.query('DELETE FROM sessions WHERE user_id = $1', [userId])).rowCount ?? 0;
    },
    async purgeExpired(idleCutoff, createdCutoff) {
      return (
        (
          await pool.query('DELETE FROM sessions WHERE last_seen_at <= $1 OR created_at <= $2', [
            idleCutoff,
            createdCutoff,
          ])
        ).rowCount ?? 0
      );
    },
  };
}
