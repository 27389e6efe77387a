import type { ConcernSchema } from '@/server/store/migrations';
import type { PortalSqlite } from '@/server/store/portal-database';

/**
 * Schema version 15: the notifications in the app. `user_id` is whom it is for (null: the
 * portal's own, with sign-in off); `about` names what it is about once (`batch.settled:<connection>:
 * <batch id>`), unique, so that telling of the same thing again (a check repeated after a crash,
 * a second process) adds nothing.
 */
function createNotificationsTable(db: PortalSqlite): void {
  db.exec(`
    CREATE TABLE notifications (
      id INTEGER PRIMARY KEY,
      user_id TEXT,
      kind TEXT NOT NULL,
      title TEXT NOT NULL,
      link TEXT NOT NULL,
      about TEXT NOT NULL UNIQUE,
      created_at INTEGER NOT NULL,
      read_at INTEGER
    );
    CREATE INDEX notifications_user ON notifications (user_id, id);
    CREATE INDEX notifications_created ON notifications (created_at);
  `);
}

/** The same table in PostgreSQL (createNotificationsTable). */
const postgresNotificationsTable = `
  CREATE TABLE notifications (
    id BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    user_id TEXT,
    kind TEXT NOT NULL,
    title TEXT NOT NULL,
    link TEXT NOT NULL,
    about TEXT NOT NULL UNIQUE,
    created_at BIGINT NOT NULL,
    read_at BIGINT
  );
  CREATE INDEX notifications_user ON notifications (user_id, id);
  CREATE INDEX notifications_created ON notifications (created_at);
`;

/** The notifications' step of the portal's schema (decision 047). */
export const notificationsSchema: ConcernSchema = {
  concern: 'notifications',
  steps: [
    {
      version: 15,
      name: 'notifications',
      sqlite: createNotificationsTable,
      postgres: postgresNotificationsTable,
    },
  ],
};
