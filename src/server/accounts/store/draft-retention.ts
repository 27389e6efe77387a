import type { UserCollection } from '@/domain/auth';
import type { PortalSqlite } from '@/server/store/portal-database';
import { inTransaction, type PortalPool } from '@/server/store/postgres/pool';
import type { RetentionStore } from '@/server/store/retention';

/*
 * Drafts and tray items synced to the server (DRAFT_RETENTION_DAYS, decision 060). One untouched
 * since before the cutoff is emptied into a tombstone, a write like the user's own deletion: it
 * takes the collection's next change number, so each browser that syncs learns of it and drops
 * its copy too, instead of sending back a record the server no longer has. The tombstone keeps the
 * time of the last change; it holds no value. Submissions are the record of what was sent and are
 * not pruned here.
 */
const prunedCollections = ['drafts', 'tray'] as const satisfies readonly UserCollection[];
const inPruned = `collection IN (${prunedCollections.map((name) => `'${name}'`).join(', ')})`;

interface Stale {
  user_id: string;
  collection: string;
  key: string;
}

export function createDraftRetention(db: PortalSqlite): RetentionStore {
  const statements = {
    stale: db.prepare<[number, number], Stale>(
      `SELECT user_id, collection, key FROM user_records
       WHERE ${inPruned} AND deleted = 0 AND updated_at < ? LIMIT ?`,
    ),
    version: db.prepare<[string, string], { version: number | null }>(
      'SELECT max(version) AS version FROM user_records WHERE user_id = ? AND collection = ?',
    ),
    tombstone: db.prepare<[number, string, string, string]>(
      `UPDATE user_records SET version = ?, value = NULL, deleted = 1
       WHERE user_id = ? AND collection = ? AND key = ?`,
    ),
  };
  const prune = db.transaction((cutoff: number, limit: number) => {
    const stale = statements.stale.all(cutoff, limit);
    for (const row of stale) {
      const version = (statements.version.get(row.user_id, row.collection)?.version ?? 0) + 1;
      statements.tombstone.run(version, row.user_id, row.collection, row.key);
    }
    return stale.length;
  });
  return {
    async pruneBefore(cutoff, limit) {
      return prune(cutoff, limit);
    },
  };
}

/**
 * In PostgreSQL each user's collection is emptied in a transaction of its own under the same
 * advisory lock as the user's writes, so the change numbers stay unique. The update asks again
 * whether each record is still stale and not yet a tombstone: a record the user touched meanwhile
 * stays, and one another process pruned first is not counted twice.
 */
export function createPostgresDraftRetention(pool: PortalPool): RetentionStore {
  return {
    async pruneBefore(cutoff, limit) {
      const { rows } = await pool.query<Stale>(
        `SELECT user_id, collection, key FROM user_records
         WHERE ${inPruned} AND deleted = 0 AND updated_at < $1
         ORDER BY user_id, collection LIMIT $2`,
        [cutoff, limit],
      );
      const byCollection = new Map<
        string,
        { userId: string; collection: string; keys: string[] }
      >();
      for (const row of rows) {
        const name = `${row.user_id}\u0000${row.collection}`;
        const group = byCollection.get(name) ?? {
          userId: row.user_id,
          collection: row.collection,
          keys: [],
        };
        group.keys.push(row.key);
        byCollection.set(name, group);
      }
      let pruned = 0;
      for (const { userId, collection, keys } of byCollection.values()) {
        pruned += await inTransaction(pool, async (client) => {
          await client.query('SELECT pg_advisory_xact_lock(hashtextextended($1, 0))', [
            `user_records ${userId} ${collection}`,
          ]);
          const { rowCount } = await client.query(
            `WITH latest AS (
               SELECT coalesce(max(version), 0) AS version FROM user_records
               WHERE user_id = $1 AND collection = $2),
             stale AS (
               SELECT key, row_number() OVER (ORDER BY version) AS n FROM user_records
               WHERE user_id = $1 AND collection = $2 AND key = ANY($3::text[])
                 AND deleted = 0 AND updated_at < $4)
             UPDATE user_records r SET version = latest.version + stale.n, value = NULL, deleted = 1
             FROM latest, stale
             WHERE r.user_id = $1 AND r.collection = $2 AND r.key = stale.key`,
            [userId, collection, keys, cutoff],
          );
          return rowCount ?? 0;
        });
      }
      return pruned;
    },
  };
}
