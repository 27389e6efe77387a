import type { MigrateOptions, Migration } from './migrations';
import { openPortalDatabase, type PortalSqlite } from './portal-database';
import { openPostgres, schemaVersion as postgresSchemaVersion } from './postgres/database';
import { describeDatabaseUrl, type PortalPool } from './postgres/pool';

/** Where the portal keeps what it keeps: PORTAL_DB, unless DATABASE_URL names a PostgreSQL. */
export interface StoreTarget {
  portalDb: string;
  databaseUrl: string | null;
}

/** How a concern makes its store on either database (decision 027). */
export interface StoreFactories<T> {
  sqlite(db: PortalSqlite): T;
  postgres(pool: PortalPool): T;
}

/**
 * Wraps each store as it is opened, under the name its concern gives it: the metrics time every
 * store call this way (one wrapper for every store, none of them written for it).
 */
export type StoreWrapper = <T extends object>(name: string, store: T) => T;

/**
 * The portal database, open and its schema up to date, knowing no concern (decision 047): each
 * concern's plugin opens its own store on it with `open`, from its own SQLite and PostgreSQL
 * factories.
 */
export interface PortalDatabase {
  kind: 'sqlite' | 'postgres';
  /** The setting that names the database, for messages: PORTAL_DB or DATABASE_URL. */
  setting: 'PORTAL_DB' | 'DATABASE_URL';
  /** The file, or host:port/database (never a password). */
  where: string;
  /** Whether other processes may use the same database at the same time. */
  shared: boolean;
  /** The schema version this code brings the database to. */
  knownSchemaVersion: number;
  /** The schema version, read from the database now (fails when it cannot be read). */
  schemaVersion(): Promise<number>;
  /** PostgreSQL's pool, for the metrics: connections open, idle, and queries waiting for one. */
  poolStats?: () => { total: number; idle: number; waiting: number };
  /** A concern's store on this database, under `name` (the metrics' label for its calls). */
  open<T extends object>(name: string, factories: StoreFactories<T>): T;
  /**
   * The store `open` gave, without the wrapper: what a metrics scrape reads through it (the
   * journal's size) is not one of the portal's queries.
   */
  unwrapped<T extends object>(store: T): T;
  close(): Promise<void>;
}

export interface OpenDatabaseOptions extends MigrateOptions {
  /** Applied to every store opened (the metrics' timing); none by default. */
  wrap?: StoreWrapper;
}

/**
 * Opens the portal database (an SQLite file by default, PostgreSQL when `DATABASE_URL` is set so
 * that several processes act as one) and brings its schema up to `migrations`, which the caller
 * gathers from the concerns (portal-schema.ts).
 */
export async function openDatabase(
  target: StoreTarget,
  migrations: readonly Migration[],
  options: OpenDatabaseOptions = {},
): Promise<PortalDatabase> {
  const { wrap, ...migrate } = options;
  const known = migrate.upTo ?? migrations.length;
  const unwrappedOf = new WeakMap<object, object>();
  function opened<T extends object>(name: string, store: T): T {
    if (!wrap) return store;
    const wrapped = wrap(name, store);
    unwrappedOf.set(wrapped, store);
    return wrapped;
  }
  const unwrapped = <T extends object>(store: T): T =>
    (unwrappedOf.get(store) as T | undefined) ?? store;
  if (target.databaseUrl !== null) {
    const pool = await openPostgres(target.databaseUrl, migrations, migrate);
    let closed = false;
    return {
      kind: 'postgres',
      setting: 'DATABASE_URL',
      where: describeDatabaseUrl(target.databaseUrl),
      shared: true,
      knownSchemaVersion: known,
      schemaVersion: () => postgresSchemaVersion(pool),
      poolStats: () => ({
        total: pool.totalCount,
        idle: pool.idleCount,
        waiting: pool.waitingCount,
      }),
      open: (name, factories) => opened(name, factories.postgres(pool)),
      unwrapped,
      close: async () => {
        if (closed) return;
        closed = true;
        await pool.end();
      },
    };
  }
  const { db, close } = await openPortalDatabase(target.portalDb, migrations, migrate);
  return {
    kind: 'sqlite',
    setting: 'PORTAL_DB',
    where: target.portalDb,
    shared: false,
    knownSchemaVersion: known,
    schemaVersion: async () => Number(db.pragma('user_version', { simple: true })),
    open: (name, factories) => opened(name, factories.sqlite(db)),
    unwrapped,
    close,
  };
}
