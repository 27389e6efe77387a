import {
  createIdempotencyKeyStore,
  type IdempotencyKeyStore,
} from '../server/store/idempotency-keys';
import { createJournalStore } from '../server/store/journal-calls';
import type { JournalStore } from '../server/store/journal-store';
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
  journal: JournalStore;
  users: UserStore;
  sessions: SessionStore;
  userRecords: UserRecordStore;
  schemaVersion(): Promise<number>;
  close(): Promise<void>;
}

export async function openAtSchemaVersion(
  target: StoreTarget,
  version: number,
): Promise<OlderStores> {
  if (target.databaseUrl !== null) {
    const pool = await openPostgres(target.databaseUrl, { upTo: version });
    return {
      idempotencyKeys: createPostgresIdempotencyKeyStore(pool),
      journal: createPostgresJournalStore(pool),
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
    journal: createJournalStore(db),
    users: createUserStore(db),
    sessions: createSessionStore(db),
    userRecords: createUserRecordStore(db),
    schemaVersion: async () => Number(db.pragma('user_version', { simple: true })),
    close,
  };
}
