import type { ConcernSchema } from '@/server/store/migrations';
import type { PortalSqlite } from '@/server/store/portal-database';

/**
 * Schema version 11 (decision 037): personal API tokens. A token is known only by the SHA-256 of
 * the whole token (`token_hash`): it is 256 random bits, so the digest checks one as well as the
 * token would and is useless to whoever reads the file. `id` is a public handle, for the lists and
 * for revoking; `revoked_by` is the user who revoked it (its owner, or an admin). Rows stay after a
 * token ends, so that its next use can say when it was revoked or expired; they go 90 days later.
 * `scope` has no CHECK: a later release may add a scope without rebuilding the table, and the
 * store reads a scope it does not know as the narrowest.
 */
function createApiTokensTable(db: PortalSqlite): void {
  db.exec(`
    CREATE TABLE api_tokens (
      id TEXT PRIMARY KEY,
      token_hash BLOB NOT NULL UNIQUE,
      user_id TEXT NOT NULL,
      name TEXT NOT NULL,
      scope TEXT NOT NULL,
      created_at INTEGER NOT NULL,
      expires_at INTEGER NOT NULL,
      last_used_at INTEGER,
      revoked_at INTEGER,
      revoked_by TEXT
    );
    CREATE INDEX api_tokens_user ON api_tokens (user_id, created_at);
  `);
}

/** The same table in PostgreSQL (createApiTokensTable). */
const postgresApiTokensTable = `
  CREATE TABLE api_tokens (
    id TEXT PRIMARY KEY,
    token_hash BYTEA NOT NULL UNIQUE,
    user_id TEXT NOT NULL,
    name TEXT NOT NULL,
    scope TEXT NOT NULL,
    created_at BIGINT NOT NULL,
    expires_at BIGINT NOT NULL,
    last_used_at BIGINT,
    revoked_at BIGINT,
    revoked_by TEXT
  );
  CREATE INDEX api_tokens_user ON api_tokens (user_id, created_at);
`;

/** The API tokens' step of the portal's schema (decision 047). */
export const apiTokensSchema: ConcernSchema = {
  concern: 'api-tokens',
  steps: [
    {
      version: 11,
      name: 'personal API tokens',
      sqlite: createApiTokensTable,
      postgres: postgresApiTokensTable,
    },
  ],
};
