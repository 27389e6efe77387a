import type Database from 'better-sqlite3';
import { createApiTokensTable, postgresApiTokensTable } from '@/server/api-tokens/api-token-schema';
import { createIdempotencyKeysTable } from '@/server/proxy/store/idempotency-keys';
import { createSuiteTables, postgresSuiteTables } from '@/server/suites/suite-schema';
import { createAuditTable } from './audit-schema';
import { createAuthTables, createPortalSecretsTable, createSsoLoginsTable } from './auth-schema';
import {
  addConnections,
  addJournalSender,
  addJournalBodyIndexes,
  addJournalStartOrder,
  addJournalTrace,
  createJournalTables,
} from './journal-schema';
import {
  postgresAuditTable,
  postgresAuthTables,
  postgresConnections,
  postgresIdempotencyKeys,
  postgresJournalBodyIndexes,
  postgresJournalSender,
  postgresJournalStartOrder,
  postgresJournalTrace,
  postgresJournalTables,
  postgresPortalSecrets,
  postgresSsoLogins,
} from './postgres/schema';

/**
 * One schema change, written for both databases the portal can keep its stores in (decision 027).
 * A change is a new entry appended here, for both at once: the type asks for both, and
 * schema-parity.test.ts checks that they make the same tables and columns.
 */
export interface Migration {
  name: string;
  /** Runs inside a transaction on the SQLite file. */
  sqlite(db: Database.Database): void;
  /** SQL run inside a transaction on PostgreSQL. */
  postgres: string;
}

/**
 * The schema's versions, in order: a database at version N has run the first N. Once released, a
 * migration is never edited.
 */
export const migrations: readonly Migration[] = [
  // 1: idempotency keys (decision 002)
  {
    name: 'idempotency keys',
    sqlite: createIdempotencyKeysTable,
    postgres: postgresIdempotencyKeys,
  },
  // 2: the call journal (decision 025)
  { name: 'call journal', sqlite: createJournalTables, postgres: postgresJournalTables },
  // 3: accounts, grants, invites, sessions, sign-in failures, per-user records (decision 026)
  { name: 'accounts and sessions', sqlite: createAuthTables, postgres: postgresAuthTables },
  // 4: who sent each journal entry
  { name: 'journal sender', sqlite: addJournalSender, postgres: postgresJournalSender },
  // 5: single sign-on attempts in progress (decision 026)
  { name: 'single sign-on attempts', sqlite: createSsoLoginsTable, postgres: postgresSsoLogins },
  // 6: the portal's own keys; failed sign-ins counted by a keyed hash of the name tried (026)
  { name: 'portal secrets', sqlite: createPortalSecretsTable, postgres: postgresPortalSecrets },
  // 7: journal calls listed by when they started, and each call's time to the VMS's first byte
  {
    name: 'journal start order and first byte',
    sqlite: addJournalStartOrder,
    postgres: postgresJournalStartOrder,
  },
  // 8: the connection of each journal call; the connections each account may use
  { name: 'connections', sqlite: addConnections, postgres: postgresConnections },
  // 9: who did what and when, kept apart from the journal with its own retention (decision 036)
  { name: 'audit trail', sqlite: createAuditTable, postgres: postgresAuditTable },
  // 10: the W3C trace id of each journal call
  { name: 'journal trace', sqlite: addJournalTrace, postgres: postgresJournalTrace },
  // 11: personal API tokens, known by their SHA-256 (decision 037)
  {
    name: 'personal API tokens',
    sqlite: createApiTokensTable,
    postgres: postgresApiTokensTable,
  },
  // 12: QA suites, their versions and runs; the run of each journal call (decision 038)
  { name: 'QA suites', sqlite: createSuiteTables, postgres: postgresSuiteTables },
  // 13: the journal's calls found by the bodies they hold (a search for a word in few bodies)
  {
    name: 'journal body indexes',
    sqlite: addJournalBodyIndexes,
    postgres: postgresJournalBodyIndexes,
  },
];

/** The schema version this portal brings a database to. */
export const portalSchemaVersion = migrations.length;

export interface MigrateOptions {
  /**
   * Stop after this schema version instead of the newest: for tests that make a database as an
   * older release left it, to check that this one upgrades it (the same migrations, not a copy).
   */
  upTo?: number;
}

/**
 * Why a portal will not open a database a newer release has upgraded: its migrations may have
 * changed what this code reads and writes, and there is no going down. Going back to this release
 * means the backup taken before the upgrade.
 */
export function newerSchemaMessage(version: number, setting: string): string {
  return `its schema is version ${version}, newer than this portal knows (it supports up to version ${migrations.length}): a newer release has upgraded it. Run that newer release, or to go back to this one restore the backup taken before the upgrade (npm run restore, docs/deployment.md "Upgrades"); or point ${setting} elsewhere`;
}
