import { execFileSync, spawnSync } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { chmodSync, chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '@/server/free-port';

/**
 * For tests: a real PostgreSQL server (the Debian `postgresql` package's binaries), in its own
 * data directory on a free loopback port, trusting local connections, without fsync (a test's
 * data need not survive a power cut). Never a mock.
 */
export interface TestPostgres {
  /** `postgres://portal@127.0.0.1:PORT/postgres`: the server's maintenance database. */
  adminUrl: string;
  /** Makes a new empty database and returns its URL. */
  createDatabase(name?: string): string;
  stop(): void;
}

function binDir(): string {
  const fromEnv = process.env.PG_BIN_DIR;
  if (fromEnv && existsSync(join(fromEnv, 'initdb'))) return fromEnv;
  const root = '/usr/lib/postgresql';
  const versions = existsSync(root)
    ? readdirSync(root)
        .filter((name) => existsSync(join(root, name, 'bin', 'initdb')))
        .sort((a, b) => Number(b) - Number(a))
    : [];
  const newest = versions[0];
  if (newest === undefined) {
    throw new Error(
      'PostgreSQL is not installed: the tests start a real server from /usr/lib/postgresql/*/bin (apt-get install -y postgresql), or set PG_BIN_DIR.',
    );
  }
  return join(root, newest, 'bin');
}

/** A program of the installed PostgreSQL (psql, pg_dump…). */
export function pgBinary(name: string): string {
  return join(binDir(), name);
}

/** PostgreSQL refuses to run as root: as root, its commands run as the `postgres` user. */
function runAs(): string[] {
  return process.getuid?.() === 0 ? ['runuser', '-u', 'postgres', '--'] : [];
}

function run(command: string, args: string[]): void {
  const [first, ...rest] = [...runAs(), command, ...args];
  const result = spawnSync(first ?? command, rest, { encoding: 'utf8' });
  if (result.status !== 0) {
    throw new Error(
      `${command} failed (${result.status}): ${result.stderr || result.stdout || String(result.error)}`,
    );
  }
}

export async function startTestPostgres(): Promise<TestPostgres> {
  const bin = binDir();
  const dir = mkdtempSync(join(tmpdir(), 'vms-portal-pg-'));
  chmodSync(dir, 0o755);
  if (runAs().length > 0) {
    const uid = Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).trim());
    const gid = Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).trim());
    chownSync(dir, uid, gid);
  }
  const data = join(dir, 'data');
  run(join(bin, 'initdb'), [
    '-D',
    data,
    '-U',
    'portal',
    '--auth=trust',
    '--encoding=UTF8',
    '--locale=C.UTF-8',
    '--no-sync',
  ]);
  const port = await freePort();
  const options = [
    `-p ${port}`,
    `-k ${dir}`,
    "-c listen_addresses='127.0.0.1'",
    '-c fsync=off',
    '-c synchronous_commit=off',
    '-c full_page_writes=off',
    '-c max_connections=300',
  ].join(' ');
  run(join(bin, 'pg_ctl'), [
    '-D',
    data,
    '-l',
    join(dir, 'server.log'),
    '-o',
    options,
    '-w',
    'start',
  ]);
  const base = `postgres://portal@127.0.0.1:${port}`;
  const stop = () => {
    try {
      run(join(bin, 'pg_ctl'), ['-D', data, '-m', 'immediate', '-w', 'stop']);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  };
  return {
    adminUrl: `${base}/postgres`,
    createDatabase: (name) => createTestDatabase(`${base}/postgres`, name),
    stop,
  };
}

function psql(url: URL, sql: string): string {
  const result = spawnSync(
    join(binDir(), 'psql'),
    ['-h', url.hostname, '-p', url.port, '-U', url.username, '-d', 'postgres', '-tAq'],
    { encoding: 'utf8', input: `\\set ON_ERROR_STOP 1\n${sql}\n` },
  );
  if (result.status !== 0) throw new Error(`psql failed: ${result.stderr || String(result.error)}`);
  return result.stdout.trim();
}

/**
 * A database on a test server (made when missing), synchronously so that a synchronous test
 * helper can ask for one: `name` gives the same one again, none a new one.
 */
export function createTestDatabase(adminUrl: string, name?: string): string {
  const url = new URL(adminUrl);
  const database = name ?? `t_${randomBytes(6).toString('hex')}`;
  if (!/^[a-z_][a-z0-9_]{0,62}$/.test(database)) throw new Error(`bad database name ${database}`);
  if (psql(url, `SELECT 1 FROM pg_database WHERE datname = '${database}'`) !== '1') {
    psql(url, `CREATE DATABASE ${database}`);
  }
  url.pathname = `/${database}`;
  return url.toString();
}

/** Set by the test run's global setup when it started a server: its maintenance database. */
export const postgresEnvName = 'PORTAL_TEST_POSTGRES';

/**
 * The environment a test's portal runs with. In the `postgres` test project (PORTAL_TEST_STORE=
 * postgres) every PORTAL_DB becomes a PostgreSQL database of its own: the same file name the same
 * database (a restart finds its data), `:memory:` a new one each time.
 */
export function testStoreEnv(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  if (process.env.PORTAL_TEST_STORE !== 'postgres') return env;
  const adminUrl = process.env[postgresEnvName];
  if (!adminUrl) throw new Error(`${postgresEnvName} is unset: the global setup starts PostgreSQL`);
  const file = env.PORTAL_DB ?? ':memory:';
  const name =
    file === ':memory:'
      ? undefined
      : `f_${createHash('sha256').update(file).digest('hex').slice(0, 20)}`;
  return { ...env, DATABASE_URL: createTestDatabase(adminUrl, name) };
}
