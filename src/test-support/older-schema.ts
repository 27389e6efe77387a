import {
  createIdempotencyKeyStore,
  type IdempotencyKeyStore,
} from '../server/store/idempotency-keys';
import { createJournalStore } from '../server/store/journal-calls';
import type { JournalStore } from '../server/store/journal-store';
import { migrations } from '../server/store/migrations';
import { openPortalDatabase } from '../server/store/portal-database';
import type { StoreTarget } from '../server/store/portal-stores';
import { openPostgres, schemaVersion } from '../server/store/postgres/database';
import { createPostgresIdempotencyKeyStore } from '../server/store/postgres/idempotency-keys';
import { createPostgresJournalStore } from '../server/store/postgres/journal';
import { createPostgresSessionStore } from '../server/store/postgres/sessions';
import { createPostgresUserRecordStore } from '../server/store/postgres/user-records';
import { createPostgresUserStore } from '../server/store/postgres/users';
import { createSessionStore, type SessionStore } from '../server/store/sessions';
import { createUserRecordStore, type UserRecordStore } from '../server/store/user-records';
import { createUserStore, type UserStore } from '../server/store/users';

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

/** The schema version that gave journal calls their time to first byte. */
const firstByteVersion =
  migrations.findIndex(({ name }) => name === 'journal start order and first byte') + 1;

/**
 * The journal of a database from before calls had a time to first byte: this release's store
 * writes, with the column there for the moment, and it goes again, so the database is left as
 * that release would have left it.
 */
function journalBeforeFirstByte(
  run: (sql: string) => Promise<unknown>,
  open: () => JournalStore,
): Pick<JournalStore, 'write'> {
  return {
    async write(records, late) {
      await run('ALTER TABLE journal_calls ADD COLUMN first_byte_ms REAL');
      try {
        return await open().write(records, late);
      } finally {
        await run('ALTER TABLE journal_calls DROP COLUMN first_byte_ms');
      }
    },
  };
}

export async function openAtSchemaVersion(
  target: StoreTarget,
  version: number,
): Promise<OlderStores> {
  if (target.databaseUrl !== null) {
    const pool = await openPostgres(target.databaseUrl, { upTo: version });
    return {
      idempotencyKeys: createPostgresIdempotencyKeyStore(pool),
      journal:
        version < firstByteVersion
          ? journalBeforeFirstByte(
              (sql) => pool.query(sql),
              () => createPostgresJournalStore(pool),
            )
          : createPostgresJournalStore(pool),
      users: createPostgresUserStore(pool),
      sessions: createPostgresSessionStore(pool),
      userRecords: createPostgresUserRecordStore(pool),
      schemaVersion: () => schemaVersion(pool),
      close: () => pool.end(),
    };
  }
  const { db, close } = await openPortalDatabase(target.portalDb, { upTo: version });
  return {
    idempotencyKeys: createIdempotencyKeyStore(db),
    journal:
      version < firstByteVersion
        ? journalBeforeFirstByte(
            async (sql) => db.exec(sql),
            () => createJournalStore(db),
          )
        : createJournalStore(db),
    users: createUserStore(db),
    sessions: createSessionStore(db),
    userRecords: createUserRecordStore(db),
    schemaVersion: async () => Number(db.pragma('user_version', { simple: true })),
    close,
  };
}
