import { createPostgresSessionStore } from '@/server/accounts/store/postgres/sessions';
import {
  createPostgresSignInFailureStore,
  createPostgresSsoLoginStore,
} from '@/server/accounts/store/postgres/sign-in';
import { createPostgresUserRecordStore } from '@/server/accounts/store/postgres/user-records';
import { createPostgresUserStore } from '@/server/accounts/store/postgres/users';
import { createSessionStore, type SessionStore } from '@/server/accounts/store/sessions';
import {
  createSignInFailureStore,
  type SignInFailureStore,
} from '@/server/accounts/store/sign-in-failures';
import { createSsoLoginStore, type SsoLoginStore } from '@/server/accounts/store/sso-logins';
import { createUserRecordStore, type UserRecordStore } from '@/server/accounts/store/user-records';
import { createUserStore, type UserStore } from '@/server/accounts/store/users';
import { createApiTokenStore, type ApiTokenStore } from '@/server/api-tokens/api-token-store';
import { createPostgresApiTokenStore } from '@/server/api-tokens/postgres-api-token-store';
import { createAuditStore, type AuditStore } from '@/server/audit/store/audit-events';
import { createPostgresAuditStore } from '@/server/audit/store/postgres/audit-events';
import { createJournalStore } from '@/server/journal/store/journal-calls';
import type { JournalStore } from '@/server/journal/store/journal-store';
import { createPostgresJournalStore } from '@/server/journal/store/postgres/journal';
import type { IdempotencyKeyStore } from '@/server/proxy/store/idempotency-keys';
import { createIdempotencyKeyStore } from '@/server/proxy/store/idempotency-keys';
import { createPostgresIdempotencyKeyStore } from '@/server/proxy/store/postgres/idempotency-keys';
import { createPostgresSuiteStore } from '@/server/suites/postgres-suite-store';
import { createSqliteSuiteStore } from '@/server/suites/sqlite-suite-store';
import type { SuiteStore } from '@/server/suites/suite-store';
import { openPortalDatabase } from './portal-database';
import { openPostgres, schemaVersion as postgresSchemaVersion } from './postgres/database';
import { describeDatabaseUrl } from './postgres/pool';

/** Where the portal keeps what it keeps: PORTAL_DB, unless DATABASE_URL names a PostgreSQL. */
export interface StoreTarget {
  portalDb: string;
  databaseUrl: string | null;
}

/**
 * Everything the portal server keeps, behind one interface per store (decision 027): an SQLite file by default, PostgreSQL when
 * `DATABASE_URL` is set so that several processes act as one.
 */
export interface PortalStores {
  kind: 'sqlite' | 'postgres';
  /** The setting that names the database, for messages: PORTAL_DB or DATABASE_URL. */
  setting: 'PORTAL_DB' | 'DATABASE_URL';
  /** The file, or host:port/database (never a password). */
  where: string;
  /** Whether other processes may use the same database at the same time. */
  shared: boolean;
  idempotencyKeys: IdempotencyKeyStore;
  /** Made on first use (nothing is prepared for it when JOURNAL=off). */
  readonly journal: JournalStore;
  users: UserStore;
  sessions: SessionStore;
  signInFailures: SignInFailureStore;
  ssoLogins: SsoLoginStore;
  userRecords: UserRecordStore;
  /** The audit trail (decision 036). */
  audit: AuditStore;
  /** Personal API tokens (decision 037). */
  apiTokens: ApiTokenStore;
  /** QA suites, their versions and runs (decision 038). */
  suites: SuiteStore;
  /** The schema version, read from the database now (fails when it cannot be read). */
  schemaVersion(): Promise<number>;
  /** PostgreSQL's pool, for the metrics: connections open, idle, and queries waiting for one. */
  poolStats?: () => { total: number; idle: number; waiting: number };
  close(): Promise<void>;
}

export async function openPortalStores(target: StoreTarget): Promise<PortalStores> {
  if (target.databaseUrl !== null) {
    const pool = await openPostgres(target.databaseUrl);
    let closed = false;
    let journal: JournalStore | undefined;
    return {
      kind: 'postgres',
      setting: 'DATABASE_URL',
      where: describeDatabaseUrl(target.databaseUrl),
      shared: true,
      idempotencyKeys: createPostgresIdempotencyKeyStore(pool),
      get journal() {
        journal ??= createPostgresJournalStore(pool);
        return journal;
      },
      users: createPostgresUserStore(pool),
      sessions: createPostgresSessionStore(pool),
      signInFailures: createPostgresSignInFailureStore(pool),
      ssoLogins: createPostgresSsoLoginStore(pool),
      userRecords: createPostgresUserRecordStore(pool),
      audit: createPostgresAuditStore(pool),
      apiTokens: createPostgresApiTokenStore(pool),
      suites: createPostgresSuiteStore(pool),
      schemaVersion: () => postgresSchemaVersion(pool),
      poolStats: () => ({
        total: pool.totalCount,
        idle: pool.idleCount,
        waiting: pool.waitingCount,
      }),
      close: async () => {
        if (closed) return;
        closed = true;
        await pool.end();
      },
    };
  }
  const { db, close } = await openPortalDatabase(target.portalDb);
  let journal: JournalStore | undefined;
  return {
    kind: 'sqlite',
    setting: 'PORTAL_DB',
    where: target.portalDb,
    shared: false,
    idempotencyKeys: createIdempotencyKeyStore(db),
    get journal() {
      journal ??= createJournalStore(db);
      return journal;
    },
    users: createUserStore(db),
    sessions: createSessionStore(db),
    signInFailures: createSignInFailureStore(db),
    ssoLogins: createSsoLoginStore(db),
    userRecords: createUserRecordStore(db),
    audit: createAuditStore(db),
    apiTokens: createApiTokenStore(db),
    suites: createSqliteSuiteStore(db),
    schemaVersion: async () => Number(db.pragma('user_version', { simple: true })),
    close,
  };
}
