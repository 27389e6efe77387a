import { sql, type Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';
import type { PortalTables } from './portal-database';

/** What the portal answered for one call: enough to answer a repeat of it identically. */
export interface CallOutcome {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
}

export type KeyRecord =
  | { state: 'in_flight'; fingerprint: string; createdAt: number }
  | { state: 'settled'; fingerprint: string; createdAt: number; outcome: CallOutcome }
  | { state: 'unknown'; fingerprint: string; createdAt: number };

/**
 * The durable half of the idempotency keys (decision 002): one row per key, written before the
 * call leaves and updated when its outcome is known. Every method is one statement, so the same
 * code holds on SQLite and PostgreSQL.
 */
export interface IdempotencyKeyStore {
  /** Records a new key as in flight; false when the key is already there (nothing written). */
  insertInFlight(key: string, fingerprint: string, now: number): Promise<boolean>;
  find(key: string): Promise<KeyRecord | undefined>;
  settle(key: string, outcome: CallOutcome, now: number): Promise<void>;
  markUnknown(key: string, now: number): Promise<void>;
  /** The call certainly did not reach the VMS, or the VMS refused it: the key may be used again. */
  forget(key: string): Promise<void>;
  /** At start-up: calls in flight when the last process stopped have no known outcome. */
  markAllInFlightUnknown(now: number): Promise<number>;
  /** Drops keys created at or before `cutoff`; returns how many. */
  purgeCreatedUpTo(cutoff: number): Promise<number>;
}

export const idempotencyMigrations: Record<string, Migration> = {
  '0001-idempotency-keys': {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('idempotency_keys')
        .addColumn('key', 'text', (column) => column.primaryKey())
        .addColumn('fingerprint', 'text', (column) => column.notNull())
        .addColumn('state', 'text', (column) =>
          column.notNull().check(sql`state in ('in_flight', 'settled', 'unknown')`),
        )
        .addColumn('created_at', 'bigint', (column) => column.notNull())
        .addColumn('settled_at', 'bigint')
        .addColumn('status', 'integer')
        .addColumn('headers', 'text')
        .addColumn('body', 'blob')
        .execute();
      await db.schema
        .createIndex('idempotency_keys_created_at')
        .on('idempotency_keys')
        .column('created_at')
        .execute();
    },
  },
};

function parseHeaders(text: string | null): Record<string, string> {
  if (!text) return {};
  const parsed: unknown = JSON.parse(text);
  const headers: Record<string, string> = {};
  if (typeof parsed === 'object' && parsed !== null) {
    for (const [name, value] of Object.entries(parsed)) {
      if (typeof value === 'string') headers[name] = value;
    }
  }
  return headers;
}

export function createIdempotencyKeyStore(db: Kysely<PortalTables>): IdempotencyKeyStore {
  return {
    async insertInFlight(key, fingerprint, now) {
      const result = await db
        .insertInto('idempotency_keys')
        .values({ key, fingerprint, state: 'in_flight', created_at: now })
        .onConflict((conflict) => conflict.column('key').doNothing())
        .executeTakeFirst();
      return Number(result.numInsertedOrUpdatedRows ?? 0) === 1;
    },

    async find(key) {
      const row = await db
        .selectFrom('idempotency_keys')
        .selectAll()
        .where('key', '=', key)
        .executeTakeFirst();
      if (!row) return undefined;
      const base = { fingerprint: row.fingerprint, createdAt: Number(row.created_at) };
      if (row.state === 'settled' && row.status !== null) {
        return {
          ...base,
          state: 'settled',
          outcome: {
            status: row.status,
            headers: parseHeaders(row.headers),
            body: row.body ? Buffer.from(row.body) : Buffer.alloc(0),
          },
        };
      }
      return { ...base, state: row.state === 'in_flight' ? 'in_flight' : 'unknown' };
    },

    async settle(key, outcome, now) {
      await db
        .updateTable('idempotency_keys')
        .set({
          state: 'settled',
          settled_at: now,
          status: outcome.status,
          headers: JSON.stringify(outcome.headers),
          body: outcome.body,
        })
        .where('key', '=', key)
        .execute();
    },

    async markUnknown(key, now) {
      await db
        .updateTable('idempotency_keys')
        .set({ state: 'unknown', settled_at: now })
        .where('key', '=', key)
        .where('state', '=', 'in_flight')
        .execute();
    },

    async forget(key) {
      await db.deleteFrom('idempotency_keys').where('key', '=', key).execute();
    },

    async markAllInFlightUnknown(now) {
      const result = await db
        .updateTable('idempotency_keys')
        .set({ state: 'unknown', settled_at: now })
        .where('state', '=', 'in_flight')
        .executeTakeFirst();
      return Number(result.numUpdatedRows);
    },

    async purgeCreatedUpTo(cutoff) {
      const result = await db
        .deleteFrom('idempotency_keys')
        .where('created_at', '<=', cutoff)
        .executeTakeFirst();
      return Number(result.numDeletedRows);
    },
  };
}
