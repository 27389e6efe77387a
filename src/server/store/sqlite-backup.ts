import {
  closeSync,
  existsSync,
  fsyncSync,
  mkdirSync,
  openSync,
  renameSync,
  rmSync,
  statSync,
} from 'node:fs';
import { dirname, join } from 'node:path';
import Database from 'better-sqlite3';

/**
 * Backups of the SQLite portal database (`npm run backup` / `npm run restore`, docs/deployment.md
 * "Backups"). A copy is made with `VACUUM INTO` from one read transaction: a consistent snapshot
 * of every committed write, the WAL's included, taken while the portal keeps writing (WAL readers
 * never block the writer), and one self-contained file with no -wal beside it.
 */

/** Refused or failed: `message` is the one line the command prints. */
export class BackupRefused extends Error {
  override name = 'BackupRefused';
}

/** Refused when `file` exists and --force was not given: a backup replaces no file unasked. */
export function refuseToReplace(file: string, force: boolean): void {
  if (existsSync(file) && !force) {
    throw new BackupRefused(`${file} already exists; choose another name or add --force.`);
  }
}

/** A temporary name beside `destination`, for a copy that takes its name only once whole. */
export function partialBeside(destination: string): string {
  return join(dirname(destination), `.${Date.now()}-${process.pid}.partial`);
}

/**
 * Creates `path` empty and readable by its owner only (0600), before anything writes to it: a
 * backup holds accounts and every call's bodies. Fails when it exists.
 */
export function createOwnerOnly(path: string): void {
  closeSync(openSync(path, 'wx', 0o600));
}

/** A tip of SQLite's or the file system's error code, for one readable line. */
function describeFailure(error: unknown): string {
  const code = typeof error === 'object' && error !== null ? Reflect.get(error, 'code') : undefined;
  if (code === 'SQLITE_FULL' || code === 'ENOSPC') return 'the disk is full';
  if (code === 'SQLITE_READONLY' || code === 'EACCES' || code === 'EPERM') {
    return `permission denied (${error instanceof Error ? error.message : String(error)})`;
  }
  return error instanceof Error ? error.message : String(error);
}

/**
 * The schema version of a portal database, checked to be one: an SQLite file, with a schema
 * version this code's migrations could have made and their first table. Throws BackupRefused.
 */
function portalVersionOf(db: Database.Database, path: string): number {
  let version: number;
  let hasKeys: boolean;
  try {
    version = Number(db.pragma('user_version', { simple: true }));
    hasKeys =
      db
        .prepare("SELECT 1 FROM sqlite_schema WHERE type = 'table' AND name = 'idempotency_keys'")
        .get() !== undefined;
  } catch (error) {
    throw new BackupRefused(`${path} is not a portal database: ${describeFailure(error)}.`, {
      cause: error,
    });
  }
  if (version < 1 || !hasKeys) {
    throw new BackupRefused(
      `${path} is not a portal database: an SQLite file without the portal's tables.`,
    );
  }
  return version;
}

function checkIntegrity(db: Database.Database, path: string): void {
  const result = db.pragma('integrity_check', { simple: true });
  if (result !== 'ok') {
    throw new BackupRefused(`${path} is damaged (integrity check: ${String(result)}).`);
  }
}

/**
 * Copies the database `source` (open read-only) into `destination` through a temporary file
 * beside it, made 0600 before SQLite writes to it (it holds accounts and every call's bodies),
 * flushed to disk and checked before it takes the destination's name: a failed copy never leaves
 * a half-written file under the name a later restore would trust.
 */
function copyInto(source: Database.Database, destination: string): { bytes: number } {
  const partial = partialBeside(destination);
  try {
    // VACUUM INTO writes into an empty file it finds; made here so that its mode is 0600.
    createOwnerOnly(partial);
    source.prepare('VACUUM INTO ?').run(partial);
    const fd = openSync(partial, 'r+');
    try {
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    const copy = new Database(partial, { fileMustExist: true });
    try {
      checkIntegrity(copy, destination);
    } finally {
      copy.close();
    }
    renameSync(partial, destination);
    return { bytes: statSync(destination).size };
  } catch (error) {
    rmSync(partial, { force: true });
    if (error instanceof BackupRefused) throw error;
    throw new BackupRefused(`could not write ${destination}: ${describeFailure(error)}.`, {
      cause: error,
    });
  }
}

/**
 * Opens `path`, which must exist; BackupRefused, naming it as `what`, when it is missing. The
 * backup's source is opened read-write though nothing here writes to it (VACUUM INTO, refused
 * under query_only, writes only its target): as the last connection to close, it lets SQLite fold
 * and remove the -wal and -shm it made, so a backup of a stopped portal leaves its folder as it
 * found it.
 */
function openExisting(path: string, what: string, readonly: boolean): Database.Database {
  if (!existsSync(path)) throw new BackupRefused(`${what} does not exist.`);
  try {
    return new Database(path, { readonly, fileMustExist: true, timeout: 5000 });
  } catch (error) {
    throw new BackupRefused(`could not open ${what}: ${describeFailure(error)}.`, {
      cause: error,
    });
  }
}

export interface BackupResult {
  file: string;
  bytes: number;
  version: number;
}

/**
 * `npm run backup -- FILE` on SQLite: a consistent copy of the portal database while the portal
 * runs. An existing FILE is replaced only with `force`.
 */
export function backupSqlite(portalDb: string, file: string, force: boolean): BackupResult {
  refuseToReplace(file, force);
  const source = openExisting(portalDb, `the portal database ${portalDb} (PORTAL_DB)`, false);
  try {
    const version = portalVersionOf(source, portalDb);
    mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
    const { bytes } = copyInto(source, file);
    return { file, bytes, version };
  } finally {
    source.close();
  }
}

/**
 * Whether a process has `path` open as an SQLite database: the portal, `npm run users` or a
 * backup. Every connection to a WAL-mode database holds a shared lock on the file for as long as
 * it is open, so an exclusive lock (locking_mode EXCLUSIVE, no waiting) is refused exactly while
 * one does; the operating system drops a process's locks when it ends, even when it crashed, so
 * nothing stale is left to clear. The connection that gets the lock folds the WAL into the file
 * first, so the database put aside is one file that opens alone.
 */
function refuseWhileInUse(path: string): void {
  let db: Database.Database;
  try {
    db = new Database(path, { fileMustExist: true, timeout: 0 });
  } catch {
    // Not openable as a database at all: no portal is using it either.
    return;
  }
  try {
    db.pragma('locking_mode = EXCLUSIVE');
    db.exec('BEGIN EXCLUSIVE');
    db.exec('COMMIT');
    db.pragma('wal_checkpoint(TRUNCATE)');
  } catch (error) {
    const code = Reflect.get(error as object, 'code');
    if (code === 'SQLITE_BUSY' || code === 'SQLITE_LOCKED') {
      throw new BackupRefused(
        `the portal is running: ${path} (PORTAL_DB) is in use by another process. Stop the portal (and any npm run users or backup), then restore.`,
      );
    }
    // A damaged file: the restore replaces it, keeping it aside as it is.
  } finally {
    db.close();
  }
}

export interface RestoreResult<T> {
  version: number;
  bytes: number;
  /** Where the database it replaced was put, or null when there was none. */
  keptAs: string | null;
  /** What `carryOver` returned; null when there was no database to replace. */
  carried: T | null;
  /** Why `carryOver` failed (a damaged database replaced), or null. */
  carryProblem: string | null;
}

/** A name for the time of a restore that sorts and is valid in every file system: no colons. */
function stamp(now: number): string {
  return new Date(now).toISOString().replace(/[:.]/g, '-');
}

/**
 * `npm run restore -- FILE` on SQLite, into a stopped deployment: FILE is checked (a portal
 * database, whole, its schema not newer than this code's) and copied beside PORTAL_DB before
 * anything is moved; then, once the portal is known to be stopped, `carryOver` reads the current
 * database and writes into the copy what must survive the restore (the batches sent after the
 * backup); then the current database, with its -wal and -shm if it has them, is renamed
 * `portal.db.before-restore-<time>` (kept, never deleted), and the copy takes its name, with no
 * -wal or -shm beside it for SQLite to mistake for its own.
 */
export function restoreSqlite<T>(
  file: string,
  portalDb: string,
  now: number,
  /** The newest schema version this portal knows (portal-schema.ts): a newer backup is refused. */
  portalSchemaVersion: number,
  carryOver: (restored: Database.Database, replaced: string) => T,
): RestoreResult<T> {
  const backup = openExisting(file, `the backup ${file}`, true);
  const folder = dirname(portalDb);
  mkdirSync(folder, { recursive: true, mode: 0o700 });
  const incoming = join(folder, `.${stamp(now)}-${process.pid}.restoring`);
  let version: number;
  let bytes: number;
  try {
    version = portalVersionOf(backup, file);
    if (version > portalSchemaVersion) {
      throw new BackupRefused(
        `${file} has schema version ${version}, newer than this portal supports (${portalSchemaVersion}): it was taken from a newer release; restore it with that release.`,
      );
    }
    checkIntegrity(backup, file);
    ({ bytes } = copyInto(backup, incoming));
  } finally {
    backup.close();
  }
  try {
    let carried: T | null = null;
    let carryProblem: string | null = null;
    if (existsSync(portalDb)) {
      refuseWhileInUse(portalDb);
      const restored = new Database(incoming, { fileMustExist: true });
      try {
        carried = carryOver(restored, portalDb);
      } catch (error) {
        // A damaged database is still replaced (and kept aside); only its list is lost.
        carryProblem = describeFailure(error);
      } finally {
        restored.close();
      }
    }
    // A -wal or -shm left without its file goes aside too: SQLite would replay a stray WAL into
    // the restored file. Each keeps its suffix, so the kept file opens with its own WAL.
    const present = ['-wal', '-shm', ''].filter((suffix) => existsSync(`${portalDb}${suffix}`));
    const keptAs = present.length > 0 ? `${portalDb}.before-restore-${stamp(now)}` : null;
    for (const suffix of present) renameSync(`${portalDb}${suffix}`, `${keptAs}${suffix}`);
    renameSync(incoming, portalDb);
    const dir = openSync(folder, 'r');
    try {
      fsyncSync(dir);
    } finally {
      closeSync(dir);
    }
    return { version, bytes, keptAs, carried, carryProblem };
  } finally {
    rmSync(incoming, { force: true });
  }
}
