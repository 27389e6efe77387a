import { newerSchemaMessage, type MigrateOptions, type Migration } from '@/server/store/migrations';
import { createPool, describeDatabaseUrl, type PortalPool } from './pool';

/** Any constant: the advisory lock that lets one process at a time bring the schema up to date. */
const migrationLock = 0x706f7274616c; // "portal"

/**
 * Opens the PostgreSQL database (`DATABASE_URL`) and brings its schema up to date, the same
 * versions as the SQLite file (`migrations`, every concern's steps in order: decision 047). Processes starting together take turns through an
 * advisory lock; each migration runs in its own transaction with its version row.
 */
export async function openPostgres(
  url: string,
  migrations: readonly Migration[],
  options: MigrateOptions = {},
): Promise<PortalPool> {
  const pool = createPool(url);
  try {
    const client = await pool.connect();
    try {
      await client.query('SELECT pg_advisory_lock($1)', [migrationLock]);
      await client.query(`CREATE TABLE IF NOT EXISTS portal_schema_versions (
        version INTEGER PRIMARY KEY,
        name TEXT NOT NULL,
        applied_at BIGINT NOT NULL
      )`);
      const version = await schemaVersion(client);
      if (version > migrations.length)
        throw new Error(newerSchemaMessage(version, migrations.length, 'DATABASE_URL'));
      for (const migration of migrations.slice(version, options.upTo ?? migrations.length)) {
        await client.query('BEGIN');
        try {
          await client.query(migration.postgres);
          await client.query(
            'INSERT INTO portal_schema_versions (version, name, applied_at) VALUES ($1, $2, $3)',
            [migration.version, migration.name, Date.now()],
          );
          await client.query('COMMIT');
        } catch (error) {
          await client.query('ROLLBACK').catch(() => {});
          throw error;
        }
      }
    } finally {
      await client.query('SELECT pg_advisory_unlock($1)', [migrationLock]).catch(() => {});
      client.release();
    }
  } catch (error) {
    await pool.end().catch(() => {});
    throw new Error(
      `The portal database ${describeDatabaseUrl(url)} (DATABASE_URL) could not be prepared: ${error instanceof Error ? error.message : String(error)}`,
      { cause: error },
    );
  }
  return pool;
}

/** The highest schema version applied (0 for a new database). */
export async function schemaVersion(db: Pick<PortalPool, 'query'>): Promise<number> {
  const { rows } = await db.query<{ version: number | null }>(
    'SELECT max(version) AS version FROM portal_schema_versions',
  );
  return rows[0]?.version ?? 0;
}
