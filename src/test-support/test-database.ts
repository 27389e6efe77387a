import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import Database from 'better-sqlite3';
import pg from 'pg';
import { pgBinary, testStoreEnv } from './postgres-server';

/**
 * For tests that look inside the portal's database: the PORTAL_DB file, or in the postgres test
 * project the PostgreSQL database that stands for it (testStoreEnv), or the one a caller names
 * (an e2e fixture makes its own). The SQL is what both accept ($1… placeholders are not: no
 * parameters).
 */
function databaseUrlFor(portalDb: string): string | null {
  return testStoreEnv({ PORTAL_DB: portalDb }).DATABASE_URL ?? null;
}

export async function queryTestDatabase<Row = Record<string, unknown>>(
  portalDb: string,
  sql: string,
  url: string | null = databaseUrlFor(portalDb),
): Promise<Row[]> {
  if (url === null) {
    const db = new Database(portalDb);
    try {
      const statement = db.prepare(sql);
      return statement.reader ? (statement.all() as Row[]) : (statement.run(), []);
    } finally {
      db.close();
    }
  }
  // BIGINT as numbers, as the portal's own pool reads them.
  const client = new pg.Client({
    connectionString: url,
    types: {
      getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
        oid === 20 ? Number : pg.types.getTypeParser(oid, format)) as typeof pg.types.getTypeParser,
    },
  });
  await client.connect();
  try {
    return (await client.query(sql)).rows as Row[];
  } finally {
    await client.end();
  }
}

/**
 * Every byte the database holds, for searching for what must never be there: the SQLite file, its
 * WAL and shared-memory index, or a plain-text dump of the PostgreSQL database (binary columns
 * appear there as hex: search for both forms).
 */
export function testDatabaseBytes(
  portalDb: string,
  url: string | null = databaseUrlFor(portalDb),
): Buffer {
  if (url === null) {
    const files = [portalDb, `${portalDb}-wal`, `${portalDb}-shm`].filter((file) =>
      existsSync(file),
    );
    return Buffer.concat(files.map((file) => readFileSync(file)));
  }
  const dump = spawnSync(pgBinary('pg_dump'), ['--data-only', '--dbname', url], {
    maxBuffer: 1024 * 1024 * 1024,
  });
  if (dump.status !== 0) throw new Error(`pg_dump failed: ${dump.stderr.toString()}`);
  return dump.stdout;
}
