import pg from 'pg';

/**
 * The PostgreSQL connection pool the stores share (`DATABASE_URL`). BIGINT columns hold times in
 * milliseconds and ids, all within JavaScript's safe integers: they are read as numbers, not as
 * the strings `pg` gives by default (its parser for other types is kept).
 */
const int8 = 20;
const types = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
    oid === int8 && format !== 'binary'
      ? (value: string) => Number(value)
      : pg.types.getTypeParser(oid, format)) as typeof pg.types.getTypeParser,
};

export type PortalPool = pg.Pool;
export type PortalClient = pg.PoolClient;
/** Either the pool (one statement, any connection) or a client inside a transaction. */
export type Queryable = Pick<pg.Pool, 'query'> | Pick<pg.PoolClient, 'query'>;

export function createPool(url: string): PortalPool {
  const pool = new pg.Pool({
    connectionString: url,
    types,
    max: 10,
    // A database that does not answer fails the call that needs it instead of hanging it.
    connectionTimeoutMillis: 5000,
    idleTimeoutMillis: 30_000,
    application_name: 'vms-portal',
  });
  // An idle connection that the server drops (a restart) must not crash the process: the pool
  // discards it and the next query opens a new one.
  pool.on('error', () => {});
  return pool;
}

/** Runs `work` in one transaction on one connection: committed when it returns, else rolled back. */
export async function inTransaction<T>(
  pool: PortalPool,
  work: (client: PortalClient) => Promise<T>,
): Promise<T> {
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    const result = await work(client);
    await client.query('COMMIT');
    return result;
  } catch (error) {
    await client.query('ROLLBACK').catch(() => {});
    throw error;
  } finally {
    client.release();
  }
}

/** The `host:port/database` of a URL, for messages and health: never its password. */
export function describeDatabaseUrl(url: string): string {
  try {
    const parsed = new URL(url);
    return `${parsed.hostname}${parsed.port ? `:${parsed.port}` : ''}${parsed.pathname}`;
  } catch {
    return 'PostgreSQL';
  }
}
