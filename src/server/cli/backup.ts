/**
 * Backups of the portal database, from the command line, on the database the server uses
 * (PORTAL_DB or DATABASE_URL, from the environment and `.env` like `npm start`):
 *
 *   npm run backup -- [--force] FILE   a consistent copy while the portal runs
 *   npm run restore -- FILE            puts a backup back, with the portal stopped, and lists
 *                                      the batches sent after the backup (sent-after-backup.ts)
 *   npm run restore -- --sent-after-backup URL   that list on PostgreSQL, after pg_restore
 *
 * SQLite: both done here (store/sqlite-backup.ts). PostgreSQL: `backup` runs pg_dump in its
 * custom format when it is on PATH, and otherwise prints the command; `restore` prints the
 * pg_restore command rather than running it (alone on its line of stdout, exit 0), since it needs
 * an empty database that only its administrator can make. Neither ever prints the password of
 * DATABASE_URL.
 *
 * Exit 0 when done, 1 when refused or failed (the file exists, not a portal database, a newer
 * schema, the portal running, the disk full), 2 for a usage or configuration problem, and when
 * `backup` prints the pg_dump command instead of running it.
 */
import { execFile } from 'node:child_process';
import { accessSync, constants, mkdirSync, renameSync, rmSync, statSync } from 'node:fs';
import { delimiter, dirname, join } from 'node:path';
import type { ParseArgsOptionsConfig } from 'node:util';
import pg from 'pg';
import { portalSchemaVersion } from '@/server/portal-schema';
import { describeDatabaseUrl } from '@/server/store/postgres/pool';
import {
  BackupRefused,
  backupSqlite,
  createOwnerOnly,
  partialBeside,
  refuseToReplace,
  restoreSqlite,
} from '@/server/store/sqlite-backup';
import { CliRefusal, readArguments, readPortalConfig, runCommand, type CliIo } from './cli-kit';
import { carryOverPostgres, carryOverSqlite, describeSentAfterBackup } from './sent-after-backup';

export const backupUsage = 'usage: npm run backup -- [--force] FILE';
export const restoreUsage =
  'usage: npm run restore -- FILE\n       npm run restore -- --sent-after-backup REPLACED_DATABASE_URL   (PostgreSQL)';

const usageProblem = (message: string) => new CliRefusal(message, 2);

function parse(argv: string[], usage: string, allowForce: boolean) {
  const options: ParseArgsOptionsConfig = allowForce ? { force: { type: 'boolean' } } : {};
  const parsed = readArguments(argv, options, usage);
  const [file, ...extra] = parsed.positionals;
  if (file === undefined || extra.length > 0) {
    throw usageProblem(`${file === undefined ? 'Give a file.' : 'Give one file.'}\n${usage}`);
  }
  return { file, force: parsed.values.force === true };
}

/** The database's name in a PostgreSQL address. */
function restoredName(url: string): string {
  return decodeURIComponent(new URL(url).pathname.slice(1));
}

/** Quoted for a POSIX shell when it needs to be, so the printed command can be pasted. */
function shellWord(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}

/** DATABASE_URL without its password, and the password apart (for PGPASSWORD, never printed). */
function splitPassword(url: string): { url: string; password: string | null } {
  const parsed = new URL(url);
  const password = parsed.password === '' ? null : decodeURIComponent(parsed.password);
  parsed.password = '';
  return { url: parsed.toString(), password };
}

const passwordNote =
  'the password of DATABASE_URL goes in PGPASSWORD or ~/.pgpass, never on the command line';

/** The first executable `name` on PATH, or null. */
function findOnPath(name: string, env: NodeJS.ProcessEnv): string | null {
  for (const dir of (env.PATH ?? '').split(delimiter)) {
    if (dir === '') continue;
    const candidate = join(dir, name);
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // not here
    }
  }
  return null;
}

/** The schema version of the PostgreSQL database, read without migrating anything. */
async function postgresVersion(databaseUrl: string): Promise<number> {
  const client = new pg.Client({ connectionString: databaseUrl, connectionTimeoutMillis: 5000 });
  const where = describeDatabaseUrl(databaseUrl);
  try {
    await client.connect();
  } catch (error) {
    throw new BackupRefused(
      `could not connect to ${where} (DATABASE_URL): ${error instanceof Error ? error.message : String(error)}.`,
    );
  }
  try {
    const { rows } = await client.query<{ version: number | null }>(
      'SELECT max(version) AS version FROM portal_schema_versions',
    );
    return rows[0]?.version ?? 0;
  } catch {
    throw new BackupRefused(
      `${where} (DATABASE_URL) is not a portal database: it has no schema versions.`,
    );
  } finally {
    await client.end().catch(() => {});
  }
}

function run(
  command: string,
  args: string[],
  env: NodeJS.ProcessEnv,
): Promise<{ ok: boolean; stderr: string }> {
  return new Promise((resolve) => {
    execFile(command, args, { env, maxBuffer: 16 * 1024 * 1024 }, (error, _stdout, stderr) => {
      resolve({ ok: error === null, stderr: stderr || (error?.message ?? '') });
    });
  });
}

async function backupPostgres(
  databaseUrl: string,
  file: string,
  force: boolean,
  io: CliIo,
): Promise<number> {
  const { url, password } = splitPassword(databaseUrl);
  const args = ['--format=custom', `--dbname=${url}`];
  const pgDump = findOnPath('pg_dump', io.env);
  if (pgDump === null) {
    io.stderr(
      `backup: pg_dump is not on PATH (Debian: apt-get install postgresql-client, the server's major version or newer). With DATABASE_URL, back up with:\n  ${['pg_dump', ...args, `--file=${file}`].map(shellWord).join(' ')}\n(${passwordNote}.)\n`,
    );
    return 2;
  }
  refuseToReplace(file, force);
  const version = await postgresVersion(databaseUrl);
  if (version === 0) {
    throw new BackupRefused(
      `${describeDatabaseUrl(databaseUrl)} (DATABASE_URL) is not a portal database yet: nothing to back up.`,
    );
  }
  mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
  const partial = partialBeside(file);
  try {
    // Made before pg_dump fills it, so that its mode is 0600.
    createOwnerOnly(partial);
    const dumped = await run(pgDump, [...args, `--file=${partial}`], {
      ...io.env,
      ...(password === null ? {} : { PGPASSWORD: password }),
    });
    if (!dumped.ok) {
      const line = dumped.stderr.trim().split('\n')[0] ?? '';
      throw new BackupRefused(`pg_dump failed: ${line.replaceAll(password ?? '\0', '***')}`);
    }
    renameSync(partial, file);
  } finally {
    rmSync(partial, { force: true });
  }
  io.stdout(
    `Backed up ${describeDatabaseUrl(databaseUrl)} (DATABASE_URL) to ${file} with pg_dump (custom format): ${statSync(file).size} bytes, schema version ${version}.\n`,
  );
  return 0;
}

/** A refusal of either command is told after its name, like any failure. */
function guarded(
  name: 'backup' | 'restore',
  io: CliIo,
  work: () => Promise<number>,
): Promise<number> {
  return runCommand(name, io, work, { nameRefusals: true });
}

export function runBackupCli(argv: string[], io: CliIo): Promise<number> {
  return guarded('backup', io, async () => {
    const { file, force } = parse(argv, backupUsage, true);
    const config = readPortalConfig(io.env);
    if (config.databaseUrl !== null) return backupPostgres(config.databaseUrl, file, force, io);
    const { bytes, version } = backupSqlite(config.portalDb, file, force);
    io.stdout(
      `Backed up ${config.portalDb} (PORTAL_DB) to ${file}: ${bytes} bytes, schema version ${version}.\n`,
    );
    return 0;
  });
}

/**
 * `npm run restore -- --sent-after-backup URL` on PostgreSQL, after pg_restore: the batches sent
 * after the backup, from the database the restore replaced (kept under another name, at URL),
 * written into the restored one (DATABASE_URL) as for SQLite. Without a password in URL, the one
 * of DATABASE_URL is used (the same account owns both).
 */
async function sentAfterBackupPostgres(
  databaseUrl: string,
  replacedUrl: string,
  io: CliIo,
): Promise<number> {
  let replaced: URL;
  try {
    replaced = new URL(replacedUrl);
  } catch {
    throw usageProblem(
      `--sent-after-backup takes the address of the database the restore replaced (postgres://user@host:port/name), not ${JSON.stringify(replacedUrl.replace(/:[^:@/]*@/, ':***@'))}.\n${restoreUsage}`,
    );
  }
  const restored = new URL(databaseUrl);
  if (replaced.password === '' && replaced.username === restored.username) {
    replaced.password = restored.password;
  }
  if (replaced.host === restored.host && replaced.pathname === restored.pathname) {
    throw usageProblem(
      `--sent-after-backup names the restored database itself (DATABASE_URL); give the one the restore replaced, renamed aside before the restore (docs/deployment.md "Backups").`,
    );
  }
  await postgresVersion(replaced.toString());
  await postgresVersion(databaseUrl);
  const batches = await carryOverPostgres(replaced.toString(), databaseUrl, (io.now ?? Date.now)());
  io.stdout(describeSentAfterBackup(batches));
  return 0;
}

export function runRestoreCli(argv: string[], io: CliIo): Promise<number> {
  return guarded('restore', io, async () => {
    const listOnly = argv[0] === '--sent-after-backup';
    const { file } = parse(listOnly ? argv.slice(1) : argv, restoreUsage, false);
    const config = readPortalConfig(io.env);
    if (listOnly) {
      if (config.databaseUrl === null) {
        throw usageProblem(
          `--sent-after-backup is for PostgreSQL (DATABASE_URL); with PORTAL_DB, npm run restore -- FILE lists those batches itself.`,
        );
      }
      return sentAfterBackupPostgres(config.databaseUrl, file, io);
    }
    if (config.databaseUrl !== null) {
      const { url } = splitPassword(config.databaseUrl);
      const aside = new URL(url);
      aside.pathname = `${aside.pathname}_before_restore`;
      // The command alone on stdout, so a script can take it; what to do around it on stderr.
      io.stderr(
        `restore: with DATABASE_URL, restore with pg_restore into an empty database, with every portal process stopped. As the database's administrator, rename the current database aside (it is what tells which batches were sent after the backup) and create an empty one:\n  psql -c 'ALTER DATABASE ${restoredName(url)} RENAME TO ${restoredName(url)}_before_restore' && createdb --owner ${decodeURIComponent(new URL(url).username) || 'OWNER'} ${restoredName(url)}\nthen run the command below as the portal's user, then list the batches sent after the backup (and keep them from being sent again) with:\n  ${['npm', 'run', 'restore', '--', '--sent-after-backup', aside.toString()].map(shellWord).join(' ')}\n(${passwordNote}; docs/deployment.md "Backups".)\n`,
      );
      io.stdout(
        `${['pg_restore', '--no-owner', '--single-transaction', `--dbname=${url}`, file].map(shellWord).join(' ')}\n`,
      );
      return 0;
    }
    const now = (io.now ?? Date.now)();
    const { version, bytes, keptAs, carried, carryProblem } = restoreSqlite(
      file,
      config.portalDb,
      now,
      portalSchemaVersion,
      (restored, replaced) => carryOverSqlite(replaced, restored, now),
    );
    const upgrade =
      version < portalSchemaVersion
        ? `; the portal upgrades it to ${portalSchemaVersion} when it starts`
        : '';
    const afterBackup =
      carryProblem !== null
        ? `The database it replaced could not be read (${carryProblem}), so the batches sent after the backup are not known: check the VMS for everything sent since the backup.\n`
        : carried === null
          ? ''
          : describeSentAfterBackup(carried);
    io.stdout(
      `Restored ${file} into ${config.portalDb} (PORTAL_DB): ${bytes} bytes, schema version ${version}${upgrade}.\n${keptAs === null ? '' : `The database it replaced is kept as ${keptAs}.\n`}${afterBackup}Start the portal.\n`,
    );
    return 0;
  });
}
