import { closeSync, mkdirSync, openSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';
import { newerSchemaMessage, type MigrateOptions, type Migration } from './migrations';

export type PortalSqlite = Database.Database;

export interface PortalDatabase {
  db: PortalSqlite;
  /** Closes the connection; later queries fail. */
  close(): Promise<void>;
}

/**
 * The file made before SQLite opens it, readable and writable by the portal's user only (0600),
 * in folders made 0700: it holds accounts, sessions and every call's bodies, and SQLite would make
 * it 0644 under the usual umask, readable by every user of the machine. SQLite gives the -wal and
 * -shm files it makes beside it the main file's mode. A file or folder that exists keeps the mode
 * its owner gave it.
 */
function createPrivately(path: string): void {
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  // 'a': made when missing, never truncated.
  closeSync(openSync(path, 'a', 0o600));
}

/**
 * Opens the portal's own database (`PORTAL_DB`): an SQLite file in WAL mode, the schema brought
 * up to date with `migrations` (every concern's steps, in order: decision 047). Stores reach it
 * through their small interfaces (IdempotencyKeyStore, JournalStore), so a PostgreSQL store can
 * sit beside this one (decision 027). Statements are prepared once: a keyed POST costs two of them
 * (decision 002).
 */
export async function openPortalDatabase(
  path: string,
  migrations: readonly Migration[],
  options: MigrateOptions = {},
): Promise<PortalDatabase> {
  if (path !== ':memory:') {
    try {
      createPrivately(path);
    } catch (error) {
      throw new Error(
        `The portal database ${path} (PORTAL_DB) could not be made: ${error instanceof Error ? error.message : String(error)}. Check that the portal's user may write to its folder, or point PORTAL_DB elsewhere.`,
        { cause: error },
      );
    }
  }
  const db = new Database(path);
  try {
    // WAL: readers never wait for the writer. NORMAL: durable against a crash of the process,
    // which is what an idempotency key must survive; a power cut may lose the last commits.
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = NORMAL');
    db.pragma('busy_timeout = 5000');
    // Freed and rebuilt space is zeroed, not left in the file: a person's data erased on request
    // (decision 059) must not survive in a free page or the unused part of a page a row left.
    db.pragma('secure_delete = ON');
    const version = Number(db.pragma('user_version', { simple: true }));
    if (version > migrations.length) {
      throw new Error(newerSchemaMessage(version, migrations.length, 'PORTAL_DB'));
    }
    migrations.slice(version, options.upTo ?? migrations.length).forEach((migration) => {
      db.transaction(() => {
        migration.sqlite(db);
        db.pragma(`user_version = ${migration.version}`);
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
