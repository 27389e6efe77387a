import type { NotificationKind } from '@/domain/notifications';
import { notificationKinds } from '@/domain/notifications';
import type { PortalSqlite } from '@/server/store/portal-database';

/** A notification to add. */
export interface NewNotification {
  /** Whom it is for; null: the portal's own, with sign-in off. */
  userId: string | null;
  kind: NotificationKind;
  title: string;
  link: string;
  /** What it is about, once: a second notification about the same thing is not added. */
  about: string;
  at: number;
}

export interface StoredNotification {
  id: number;
  kind: NotificationKind;
  title: string;
  link: string;
  createdAt: number;
  readAt: number | null;
}

/** The notifications, asynchronous so that the PostgreSQL store implements the same. */
export interface NotificationStore {
  /** Adds one; false when one about the same thing exists already. */
  add(notification: NewNotification): Promise<boolean>;
  /** A user's newest first, at most `limit`, older than `before` (an id) when given. */
  list(userId: string | null, limit: number, before?: number): Promise<StoredNotification[]>;
  unread(userId: string | null): Promise<number>;
  /** Marks the user's given notifications (or all of them) read; how many were unread. */
  markRead(userId: string | null, ids: readonly number[] | 'all', at: number): Promise<number>;
  /** Removes those made before `before`; how many. */
  prune(before: number): Promise<number>;
}

export interface NotificationRow {
  id: number;
  kind: string;
  title: string;
  link: string;
  created_at: number;
  read_at: number | null;
}

export const notificationColumns = 'id, kind, title, link, created_at, read_at';

export function toStoredNotification(row: NotificationRow): StoredNotification {
  return {
    id: Number(row.id),
    // Written through this store; a kind a later release adds reads as the nearest it knows.
    kind: notificationKinds.find((kind) => kind === row.kind) ?? 'batch.settled',
    title: row.title,
    link: row.link,
    createdAt: Number(row.created_at),
    readAt: row.read_at === null ? null : Number(row.read_at),
  };
}

/** The notifications in the portal's SQLite file. */
export function createNotificationStore(db: PortalSqlite): NotificationStore {
  // `IS ?` matches NULL to NULL in SQLite: the portal's own notifications have no user.
  const statements = {
    add: db.prepare(
      `INSERT INTO notifications (user_id, kind, title, link, about, created_at)
       VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (about) DO NOTHING`,
    ),
    list: db.prepare<[string | null, number, number], NotificationRow>(
      `SELECT ${notificationColumns} FROM notifications WHERE user_id IS ? AND id < ?
       ORDER BY id DESC LIMIT ?`,
    ),
    unread: db.prepare<[string | null], { count: number }>(
      'SELECT count(*) AS count FROM notifications WHERE user_id IS ? AND read_at IS NULL',
    ),
    readSome: db.prepare<[number, string | null, string]>(
      `UPDATE notifications SET read_at = ? WHERE user_id IS ? AND read_at IS NULL
         AND id IN (SELECT value FROM json_each(?))`,
    ),
    readAll: db.prepare<[number, string | null]>(
      'UPDATE notifications SET read_at = ? WHERE user_id IS ? AND read_at IS NULL',
    ),
    prune: db.prepare<[number]>('DELETE FROM notifications WHERE created_at < ?'),
  };
  return {
    async add(notification) {
      const { userId, kind, title, link, about, at } = notification;
      return statements.add.run(userId, kind, title, link, about, at).changes === 1;
    },
    async list(userId, limit, before = Number.MAX_SAFE_INTEGER) {
      return statements.list.all(userId, before, limit).map(toStoredNotification);
    },
    async unread(userId) {
      return statements.unread.get(userId)?.count ?? 0;
    },
    async markRead(userId, ids, at) {
      const result =
        ids === 'all'
          ? statements.readAll.run(at, userId)
          : statements.readSome.run(at, userId, JSON.stringify(ids));
      return result.changes;
    },
    async prune(before) {
      return statements.prune.run(before).changes;
    },
  };
}
