import { openAccountStores, type AccountStores } from '@/server/accounts/store/account-stores';
import { createApiTokenStore, type ApiTokenStore } from '@/server/api-tokens/api-token-store';
import { createPostgresApiTokenStore } from '@/server/api-tokens/postgres-api-token-store';
import { createAuditStore, type AuditStore } from '@/server/audit/store/audit-events';
import { createPostgresAuditStore } from '@/server/audit/store/postgres/audit-events';
import { createJournalStore } from '@/server/journal/store/journal-calls';
import type { JournalStore } from '@/server/journal/store/journal-store';
import { createPostgresJournalStore } from '@/server/journal/store/postgres/journal';
import { portalMigrations } from '@/server/portal-schema';
import {
  createIdempotencyKeyStore,
  type IdempotencyKeyStore,
} from '@/server/proxy/store/idempotency-keys';
import { createPostgresIdempotencyKeyStore } from '@/server/proxy/store/postgres/idempotency-keys';
import {
  openDatabase,
  type OpenDatabaseOptions,
  type PortalDatabase,
  type StoreTarget,
} from '@/server/store/database';
import {
  openPortalDatabase,
  type PortalDatabase as SqliteDatabase,
} from '@/server/store/portal-database';
import { createPostgresSuiteStore } from '@/server/suites/postgres-suite-store';
import { createSqliteSuiteStore } from '@/server/suites/sqlite-suite-store';
import type { SuiteStore } from '@/server/suites/suite-store';

/**
 * For tests and benchmarks: every concern's store on one portal database, opened the way each
 * concern's plugin opens its own (decision 047), so a test can fill or read several at once.
 */
export interface PortalStores extends PortalDatabase, AccountStores {
  idempotencyKeys: IdempotencyKeyStore;
  /** Made on first use, as the journal's plugin makes it only with JOURNAL on. */
  readonly journal: JournalStore;
  audit: AuditStore;
  apiTokens: ApiTokenStore;
  suites: SuiteStore;
}

export async function openPortalStores(
  target: StoreTarget,
  options: OpenDatabaseOptions = {},
): Promise<PortalStores> {
  const database = await openDatabase(target, portalMigrations, options);
  let journal: JournalStore | undefined;
  return {
    ...database,
    ...openAccountStores(database),
    idempotencyKeys: database.open('idempotencyKeys', {
      sqlite: createIdempotencyKeyStore,
      postgres: createPostgresIdempotencyKeyStore,
    }),
    get journal() {
      journal ??= database.open('journal', {
        sqlite: createJournalStore,
        postgres: createPostgresJournalStore,
      });
      return journal;
    },
    audit: database.open('audit', { sqlite: createAuditStore, postgres: createPostgresAuditStore }),
    apiTokens: database.open('apiTokens', {
      sqlite: createApiTokenStore,
      postgres: createPostgresApiTokenStore,
    }),
    suites: database.open('suites', {
      sqlite: createSqliteSuiteStore,
      postgres: createPostgresSuiteStore,
    }),
  };
}

/** The portal's SQLite file with every concern's schema, for tests that read its tables directly. */
export function openPortalSqlite(path: string): Promise<SqliteDatabase> {
  return openPortalDatabase(path, portalMigrations);
}
