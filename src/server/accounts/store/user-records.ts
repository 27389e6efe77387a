import type { UserCollection, UserRecord } from '@/domain/auth';
import type { PortalSqlite } from '@/server/store/portal-database';

export interface UserRecordWrite {
  /** The value as JSON text (null for a tombstone). */
  value: string | null;
  /** The version the browser's copy was based on: 0 for a record new to the server. */
  baseVersion: number;
  deleted: boolean;
}

export type UserRecordPut =
  | { kind: 'stored'; record: UserRecord }
  /** The server holds another version than `baseVersion`: nothing was written. */
  | { kind: 'conflict'; current: UserRecord };

/**
 * Each user's synced records, drafts, submissions and unsent batches (decision 026). A record's version is the
 * collection's change number at its last write: every write takes the next number of that
 * user's collection, so `since` (the highest number the browser has seen) finds every change,
 * tombstones included. Asynchronous so a PostgreSQL store can implement it.
 */
export interface UserRecordStore {
  /** Records changed after version `since`, oldest change first, and the collection's version. */
  changedSince(
    userId: string,
    collection: UserCollection,
    since: number,
    limit: number,
  ): Promise<{ records: UserRecord[]; version: number }>;
  /** Writes when `baseVersion` is the record's version (0: absent); otherwise a conflict. */
  put(
    userId: string,
    collection: UserCollection,
    key: string,
    write: UserRecordWrite,
    now: number,
  ): Promise<UserRecordPut>;
  /**
   * What the user keeps, every collection, leaving out one record (the one about to be written):
   * how many records (not tombstones) and the bytes of their keys and values (tombstones' too).
   */
  usage(
    userId: string,
    except: { collection: UserCollection; key: string },
  ): Promise<{ records: number; bytes: number }>;
}

export interface RecordRow {
  key: string;
  version: number;
  value: string | null;
  deleted: number;
  updated_at: number;
}

export function toRecord(row: RecordRow): UserRecord {
  return {
    key: row.key,
    value: row.value === null ? null : (JSON.parse(row.value) as unknown),
    version: row.version,
    updatedAt: new Date(row.updated_at).toISOString(),
    deleted: row.deleted === 1,
  };
}

/**
 * What a write based on `baseVersion` meets when the record is at another version: a conflict
 * carrying the server's copy (a tombstone at version 0 when there is none). Undefined when the
 * write may go ahead.
 */
export function conflictOf(
  key: string,
  current: RecordRow | undefined,
  baseVersion: number,
): UserRecordPut | undefined {
  if ((current?.version ?? 0) === baseVersion) return undefined;
  return {
    kind: 'conflict',
    current: current
      ? toRecord(current)
      : { key, value: null, version: 0, updatedAt: new Date(0).toISOString(), deleted: true },
  };
}

/** The row a write stores as the collection's change `version` (a deletion keeps no value). */
export function writtenRow(
  key: string,
  version: number,
  write: UserRecordWrite,
  now: number,
): RecordRow {
  return {
    key,
    version,
    value: write.deleted ? null : write.value,
    deleted: write.deleted ? 1 : 0,
    updated_at: now,
  };
}

export function createUserRecordStore(db: PortalSqlite): UserRecordStore {
  const statements = {
    since: db.prepare<[string, string, number, number], RecordRow>(
      `SELECT key, version, value, deleted, updated_at FROM user_records
       WHERE user_id = ? AND collection = ? AND version > ? ORDER BY version LIMIT ?`,
    ),
    version: db.prepare<[string, string], { version: number | null }>(
      'SELECT max(version) AS version FROM user_records WHERE user_id = ? AND collection = ?',
    ),
    get: db.prepare<[string, string, string], RecordRow>(
      `SELECT key, version, value, deleted, updated_at FROM user_records
       WHERE user_id = ? AND collection = ? AND key = ?`,
    ),
    usage: db.prepare<[string, string, string], { records: number; bytes: number }>(
      `SELECT count(*) FILTER (WHERE deleted = 0) AS records,
         coalesce(sum(length(CAST(key AS BLOB)) + coalesce(length(CAST(value AS BLOB)), 0)), 0) AS bytes
       FROM user_records WHERE user_id = ? AND NOT (collection = ? AND key = ?)`,
    ),
    upsert: db.prepare<[string, string, string, number, string | null, number, number]>(
      `INSERT INTO user_records (user_id, collection, key, version, value, deleted, updated_at)
       VALUES (?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT (user_id, collection, key) DO UPDATE SET
         version = excluded.version, value = excluded.value, deleted = excluded.deleted,
         updated_at = excluded.updated_at`,
    ),
  };

  const put = db.transaction(
    (
      userId: string,
      collection: string,
      key: string,
      write: UserRecordWrite,
      now: number,
    ): UserRecordPut => {
      const conflict = conflictOf(
        key,
        statements.get.get(userId, collection, key),
        write.baseVersion,
      );
      if (conflict) return conflict;
      const version = (statements.version.get(userId, collection)?.version ?? 0) + 1;
      const row = writtenRow(key, version, write, now);
      statements.upsert.run(userId, collection, key, version, row.value, row.deleted, now);
      return { kind: 'stored', record: toRecord(row) };
    },
  );

  return {
    async changedSince(userId, collection, since, limit) {
      const records = statements.since.all(userId, collection, since, limit).map(toRecord);
      const version = statements.version.get(userId, collection)?.version ?? 0;
      return { records, version };
    },
    async put(userId, collection, key, write, now) {
      return put(userId, collection, key, write, now);
    },
    async usage(userId, except) {
      return (
        statements.usage.get(userId, except.collection, except.key) ?? { records: 0, bytes: 0 }
      );
    },
  };
}
