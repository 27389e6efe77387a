import type { ConcernSchema } from '@/server/store/migrations';
import type { PortalSqlite } from '@/server/store/portal-database';

/**
 * Schema version 3 (decision 026): accounts, their org grants, invites, sessions,
 * failed sign-ins, and each user's synced records.
 *
 * Secrets are stored only as SHA-256 digests: a session id and an invite token are 256-bit random
 * values, so a digest is as good as the value to check one and useless to whoever reads the file.
 * Passwords are argon2id hashes (PHC strings). No foreign keys: users are disabled, never deleted.
 */
export function createAuthTables(db: PortalSqlite): void {
  db.exec(authTables({ big: 'INTEGER', bytes: 'BLOB', withoutRowid: ' WITHOUT ROWID' }));
}

/**
 * Version 3's tables in either database: they differ only in the type of a time or an org id
 * (`big`: PostgreSQL's INTEGER is 32 bits), of a digest (`bytes`), and in SQLite's WITHOUT ROWID
 * for the grants, a table of keys alone.
 */
function authTables({
  big,
  bytes,
  withoutRowid,
}: {
  big: string;
  bytes: string;
  withoutRowid: string;
}): string {
  return `
    CREATE TABLE users (
      id TEXT PRIMARY KEY,
      email TEXT NOT NULL UNIQUE,
      role TEXT NOT NULL CHECK (role IN ('recruiter', 'qa', 'admin')),
      password_hash TEXT,
      disabled INTEGER NOT NULL DEFAULT 0,
      created_at ${big} NOT NULL,
      last_sign_in_at ${big}
    );
    CREATE TABLE user_grants (
      user_id TEXT NOT NULL,
      client_org_id ${big} NOT NULL,
      PRIMARY KEY (user_id, client_org_id)
    )${withoutRowid};
    CREATE TABLE invites (
      token_hash ${bytes} PRIMARY KEY,
      user_id TEXT NOT NULL,
      created_at ${big} NOT NULL,
      expires_at ${big} NOT NULL
    );
    CREATE INDEX invites_user ON invites (user_id);
    CREATE TABLE sessions (
      id_hash ${bytes} PRIMARY KEY,
      user_id TEXT NOT NULL,
      csrf_token TEXT NOT NULL,
      created_at ${big} NOT NULL,
      last_seen_at ${big} NOT NULL
    );
    CREATE INDEX sessions_user ON sessions (user_id);
    CREATE TABLE sign_in_failures (
      key TEXT PRIMARY KEY,
      failures INTEGER NOT NULL,
      last_failure_at ${big} NOT NULL
    );
    CREATE TABLE user_records (
      user_id TEXT NOT NULL,
      collection TEXT NOT NULL,
      key TEXT NOT NULL,
      version ${big} NOT NULL,
      value TEXT,
      deleted INTEGER NOT NULL,
      updated_at ${big} NOT NULL,
      PRIMARY KEY (user_id, collection, key)
    );
    CREATE UNIQUE INDEX user_records_version ON user_records (user_id, collection, version);
  `;
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

/**
 * Schema version 8, the accounts' step: the connections each account may use, a JSON array of
 * connection names, or null for every connection of the deployment (what accounts made before
 * could use). The journal's step of the same version records each call's connection.
 */
function addAccountConnections(db: PortalSqlite): void {
  db.exec(`
    ALTER TABLE users ADD COLUMN connections TEXT;
  `);
}

/*
 * The PostgreSQL side of each step follows the SQLite side: types follow the SQLite columns so that
 * both stores read rows the same way (times are BIGINT milliseconds, flags 0/1 INTEGERs, digests
 * and bodies BYTEA, JSON kept as TEXT).
 */

/** Version 3: accounts, grants, invites, sessions, sign-in failures, per-user records (026). */
const postgresAuthTables = authTables({ big: 'BIGINT', bytes: 'BYTEA', withoutRowid: '' });

/** Version 5: single sign-on attempts in progress. */
const postgresSsoLogins = `
  CREATE TABLE sso_logins (
    state_hash BYTEA PRIMARY KEY,
    nonce TEXT NOT NULL,
    code_verifier TEXT NOT NULL,
    created_at BIGINT NOT NULL
  );
`;

/** Version 6: the portal's own random keys; failed sign-ins' account names as typed go. */
const postgresPortalSecrets = `
  CREATE TABLE portal_secrets (
    name TEXT PRIMARY KEY,
    secret BYTEA NOT NULL,
    created_at BIGINT NOT NULL
  );
  DELETE FROM sign_in_failures WHERE key LIKE 'account:%';
`;

/** Version 8, the accounts' step: the connections each account may use. */
const postgresAccountConnections = `
  ALTER TABLE users ADD COLUMN connections TEXT;
`;

/** The accounts' steps of the portal's schema (decision 047). */
export const accountsSchema: ConcernSchema = {
  concern: 'accounts',
  steps: [
    // accounts, grants, invites, sessions, sign-in failures, per-user records (decision 026)
    {
      version: 3,
      name: 'accounts and sessions',
      sqlite: createAuthTables,
      postgres: postgresAuthTables,
    },
    {
      version: 5,
      name: 'single sign-on attempts',
      sqlite: createSsoLoginsTable,
      postgres: postgresSsoLogins,
    },
    // failed sign-ins counted by a keyed hash of the name tried
    {
      version: 6,
      name: 'portal secrets',
      sqlite: createPortalSecretsTable,
      postgres: postgresPortalSecrets,
    },
    {
      version: 8,
      name: 'connections',
      sqlite: addAccountConnections,
      postgres: postgresAccountConnections,
    },
  ],
};
