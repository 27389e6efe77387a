import { apiTokenScopes, type ApiTokenScope } from '@/domain/api-tokens';
import type { PortalSqlite } from '@/server/store/portal-database';

/** A token as the server keeps it; the token itself only by its SHA-256 (`tokenHash`). */
export interface StoredApiToken {
  /** The public handle: lists and revoking name a token by it. */
  id: string;
  userId: string;
  name: string;
  scope: ApiTokenScope;
  createdAt: number;
  expiresAt: number;
  lastUsedAt: number | null;
  revokedAt: number | null;
  /** Who revoked it: its owner, or an admin. */
  revokedBy: string | null;
}

/**
 * Personal API tokens (decision 037), one statement per method, asynchronous so that the
 * PostgreSQL store implements the same and a token made on one portal process works on another.
 */
export interface ApiTokenStore {
  create(tokenHash: Buffer, token: StoredApiToken): Promise<void>;
  byHash(tokenHash: Buffer): Promise<StoredApiToken | undefined>;
  byId(id: string): Promise<StoredApiToken | undefined>;
  /** The user's tokens, newest first. */
  listForUser(userId: string): Promise<StoredApiToken[]>;
  /** Every user's tokens, newest first (admins). */
  listAll(): Promise<StoredApiToken[]>;
  /** Revokes a token that is not revoked yet; false when there was none such. */
  revoke(id: string, at: number, by: string): Promise<boolean>;
  /** Records a use (never moving the time back, should two processes race). */
  touch(id: string, at: number): Promise<void>;
  /** Tokens that expired or were revoked before `cutoff` go; returns how many. */
  purgeEndedBefore(cutoff: number): Promise<number>;
}

/** A row as both databases give it back. */
export interface ApiTokenRow {
  id: string;
  user_id: string;
  name: string;
  scope: string;
  created_at: number;
  expires_at: number;
  last_used_at: number | null;
  revoked_at: number | null;
  revoked_by: string | null;
}

export const apiTokenColumns =
  'id, user_id, name, scope, created_at, expires_at, last_used_at, revoked_at, revoked_by';

export function toStoredApiToken(row: ApiTokenRow): StoredApiToken {
  return {
    id: row.id,
    userId: row.user_id,
    name: row.name,
    // Written through this store; a scope this release does not know gets the narrowest.
    scope: apiTokenScopes.find((scope) => scope === row.scope) ?? 'suites',
    createdAt: row.created_at,
    expiresAt: row.expires_at,
    lastUsedAt: row.last_used_at,
    revokedAt: row.revoked_at,
    revokedBy: row.revoked_by,
  };
}

type ApiTokenInsert = [
  string,
  Buffer,
  string,
  string,
  string,
  number,
  number,
  number | null,
  number | null,
  string | null,
];

/** The insert's values, in the order of `apiTokenColumns` with the hash second. */
export function apiTokenValues(tokenHash: Buffer, token: StoredApiToken): ApiTokenInsert {
  return [
    token.id,
    tokenHash,
    token.userId,
    token.name,
    token.scope,
    token.createdAt,
    token.expiresAt,
    token.lastUsedAt,
    token.revokedAt,
    token.revokedBy,
  ];
}

export function createApiTokenStore(db: PortalSqlite): ApiTokenStore {
  const statements = {
    insert: db.prepare<ApiTokenInsert>(
      `INSERT INTO api_tokens (id, token_hash, user_id, name, scope, created_at, expires_at,
         last_used_at, revoked_at, revoked_by)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    ),
    byHash: db.prepare<[Buffer], ApiTokenRow>(
      `SELECT ${apiTokenColumns} FROM api_tokens WHERE token_hash = ?`,
    ),
    byId: db.prepare<[string], ApiTokenRow>(
      `SELECT ${apiTokenColumns} FROM api_tokens WHERE id = ?`,
    ),
    listForUser: db.prepare<[string], ApiTokenRow>(
      `SELECT ${apiTokenColumns} FROM api_tokens WHERE user_id = ? ORDER BY created_at DESC, id`,
    ),
    listAll: db.prepare<[], ApiTokenRow>(
      `SELECT ${apiTokenColumns} FROM api_tokens ORDER BY created_at DESC, id`,
    ),
    revoke: db.prepare<[number, string, string]>(
      'UPDATE api_tokens SET revoked_at = ?, revoked_by = ? WHERE id = ? AND revoked_at IS NULL',
    ),
    touch: db.prepare<[number, string]>(
      'UPDATE api_tokens SET last_used_at = max(coalesce(last_used_at, 0), ?) WHERE id = ?',
    ),
    purge: db.prepare<[number, number]>(
      'DELETE FROM api_tokens WHERE expires_at < ? OR revoked_at < ?',
    ),
  };
  return {
    async create(tokenHash, token) {
      statements.insert.run(...apiTokenValues(tokenHash, token));
    },
    async byHash(tokenHash) {
      const row = statements.byHash.get(tokenHash);
      return row ? toStoredApiToken(row) : undefined;
    },
    async byId(id) {
      const row = statements.byId.get(id);
      return row ? toStoredApiToken(row) : undefined;
    },
    async listForUser(userId) {
      return statements.listForUser.all(userId).map(toStoredApiToken);
    },
    async listAll() {
      return statements.listAll.all().map(toStoredApiToken);
    },
    async revoke(id, at, by) {
      return statements.revoke.run(at, by, id).changes === 1;
    },
    async touch(id, at) {
      statements.touch.run(at, id);
    },
    async purgeEndedBefore(cutoff) {
      return statements.purge.run(cutoff, cutoff).changes;
    },
  };
}
