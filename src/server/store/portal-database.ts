import Database from 'better-sqlite3';
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { migrations, newerSchemaMessage } from './migrations';

export type PortalSqlite = Database.Database;

export { portalSchemaVersion } from './migrations';

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
      throw new Error(newerSchemaMessage(version, 'PORTAL_DB'));
    }
    migrations.slice(version).forEach((migration, index) => {
      db.transaction(() => {
        migration.sqlite(db);
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
