import type { PortalSqlite } from './portal-database';

/**
 * Schema version 3 (decision 026): accounts, their org grants, invites, sessions,
 * failed sign-ins, and each user's synced records.
 *
 * Secrets are stored only as SHA-256 digests: a session id and an invite token are 256-bit random
 * values, so a digest is as good as the value to check one and useless to whoever reads the file.
 * Passwords are argon2id hashes (PHC strings). No foreign keys: users are disabled, never deleted.
 */
export function createAuthTables(db: PortalSqlite): void {
  db.exec(`
    CREATE TABLE users (
      id TEXT PRIMARY KEY,
      email TEXT NOT NULL UNIQUE,
      role TEXT NOT NULL CHECK (role IN ('recruiter', 'qa', 'admin')),
      password_hash TEXT,
      disabled INTEGER NOT NULL DEFAULT 0,
      created_at INTEGER NOT NULL,
      last_sign_in_at INTEGER
    );
    CREATE TABLE user_grants (
      user_id TEXT NOT NULL,
      client_org_id INTEGER NOT NULL,
      PRIMARY KEY (user_id, client_org_id)
    ) WITHOUT ROWID;
    CREATE TABLE invites (
      token_hash BLOB PRIMARY KEY,
      user_id TEXT NOT NULL,
      created_at INTEGER NOT NULL,
      expires_at INTEGER NOT NULL
    );
    CREATE INDEX invites_user ON invites (user_id);
    CREATE TABLE sessions (
      id_hash BLOB PRIMARY KEY,
      user_id TEXT NOT NULL,
      csrf_token TEXT NOT NULL,
      created_at INTEGER NOT NULL,
      last_seen_at INTEGER NOT NULL
    );
    CREATE INDEX sessions_user ON sessions (user_id);
    CREATE TABLE sign_in_failures (
      key TEXT PRIMARY KEY,
      failures INTEGER NOT NULL,
      last_failure_at INTEGER NOT NULL
    );
    CREATE TABLE user_records (
      user_id TEXT NOT NULL,
      collection TEXT NOT NULL,
      key TEXT NOT NULL,
      version INTEGER NOT NULL,
      value TEXT,
      deleted INTEGER NOT NULL,
      updated_at INTEGER NOT NULL,
      PRIMARY KEY (user_id, collection, key)
    );
    CREATE UNIQUE INDEX user_records_version ON user_records (user_id, collection, version);
  `);
}

/**
 * Schema version 5: single sign-on attempts in progress, by the SHA-256 of their
 * `state`, with the nonce and the PKCE verifier the callback needs; one use, ten minutes.
 */
export function createSsoLoginsTable(db: PortalSqlite): void {
  db.exec(`
    CREATE TABLE sso_logins (
      state_hash BLOB PRIMARY KEY,
      nonce TEXT NOT NULL,
      code_verifier TEXT NOT NULL,
      created_at INTEGER NOT NULL
    );
  `);
}

/**
 * Schema version 6: the portal's own random keys, made once per database so that every process
 * on it uses the same (`sign_in_throttle`: the HMAC key of the account names that failed sign-ins
 * are counted under). The account names counted before were kept as typed and go.
 */
export function createPortalSecretsTable(db: PortalSqlite): void {
  db.exec(`
    CREATE TABLE portal_secrets (
      name TEXT PRIMARY KEY,
      secret BLOB NOT NULL,
      created_at INTEGER NOT NULL
    );
    DELETE FROM sign_in_failures WHERE key LIKE 'account:%';
  `);
}
