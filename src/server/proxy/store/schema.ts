import type { ConcernSchema } from '@/server/store/migrations';
import type { PortalSqlite } from '@/server/store/portal-database';

/** Schema version 1: the idempotency keys' table (decision 002). */
function createIdempotencyKeysTable(db: PortalSqlite): void {
  db.exec(`
      CREATE TABLE idempotency_keys (
        key TEXT PRIMARY KEY,
        fingerprint TEXT NOT NULL,
        state TEXT NOT NULL CHECK (state IN ('in_flight', 'settled', 'unknown')),
        created_at INTEGER NOT NULL,
        settled_at INTEGER,
        status INTEGER,
        headers TEXT,
        body BLOB
      );
      CREATE INDEX idempotency_keys_created_at ON idempotency_keys (created_at);
    `);
}

/** Version 1: idempotency keys (decision 002). */
const postgresIdempotencyKeys = `
  CREATE TABLE idempotency_keys (
    key TEXT PRIMARY KEY,
    fingerprint TEXT NOT NULL,
    state TEXT NOT NULL CHECK (state IN ('in_flight', 'settled', 'unknown')),
    created_at BIGINT NOT NULL,
    settled_at BIGINT,
    status INTEGER,
    headers TEXT,
    body BYTEA
  );
  CREATE INDEX idempotency_keys_created_at ON idempotency_keys (created_at);
`;

/** The proxy's step of the portal's schema (decision 047). */
export const proxySchema: ConcernSchema = {
  concern: 'proxy',
  steps: [
    {
      version: 1,
      name: 'idempotency keys',
      sqlite: createIdempotencyKeysTable,
      postgres: postgresIdempotencyKeys,
    },
  ],
};
