import Database from 'better-sqlite3';
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { createIdempotencyKeysTable } from './idempotency-keys';
import { createAuthTables, createSsoLoginsTable } from './auth-schema';
import { addJournalSender, createJournalTables } from './journal-schema';

export type PortalSqlite = Database.Database;

/**
 * The schema's versions, in order: the database's `user_version` says how many have run. Once
 * released, a migration is never edited; a change is a new one, appended here whichever store it
 * belongs to (each store module writes its own, this list orders them all).
 */
const migrations: ReadonlyArray<(db: PortalSqlite) => void> = [
  // 1: idempotency keys (issue 9, decision 002)
  createIdempotencyKeysTable,
  // 2: the call journal (issue 14, decision 025)
  createJournalTables,
  // 3: accounts, grants, invites, sessions, sign-in failures, per-user records (issue 15, 026)
  createAuthTables,
  // 4: who sent each journal entry (issue 15)
  addJournalSender,
  // 5: single sign-on attempts in progress (issue 15, 026)
  createSsoLoginsTable,
];

/** The schema version this portal brings a database to. */
export const portalSchemaVersion = migrations.length;

export interface PortalDatabase {
  db: PortalSqlite;
  /** Closes the connection; later queries fail. */
  close(): Promise<void>;
}

/**
 * Opens the portal's own database (`PORTAL_DB`): an SQLite file in WAL mode, the schema brought
 * up to date. Stores reach it through their small interfaces (IdempotencyKeyStore, JournalStore), so a
 * PostgreSQL store can sit beside this one (architecture.md, "One store interface, two
 * databases"). Statements are prepared once: a keyed POST costs two of them (decision 002).
 */
export async function openPortalDatabase(path: string): Promise<PortalDatabase> {
  if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true });
  const db = new Database(path);
  try {
    // WAL: readers never wait for the writer. NORMAL: durable against a crash of the process,
    // which is what an idempotency key must survive; a power cut may lose the last commits.
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = NORMAL');
    db.pragma('busy_timeout = 5000');
    const version = Number(db.pragma('user_version', { simple: true }));
    if (version > migrations.length) {
      throw new Error(
        `its schema is version ${version}, newer than this portal knows (${migrations.length}); run a newer portal or point PORTAL_DB elsewhere`,
      );
    }
    migrations.slice(version).forEach((migrate, index) => {
      db.transaction(() => {
        migrate(db);
        db.pragma(`user_version = ${version + index + 1}`);
      })();
    });
  } catch (error) {
    db.close();
    throw new Error(
      `The portal database ${path} (PORTAL_DB) could not be prepared: ${error instanceof Error ? error.message : String(error)}`,
      { cause: error },
    );
  }
  return {
    db,
    close: async () => {
      if (db.open) db.close();
    },
  };
}
