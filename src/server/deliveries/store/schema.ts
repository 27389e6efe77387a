import type { ConcernSchema } from '@/server/store/migrations';
import type { PortalSqlite } from '@/server/store/portal-database';

/**
 * Schema version 16 (decision 056): notifications that leave the portal.
 *
 * `deliveries` is the outbox of both channels: one row per (notice `about`, channel, target), the
 * target being the user's id for e-mail and the webhook's id for a webhook, unique so that a notice
 * told twice is taken once. `payload` is what is sent, made when the notice was taken (a webhook's
 * body exactly as signed, the e-mail's words). `state` is pending, sent or failed; `next_at` when
 * the next attempt is due; `claimed_by`/`claimed_until` the lease of the attempt in flight, so two
 * processes never send one delivery at once and a dead process's lease runs out.
 *
 * `webhooks` are the addresses admins add, each with its own signing secret; `mail_preferences`
 * each user's e-mail choices per kind (a missing row is on); `delivery_keys` the key that signs
 * unsubscribe links.
 */
function createDeliveryTables(db: PortalSqlite): void {
  db.exec(`
    CREATE TABLE deliveries (
      id INTEGER PRIMARY KEY,
      about TEXT NOT NULL,
      channel TEXT NOT NULL,
      target TEXT NOT NULL,
      kind TEXT NOT NULL,
      title TEXT NOT NULL,
      payload TEXT NOT NULL,
      state TEXT NOT NULL,
      attempts INTEGER NOT NULL,
      next_at INTEGER NOT NULL,
      claimed_by TEXT,
      claimed_until INTEGER,
      last_status INTEGER,
      last_error TEXT,
      created_at INTEGER NOT NULL,
      updated_at INTEGER NOT NULL,
      sent_at INTEGER,
      UNIQUE (about, channel, target)
    );
    CREATE INDEX deliveries_due ON deliveries (state, next_at);
    CREATE INDEX deliveries_updated ON deliveries (updated_at);
    CREATE TABLE webhooks (
      id INTEGER PRIMARY KEY,
      name TEXT NOT NULL,
      url TEXT NOT NULL,
      connection TEXT,
      events TEXT NOT NULL,
      secret TEXT NOT NULL,
      created_at INTEGER NOT NULL,
      updated_at INTEGER NOT NULL
    );
    CREATE TABLE mail_preferences (
      user_id TEXT NOT NULL,
      kind TEXT NOT NULL,
      enabled INTEGER NOT NULL,
      PRIMARY KEY (user_id, kind)
    );
    CREATE TABLE delivery_keys (
      name TEXT PRIMARY KEY,
      secret TEXT NOT NULL
    );
  `);
}

/** The same tables in PostgreSQL (createDeliveryTables). */
const postgresDeliveryTables = `
  CREATE TABLE deliveries (
    id BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    about TEXT NOT NULL,
    channel TEXT NOT NULL,
    target TEXT NOT NULL,
    kind TEXT NOT NULL,
    title TEXT NOT NULL,
    payload TEXT NOT NULL,
    state TEXT NOT NULL,
    attempts INTEGER NOT NULL,
    next_at BIGINT NOT NULL,
    claimed_by TEXT,
    claimed_until BIGINT,
    last_status INTEGER,
    last_error TEXT,
    created_at BIGINT NOT NULL,
    updated_at BIGINT NOT NULL,
    sent_at BIGINT,
    UNIQUE (about, channel, target)
  );
  CREATE INDEX deliveries_due ON deliveries (state, next_at);
  CREATE INDEX deliveries_updated ON deliveries (updated_at);
  CREATE TABLE webhooks (
    id BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    name TEXT NOT NULL,
    url TEXT NOT NULL,
    connection TEXT,
    events TEXT NOT NULL,
    secret TEXT NOT NULL,
    created_at BIGINT NOT NULL,
    updated_at BIGINT NOT NULL
  );
  CREATE TABLE mail_preferences (
    user_id TEXT NOT NULL,
    kind TEXT NOT NULL,
    enabled BOOLEAN NOT NULL,
    PRIMARY KEY (user_id, kind)
  );
  CREATE TABLE delivery_keys (
    name TEXT PRIMARY KEY,
    secret TEXT NOT NULL
  );
`;

/** The deliveries' step of the portal's schema (decision 047). */
export const deliveriesSchema: ConcernSchema = {
  concern: 'deliveries',
  steps: [
    {
      version: 16,
      name: 'deliveries',
      sqlite: createDeliveryTables,
      postgres: postgresDeliveryTables,
    },
  ],
};
