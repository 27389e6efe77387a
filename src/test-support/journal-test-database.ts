import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createJournalStore } from '@/server/journal/store/journal-calls';
import type { JournalStore } from '@/server/journal/store/journal-store';
import { type PortalSqlite } from '@/server/store/portal-database';
import { createPool, type PortalPool } from '@/server/store/postgres/pool';
import { openPortalSqlite } from '@/test-support/portal-stores';
import { openPortalStores, type PortalStores } from '@/test-support/portal-stores';

/**
 * For tests: an empty portal database of either kind, to run the same journal cases on both
 * stores (`describe.each(journalDatabaseKinds)`). A PostgreSQL database is one the test makes on
 * the real server the test run starts (test-support/postgres-server.ts, createTestDatabase).
 */
export const journalDatabaseKinds = ['sqlite', 'postgres'] as const;
export type JournalDatabaseKind = (typeof journalDatabaseKinds)[number];

export interface JournalTestDatabase {
  kind: JournalDatabaseKind;
  /**
   * A journal store on this database. Each call opens another, as a restarted or a second portal
   * process would (PostgreSQL: with its own pool of connections).
   */
  open(): Promise<JournalStore>;
  /** One number read with SQL both databases take: `SELECT … AS n`. */
  number(sql: string): Promise<number>;
  /** The SQLite connection, for what only SQLite has (its pragmas); null on PostgreSQL. */
  sqlite: PortalSqlite | null;
  /** A pool of its own on the PostgreSQL database, as another process has; null on SQLite. */
  postgres: PortalPool | null;
  close(): Promise<void>;
}

export async function openJournalTestDatabase(
  kind: JournalDatabaseKind,
  /** Makes a new PostgreSQL database and returns its URL. */
  newPostgresDatabase: () => string,
): Promise<JournalTestDatabase> {
  if (kind === 'sqlite') {
    const dir = mkdtempSync(join(tmpdir(), 'journal-store-'));
    const database = await openPortalSqlite(join(dir, 'portal.db'));
    return {
      kind,
      open: async () => createJournalStore(database.db),
      number: async (sql) => {
        const row: unknown = database.db.prepare(sql).get();
        return Number(row && typeof row === 'object' ? Reflect.get(row, 'n') : Number.NaN);
      },
      sqlite: database.db,
      postgres: null,
      close: async () => {
        await database.close();
        rmSync(dir, { recursive: true, force: true });
      },
    };
  }
  const databaseUrl = newPostgresDatabase();
  const opened: PortalStores[] = [];
  const inspector = createPool(databaseUrl);
  return {
    kind,
    open: async () => {
      const stores = await openPortalStores({ portalDb: ':memory:', databaseUrl });
      opened.push(stores);
      return stores.journal;
    },
    number: async (sql) => {
      const { rows } = await inspector.query<{ n: number }>(sql);
      return Number(rows[0]?.n ?? Number.NaN);
    },
    sqlite: null,
    postgres: inspector,
    close: async () => {
      for (const stores of opened.splice(0)) await stores.close();
      await inspector.end();
    },
  };
}
