import type { PortalSqlite } from '@/server/store/portal-database';

/** A session as the server keeps it; its id is known only by its SHA-256. */
export interface StoredSession {
  userId: string;
  /** The synchronizer token the browser sends in x-csrf-token (not a secret from the user). */
  csrfToken: string;
  createdAt: number;
  lastSeenAt: number;
}

/**
 * Server-side sessions (decision 026). Asynchronous, one statement per method, so a PostgreSQL
 * store can implement it and sessions made by one portal process are valid on another.
 */
export interface SessionStore {
  create(idHash: Buffer, session: StoredSession): Promise<void>;
  find(idHash: Buffer): Promise<StoredSession | undefined>;
  touch(idHash: Buffer, at: number): Promise<void>;
  delete(idHash: Buffer): Promise<void>;
  /** Sign-out everywhere, a disabled account: every session of the user; returns how many. */
  deleteForUser(userId: string): Promise<number>;
  /** Sessions idle since `idleCutoff` or made before `createdCutoff`; returns how many. */
  purgeExpired(idleCutoff: number, createdCutoff: number): Promise<number>;
}

/** A session's row as both databases return it. */
export interface SessionRow {
  user_id: string;
  csrf_token: string;
  created_at: number;
  last_seen_at: number;
}

export function toSession(row: SessionRow): StoredSession {
  return {
    userId: row.user_id,
    csrfToken: row.csrf_token,
    createdAt: row.created_at,
    lastSeenAt: row.last_seen_at,
  };
}

export function createSessionStore(db: PortalSqlite): SessionStore {
  const statements = {
    insert: db.prepare<[Buffer, string, string, number, number]>(
      `INSERT INTO sessions (id_hash, user_id, csrf_token, created_at, last_seen_at)
       VALUES (?, ?, ?, ?, ?)`,
    ),
    find: db.prepare<[Buffer], SessionRow>(
      'SELECT user_id, csrf_token, created_at, last_seen_at FROM sessions WHERE id_hash = ?',
    ),
    touch: db.prepare<[number, Buffer]>(
      'UPDATE sessions SET last_seen_at = max(last_seen_at, ?) WHERE id_hash = ?',
    ),
    delete: db.prepare<[Buffer]>('DELETE FROM sessions WHERE id_hash = ?'),
    deleteForUser: db.prepare<[string]>('DELETE FROM sessions WHERE user_id = ?'),
    purge: db.prepare<[number, number]>(
      'DELETE FROM sessions WHERE last_seen_at <= ? OR created_at <= ?',
    ),
  };
  return {
    async create(idHash, session) {
      statements.insert.run(
        idHash,
        session.userId,
        session.csrfToken,
        session.createdAt,
        session.lastSeenAt,
      );
    },
    async find(idHash) {
      const row = statements.find.get(idHash);
      return row ? toSession(row) : undefined;
    },
    async touch(idHash, at) {
      statements.touch.run(at, idHash);
    },
    async delete(idHash) {
      statements.delete.run(idHash);
    },
    async deleteForUser(userId) {
      return statements.deleteForUser.run(userId).changes;
    },
    async purgeExpired(idleCutoff, createdCutoff) {
      return statements.purge.run(idleCutoff, createdCutoff).changes;
    },
  };
}
