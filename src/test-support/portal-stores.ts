import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openAccountStores, type AccountStores } from '@/server/accounts/store/account-stores';
import type { ApiTokenStore } from '@/server/api-tokens/api-token-store';
import { openApiTokenStore } from '@/server/api-tokens/api-tokens-plugin';
import { openAuditStore } from '@/server/audit/audit-plugin';
import type { AuditStore } from '@/server/audit/store/audit-events';
import { openDeliveryStore } from '@/server/deliveries/deliveries-plugin';
import type { DeliveryStore } from '@/server/deliveries/store/delivery-store';
import { openJournalStore } from '@/server/journal/journal-plugin';
import type { JournalStore } from '@/server/journal/store/journal-store';
import { openNotificationStore } from '@/server/notifications/notifications-plugin';
import type { NotificationStore } from '@/server/notifications/store/notification-store';
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
import type { ScheduleStore } from '@/server/suites/schedule-store';
import type { SuiteStore } from '@/server/suites/suite-store';
import { openScheduleStore, openSuiteStore } from '@/server/suites/suites-plugin';
import { createTestDatabase, postgresEnvName } from './postgres-server';

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
  schedules: ScheduleStore;
  notifications: NotificationStore;
  deliveries: DeliveryStore;
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
      journal ??= openJournalStore(database);
      return journal;
    },
    audit: openAuditStore(database),
    apiTokens: openApiTokenStore(database),
    suites: openSuiteStore(database),
    schedules: openScheduleStore(database),
    notifications: openNotificationStore(database),
    deliveries: openDeliveryStore(database),
  };
}

/** The portal's SQLite file with every concern's schema, for tests that read its tables directly. */
export function openPortalSqlite(path: string): Promise<SqliteDatabase> {
  return openPortalDatabase(path, portalMigrations);
}

/**
 * Every store on a fresh database of `kind`, for a store test run on both: a SQLite file in a
 * folder of its own, or a new database on the run's PostgreSQL server. `close()` closes it and
 * removes the folder.
 */
export async function openTestStores(
  kind: 'sqlite' | 'postgres',
  prefix: string,
): Promise<PortalStores> {
  if (kind === 'postgres') {
    const adminUrl = process.env[postgresEnvName];
    if (!adminUrl) throw new Error(`${postgresEnvName} is unset: the global setup starts it`);
    return openPortalStores({ portalDb: ':memory:', databaseUrl: createTestDatabase(adminUrl) });
  }
  const dir = mkdtempSync(join(tmpdir(), prefix));
  const stores = await openPortalStores({ portalDb: join(dir, 'portal.db'), databaseUrl: null });
  const close = stores.close.bind(stores);
  // Assigned, not spread: a spread would make the journal's store, which is made on first use.
  return Object.assign(stores, {
    async close() {
      await close();
      rmSync(dir, { recursive: true, force: true });
    },
  });
}
