import Database from 'better-sqlite3';
import { Kysely, SqliteDialect, type Generated } from 'kysely';
import { Migrator, type Migration, type MigrationProvider } from 'kysely/migration';
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { idempotencyMigrations } from './idempotency-keys';

/** Every table the portal server keeps. Each store module owns its tables and migrations. */
export interface PortalTables {
  idempotency_keys: {
    key: string;
    fingerprint: string;
    /** `in_flight` until the VMS answers; `settled` (a remembered 2xx); `unknown` (no answer). */
    state: string;
    created_at: number;
    settled_at: number | null;
    status: number | null;
    /** JSON object of the answer's forwarded headers. */
    headers: string | null;
    body: Buffer | null;
  };
  /** Kysely's own bookkeeping, declared so nothing else claims the names. */
  kysely_migration: { name: string; timestamp: string };
  kysely_migration_lock: { id: string; is_locked: Generated<number> };
}

export type PortalDb = Kysely<PortalTables>;

/**
 * The migrations, in the order they run (Kysely sorts by name). Kept in code rather than read
 * from a folder, so the built server needs no migration files beside it. Once released, a
 * migration is never edited: a change is a new one.
 */
const migrations: Record<string, Migration> = { ...idempotencyMigrations };

const provider: MigrationProvider = { getMigrations: async () => migrations };

export interface PortalDatabase {
  db: PortalDb;
  /** Closes the connection; later queries fail. */
  close(): Promise<void>;
}

/**
 * Opens the portal's own database (`PORTAL_DB`): an SQLite file in WAL mode, the schema brought
 * up to date by the migrations. Queries go through Kysely so that a PostgreSQL store
 * (architecture.md, "One store interface, two databases") runs the same code with another
 * dialect.
 */
export async function openPortalDatabase(path: string): Promise<PortalDatabase> {
  if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true });
  const sqlite = new Database(path);
  // WAL: readers never wait for the writer. NORMAL: durable against a crash of the process,
  // which is what an idempotency key must survive; a power cut may lose the last commits.
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('synchronous = NORMAL');
  sqlite.pragma('busy_timeout = 5000');
  const db = new Kysely<PortalTables>({ dialect: new SqliteDialect({ database: sqlite }) });
  try {
    const { error } = await new Migrator({ db, provider }).migrateToLatest();
    if (error) throw error;
  } catch (error) {
    await db.destroy();
    throw new Error(
      `The portal database ${path} (PORTAL_DB) could not be prepared: ${error instanceof Error ? error.message : String(error)}`,
      { cause: error },
    );
  }
  return { db, close: () => db.destroy() };
}
