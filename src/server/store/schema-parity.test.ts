import { afterAll, describe, expect, it } from 'vitest';
import { portalMigrations as migrations, portalSchemaVersion } from '@/server/portal-schema';
import { openPortalSqlite } from '@/test-support/portal-stores';
import { createTestDatabase, postgresEnvName } from '@/test-support/postgres-server';
import { openPostgres, schemaVersion } from './postgres/database';
import type { PortalPool } from './postgres/pool';

/*
 * Decision 027: each schema version is written twice, once per database (each concern's steps). This
 * checks that the two make the same tables with the same columns, so a store written against one
 * finds what it expects in the other. The search index is the one place they differ by design.
 */
const sqliteOnlyTable = /^journal_search/; // FTS5's table and its shadow tables
const postgresOnlyColumn = /^journal_search\./; // its tsvector parts (decision 025)

const pools: PortalPool[] = [];
afterAll(async () => {
  for (const pool of pools) await pool.end();
});

async function postgresPool(): Promise<PortalPool> {
  const adminUrl = process.env[postgresEnvName];
  if (!adminUrl) throw new Error(`${postgresEnvName} is unset: the global setup starts it`);
  const pool = await openPostgres(createTestDatabase(adminUrl), migrations);
  pools.push(pool);
  return pool;
}

describe('the two schemas', () => {
  it('have the same tables and columns', async () => {
    const sqlite = await openPortalSqlite(':memory:');
    const tables = sqlite.db
      .prepare<[], { name: string }>(
        "SELECT name FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite_%'",
      )
      .all()
      .map(({ name }) => name)
      .filter((name) => !sqliteOnlyTable.test(name));
    const sqliteColumns = tables.flatMap((table) =>
      sqlite.db
        .prepare<[], { name: string }>(`SELECT name FROM pragma_table_info('${table}')`)
        .all()
        .map(({ name }) => `${table}.${name}`),
    );
    await sqlite.close();

    const pool = await postgresPool();
    const { rows } = await pool.query<{ name: string }>(
      `SELECT table_name || '.' || column_name AS name FROM information_schema.columns
       WHERE table_schema = 'public' AND table_name != 'portal_schema_versions'`,
    );
    const postgresColumns = rows
      .map(({ name }) => name)
      .filter((name) => !postgresOnlyColumn.test(name));

    expect(postgresColumns.sort()).toEqual(sqliteColumns.sort());
    expect(sqliteColumns.length).toBeGreaterThan(60);
  });

  it('are at the same version, one row per migration in PostgreSQL, and a second start changes nothing', async () => {
    const sqlite = await openPortalSqlite(':memory:');
    expect(Number(sqlite.db.pragma('user_version', { simple: true }))).toBe(migrations.length);
    await sqlite.close();

    const pool = await postgresPool();
    expect(await schemaVersion(pool)).toBe(portalSchemaVersion);
    const { rows } = await pool.query<{ version: number; name: string }>(
      'SELECT version, name FROM portal_schema_versions ORDER BY version',
    );
    expect(rows).toEqual(
      migrations.map((migration, index) => ({ version: index + 1, name: migration.name })),
    );
  });

  it('keep every released version at its number and name, whichever concern now owns it', () => {
    // The versions as releases wrote them into databases (user_version, portal_schema_versions):
    // moving a step to another concern must not renumber or rename one (decision 047).
    expect(migrations.slice(0, 13).map(({ version, name }) => `${version} ${name}`)).toEqual([
      '1 idempotency keys',
      '2 call journal',
      '3 accounts and sessions',
      '4 journal sender',
      '5 single sign-on attempts',
      '6 portal secrets',
      '7 journal start order and first byte',
      '8 connections',
      '9 audit trail',
      '10 journal trace',
      '11 personal API tokens',
      '12 QA suites',
      '13 journal body indexes',
    ]);
  });

  it('take turns when several processes migrate one new database at once', async () => {
    const adminUrl = process.env[postgresEnvName] ?? '';
    const url = createTestDatabase(adminUrl);
    const opened = await Promise.all([
      openPostgres(url, migrations),
      openPostgres(url, migrations),
      openPostgres(url, migrations),
    ]);
    pools.push(...opened);
    const [first] = opened;
    if (!first) throw new Error('no pool');
    const { rows } = await first.query<{ n: number }>(
      'SELECT count(*) AS n FROM portal_schema_versions',
    );
    expect(rows[0]?.n).toBe(migrations.length);
  });

  it('refuses a database whose schema is newer than this portal, naming the setting', async () => {
    const pool = await postgresPool();
    await pool.query(
      'INSERT INTO portal_schema_versions (version, name, applied_at) VALUES ($1, $2, $3)',
      [portalSchemaVersion + 1, 'from the future', Date.now()],
    );
    const { rows } = await pool.query<{ db: string }>('SELECT current_database() AS db');
    const url = new URL(process.env[postgresEnvName] ?? '');
    url.pathname = `/${rows[0]?.db ?? ''}`;
    await expect(openPostgres(url.toString(), migrations)).rejects.toThrow(
      new RegExp(
        `schema is version ${portalSchemaVersion + 1}, newer than this portal knows .*DATABASE_URL`,
      ),
    );
  });
});
