import { createPostgresSessionStore } from '@/server/accounts/store/postgres/sessions';
import { createPostgresUserRecordStore } from '@/server/accounts/store/postgres/user-records';
import { createPostgresUserStore } from '@/server/accounts/store/postgres/users';
import { createSessionStore, type SessionStore } from '@/server/accounts/store/sessions';
import { createUserRecordStore, type UserRecordStore } from '@/server/accounts/store/user-records';
import { createUserStore, type UserStore } from '@/server/accounts/store/users';
import { createJournalStore } from '@/server/journal/store/journal-calls';
import type { JournalStore } from '@/server/journal/store/journal-store';
import { createPostgresJournalStore } from '@/server/journal/store/postgres/journal';
import { portalMigrations as migrations } from '@/server/portal-schema';
import {
  createIdempotencyKeyStore,
  type IdempotencyKeyStore,
} from '@/server/proxy/store/idempotency-keys';
import { createPostgresIdempotencyKeyStore } from '@/server/proxy/store/postgres/idempotency-keys';
import type { StoreTarget } from '@/server/store/database';
import { openPortalDatabase } from '@/server/store/portal-database';
import { openPostgres, schemaVersion } from '@/server/store/postgres/database';

/**
 * For upgrade tests: a database as an earlier release left it, at schema version `version`, made
 * by this code's own migrations stopped early (MigrateOptions.upTo), not by a copy of them. Only
 * the stores whose tables that version already has, so a test can fill it with data.
 */
export interface OlderStores {
  idempotencyKeys: IdempotencyKeyStore;
  journal: Pick<JournalStore, 'write'>;
  users: UserStore;
  sessions: SessionStore;
  userRecords: UserRecordStore;
  schemaVersion(): Promise<number>;
  close(): Promise<void>;
}

/**
 * Columns a later version added to tables an older one already had, by the migration that added
 * them (found by name, so renumbering cannot break it). Today's stores write them, so they are
 * there while a test fills the older database and dropped again when it closes: what is left has
 * exactly the older version's tables and columns.
 */
const laterColumns = [
  {
    migration: 'journal start order and first byte',
    table: 'journal_calls',
    column: 'first_byte_ms',
    type: 'REAL',
  },
  { migration: 'connections', table: 'journal_calls', column: 'connection', type: 'TEXT' },
  { migration: 'connections', table: 'users', column: 'connections', type: 'TEXT' },
  { migration: 'journal trace', table: 'journal_calls', column: 'trace_id', type: 'TEXT' },
  { migration: 'QA suites', table: 'journal_calls', column: 'suite_run', type: 'INTEGER' },
].map((entry) => ({
  ...entry,
  since: migrations.findIndex(({ name }) => name === entry.migration) + 1,
}));

export async function openAtSchemaVersion(
  target: StoreTarget,
  version: number,
): Promise<OlderStores> {
  const added = laterColumns.filter(({ since }) => since > version);
  if (target.databaseUrl !== null) {
    const pool = await openPostgres(target.databaseUrl, migrations, { upTo: version });
    for (const { table, column, type } of added) {
      await pool.query(`ALTER TABLE ${table} ADD COLUMN ${column} ${type}`);
    }
    return {
      idempotencyKeys: createPostgresIdempotencyKeyStore(pool),
      journal: createPostgresJournalStore(pool),
      users: createPostgresUserStore(pool),
      sessions: createPostgresSessionStore(pool),
      userRecords: createPostgresUserRecordStore(pool),
      schemaVersion: () => schemaVersion(pool),
      close: async () => {
        for (const { table, column } of added) {
          await pool.query(`ALTER TABLE ${table} DROP COLUMN ${column}`);
        }
        await pool.end();
      },
    };
  }
  const { db, close } = await openPortalDatabase(target.portalDb, migrations, { upTo: version });
  for (const { table, column, type } of added) {
    db.exec(`ALTER TABLE ${table} ADD COLUMN ${column} ${type}`);
  }
  return {
    idempotencyKeys: createIdempotencyKeyStore(db),
    journal: createJournalStore(db),
    users: createUserStore(db),
    sessions: createSessionStore(db),
    userRecords: createUserRecordStore(db),
    schemaVersion: async () => Number(db.pragma('user_version', { simple: true })),
    close: async () => {
      for (const { table, column } of added) db.exec(`ALTER TABLE ${table} DROP COLUMN ${column}`);
      await close();
    },
  };
}
