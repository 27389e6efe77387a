import {
  notificationColumns,
  toStoredNotification,
  type NotificationRow,
  type NotificationStore,
} from '@/server/notifications/store/notification-store';
import type { PortalPool } from '@/server/store/postgres/pool';

/** The notifications in PostgreSQL, shared by every portal process. */
export function createPostgresNotificationStore(pool: PortalPool): NotificationStore {
  return {
    async add({ userId, kind, title, link, about, at }) {
      const result = await pool.query(
        `INSERT INTO notifications (user_id, kind, title, link, about, created_at)
         VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT (about) DO NOTHING`,
        [userId, kind, title, link, about, at],
      );
      return result.rowCount === 1;
    },
    async list(userId, limit, before = Number.MAX_SAFE_INTEGER) {
      const { rows } = await pool.query<NotificationRow>(
        `SELECT ${notificationColumns} FROM notifications
         WHERE user_id IS NOT DISTINCT FROM $1 AND id < $2 ORDER BY id DESC LIMIT $3`,
        [userId, before, limit],
      );
      return rows.map(toStoredNotification);
    },
    async unread(userId) {
      const { rows } = await pool.query<{ count: string }>(
        `SELECT count(*) AS count FROM notifications
         WHERE user_id IS NOT DISTINCT FROM $1 AND read_at IS NULL`,
        [userId],
      );
      return Number(rows[0]?.count ?? 0);
    },
    async markRead(userId, ids, at) {
      const result =
        ids === 'all'
          ? await pool.query(
              `UPDATE notifications SET read_at = $1
               WHERE user_id IS NOT DISTINCT FROM $2 AND read_at IS NULL`,
              [at, userId],
            )
          : await pool.query(
              `UPDATE notifications SET read_at = $1
               WHERE user_id IS NOT DISTINCT FROM $2 AND read_at IS NULL AND id = ANY($3::bigint[])`,
              [at, userId, ids],
            );
      return result.rowCount ?? 0;
    },
    async prune(before) {
      const result = await pool.query('DELETE FROM notifications WHERE created_at < $1', [before]);
      return result.rowCount ?? 0;
    },
  };
}
