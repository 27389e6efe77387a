import { execFile, spawnSync } from 'node:child_process';
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import pg from 'pg';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { portalSchemaVersion } from '@/server/portal-schema';
import { REPLAYED_HEADER } from '@/server/proxy/vms-proxy';
import {
  requisitionImportPath,
  startCaptureUpstream,
  startTestPortal,
  testConfig,
  type CaptureUpstream,
  type TestPortal,
} from '@/test-support/capture-upstream';
import { openAtSchemaVersion } from '@/test-support/older-schema';
import { openPortalSqlite } from '@/test-support/portal-stores';
import { openPortalStores } from '@/test-support/portal-stores';
import { createTestDatabase, pgBinary, postgresEnvName } from '@/test-support/postgres-server';
import { tsxEnv, tsxLoader } from '@/test-support/tsx-child';

/*
 * `npm run backup` and `npm run restore` as real processes, against a real portal writing to a
 * real SQLite file or PostgreSQL server. What a backup is for: after a restore, a batch the VMS
 * already has is answered from its idempotency key, never sent a second time.
 */

const root = fileURLToPath(new URL('../../..', import.meta.url));
const batch = '[{"titlerole":"Welder"},{"titlerole":"Fitter"}]';
const listPath = '/api/vms/requisitions?Client_Org_Id=1001&Vendor_Org_Id=9001';

let dir: string;
let upstream: CaptureUpstream;
let batchNumber = 0;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'portal-backup-'));
  upstream = await startCaptureUpstream();
});

afterAll(async () => {
  await upstream.close();
  rmSync(dir, { recursive: true, force: true });
});

/** Lets the batch held at the VMS during a backup be answered (see beforeEach). */
let releaseSlow: () => void = () => {};

beforeEach(() => {
  const slowReleased = new Promise<void>((resolve) => (releaseSlow = resolve));
  // A fresh batch id per VMS call tells a replay from a second send.
  upstream.respondWith((request) => {
    if (request.method !== 'POST') {
      return { status: 200, headers: { 'content-type': 'application/json' }, body: '[]' };
    }
    batchNumber += 1;
    return {
      status: 202,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ batchid: `b-${batchNumber}`, received: 2 }),
      // The batch keyed "slow" is still at the VMS while the backup is taken, until the test
      // releases it (a fixed delay ran out first on a loaded machine).
      ...(request.body.includes('Slow') ? { until: slowReleased } : {}),
    };
  });
});

/** The portal under test; busy on purpose, so without the per-client rate limit (0: off). */
const portalConfig = (env: NodeJS.ProcessEnv) =>
  testConfig(upstream.url, { PORTAL_RATE_LIMIT_PER_MINUTE: '0', ...env });

const posts = () => upstream.requests.filter((request) => request.method === 'POST').length;

/** `npm run backup|restore -- …` as tsx runs it, in `cwd`, with `env` as the whole environment. */
function npmRun(
  command: 'backup' | 'restore',
  args: string[],
  env: NodeJS.ProcessEnv,
): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ['--import', tsxLoader, join(root, `src/server/cli/${command}-main.ts`), ...args],
      { cwd: dir, env: { PATH: process.env.PATH, ...tsxEnv, ...env }, timeout: 60_000 },
      (error, stdout, stderr) => {
        resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr });
      },
    );
  });
}

function send(portal: TestPortal, key: string, body = batch) {
  return portal.call('POST', requisitionImportPath, {
    headers: { 'content-type': 'application/json', 'idempotency-key': key },
    body,
  });
}

/** Journal writes, one after another, until `stop` is called: the portal busy during a backup. */
function keepWriting(portal: TestPortal): { stop: () => Promise<number> } {
  let running = true;
  let calls = 0;
  const loop = (async () => {
    while (running) {
      await portal.call('GET', listPath);
      calls += 1;
    }
  })();
  return {
    stop: async () => {
      running = false;
      await loop;
      return calls;
    },
  };
}

async function waitFor(condition: () => boolean): Promise<void> {
  const until = Date.now() + 10_000;
  while (!condition()) {
    if (Date.now() > until) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

function readSqlite<Row>(path: string, sql: string): Row[] {
  const db = new Database(path, { readonly: true, fileMustExist: true });
  try {
    return db.prepare<[], Row>(sql).all();
  } finally {
    db.close();
  }
}

const slowBatch = '[{"titlerole":"Slow welder"}]';

describe('npm run backup and restore, SQLite', () => {
  let dbPath: string;
  let backupFile: string;

  beforeAll(() => {
    dbPath = join(dir, 'sqlite', 'portal.db');
    backupFile = join(dir, 'backups', 'portal-1.db');
  });

  it('copies a running, writing portal; restored, a batch resent with its key is not sent again, and one sent after the backup is listed and refused', async () => {
    upstream.requests.length = 0;
    let portal = await startTestPortal(portalConfig({ PORTAL_DB: dbPath }));
    let writes: { stop: () => Promise<number> } | undefined;
    try {
      const first = await send(portal, 'key-before-backup');
      expect(first.status).toBe(202);
      // A keyed send still at the VMS, and journal writes, while the backup runs.
      const slow = send(portal, 'key-in-flight', slowBatch);
      await waitFor(() => posts() === 2);
      writes = keepWriting(portal);
      const backedUp = await npmRun('backup', [backupFile], { PORTAL_DB: dbPath });
      expect(backedUp.stderr).toBe('');
      expect(backedUp.code).toBe(0);
      expect(backedUp.stdout).toMatch(
        new RegExp(
          `^Backed up .*portal\\.db \\(PORTAL_DB\\) to .*portal-1\\.db: \\d+ bytes, schema version ${portalSchemaVersion}\\.\\n$`,
        ),
      );
      expect(await writes.stop()).toBeGreaterThan(0);
      releaseSlow();
      expect((await slow).status).toBe(202);
      // Sent after the backup: the restore goes back to before it.
      expect((await send(portal, 'key-after-backup')).status).toBe(202);
    } finally {
      releaseSlow();
      await writes?.stop();
      await portal.close();
    }
    expect(posts()).toBe(3);

    // The copy is one consistent file, 0600, holding the keys as they were.
    expect(existsSync(`${backupFile}-wal`)).toBe(false);
    expect(statSync(backupFile).mode & 0o777).toBe(0o600);
    expect(
      readSqlite<{ r: string }>(
        backupFile,
        'SELECT integrity_check AS r FROM pragma_integrity_check',
      ),
    ).toEqual([{ r: 'ok' }]);
    expect(
      readSqlite<{ key: string; state: string }>(
        backupFile,
        'SELECT key, state FROM idempotency_keys ORDER BY key',
      ),
    ).toEqual([
      { key: 'key-before-backup', state: 'settled' },
      { key: 'key-in-flight', state: 'in_flight' },
    ]);
    expect(
      readSqlite<{ n: number }>(backupFile, 'SELECT count(*) AS n FROM journal_calls')[0]?.n,
    ).toBeGreaterThan(1);

    const sentAt = readSqlite<{ created_at: number }>(
      dbPath,
      "SELECT created_at FROM idempotency_keys WHERE key = 'key-after-backup'",
    )[0]?.created_at;
    const restored = await npmRun('restore', [backupFile], { PORTAL_DB: dbPath });
    expect(restored.stderr).toBe('');
    expect(restored.code).toBe(0);
    const kept = /kept as (.*\.before-restore-[0-9TZ-]+)\.\n/.exec(restored.stdout)?.[1];
    expect(restored.stdout).toContain(`schema version ${portalSchemaVersion}`);
    expect(kept).toBeDefined();
    // The one batch sent after the backup, as the replaced database's audit trail had it: the
    // VMS's third batch, two items, on the default connection, sent without sign-in.
    expect(restored.stdout).toContain(
      `\nSent after the backup was taken (1 batch): the VMS has them, or may have them, but the restored database does not. Check the VMS before sending any of them again; the portal refuses to send them again with the same key.\n  ${new Date(sentAt ?? 0).toISOString()}  batch b-3  connection default  by (not recorded)  2 items  key key-after-backup\nStart the portal.\n`,
    );
    // The database it replaced is kept whole, with what was written after the backup.
    expect(
      readSqlite<{ key: string }>(kept ?? '', 'SELECT key FROM idempotency_keys ORDER BY key'),
    ).toEqual([
      { key: 'key-after-backup' },
      { key: 'key-before-backup' },
      { key: 'key-in-flight' },
    ]);
    expect(existsSync(`${dbPath}-wal`)).toBe(false);
    expect(statSync(dbPath).mode & 0o777).toBe(0o600);

    portal = await startTestPortal(portalConfig({ PORTAL_DB: dbPath }));
    try {
      const again = await send(portal, 'key-before-backup');
      expect(again.status).toBe(202);
      expect(again.headers[REPLAYED_HEADER]).toBe('true');
      expect(JSON.parse(again.body.toString())).toEqual({ batchid: 'b-1', received: 2 });
      // In flight when the backup was taken: its outcome is unknown, so it is never resent.
      const unknown = await send(portal, 'key-in-flight', slowBatch);
      expect(unknown.status).toBe(409);
      expect(JSON.parse(unknown.body.toString())).toMatchObject({
        error: { code: 'outcome_unknown' },
      });
      // Sent after the backup: not in the backup, yet refused, saying so, rather than sent again.
      const afterBackup = await send(portal, 'key-after-backup');
      expect(afterBackup.status).toBe(409);
      const refusal = JSON.parse(afterBackup.body.toString()) as {
        error: { code: string; message: string; details: unknown };
      };
      expect(refusal.error.code).toBe('outcome_unknown');
      expect(refusal.error.details).toEqual([
        { field: 'Idempotency-Key', message: 'sent after the backup was taken' },
      ]);
      expect(refusal.error.message).toContain(
        `This batch was sent after the backup was taken (batch b-3, sent ${new Date(sentAt ?? 0).toISOString()}, to the connection default, 2 items)`,
      );
      expect(refusal.error.message).toContain('Check the VMS before sending again');
      expect(posts()).toBe(3);
      // What the Submissions page reads to mark it.
      const listed = await portal.call('GET', '/api/sent-after-backup');
      expect(JSON.parse(listed.body.toString())).toEqual({
        batches: [
          {
            batchId: 'b-3',
            connection: 'default',
            email: null,
            sentAt: new Date(sentAt ?? 0).toISOString(),
            itemCount: 2,
          },
        ],
      });
    } finally {
      await portal.close();
    }
  }, 90_000);

  it('refuses to restore while the portal runs, and moves nothing', async () => {
    const portal = await startTestPortal(portalConfig({ PORTAL_DB: dbPath }));
    try {
      const before = readdirSync(dirname(dbPath)).sort();
      const refused = await npmRun('restore', [backupFile], { PORTAL_DB: dbPath });
      expect(refused.code).toBe(1);
      expect(refused.stdout).toBe('');
      expect(refused.stderr).toBe(
        `restore: the portal is running: ${dbPath} (PORTAL_DB) is in use by another process. Stop the portal (and any npm run users or backup), then restore.\n`,
      );
      expect(readdirSync(dirname(dbPath)).sort()).toEqual(before);
      // Still the portal's: it goes on answering from its keys.
      expect((await send(portal, 'key-before-backup')).headers[REPLAYED_HEADER]).toBe('true');
    } finally {
      await portal.close();
    }
  });

  it('refuses a file that is not a portal database, and one from a newer release', async () => {
    const text = join(dir, 'notes.txt');
    writeFileSync(text, 'not a database at all, just some text that is long enough'.repeat(20));
    const otherSqlite = join(dir, 'other.db');
    const other = new Database(otherSqlite);
    other.exec('CREATE TABLE things (x INTEGER)');
    other.close();
    const newer = join(dir, 'newer.db');
    copyFileSync(backupFile, newer);
    const bumped = new Database(newer);
    bumped.pragma(`user_version = ${portalSchemaVersion + 1}`);
    bumped.close();
    const before = readFileSync(dbPath);
    const listing = readdirSync(dirname(dbPath)).sort();

    const notDb = await npmRun('restore', [text], { PORTAL_DB: dbPath });
    expect(notDb.code).toBe(1);
    expect(notDb.stderr).toBe(
      `restore: ${text} is not a portal database: file is not a database.\n`,
    );
    const notPortal = await npmRun('restore', [otherSqlite], { PORTAL_DB: dbPath });
    expect(notPortal.code).toBe(1);
    expect(notPortal.stderr).toBe(
      `restore: ${otherSqlite} is not a portal database: an SQLite file without the portal's tables.\n`,
    );
    const tooNew = await npmRun('restore', [newer], { PORTAL_DB: dbPath });
    expect(tooNew.code).toBe(1);
    expect(tooNew.stderr).toBe(
      `restore: ${newer} has schema version ${portalSchemaVersion + 1}, newer than this portal supports (${portalSchemaVersion}): it was taken from a newer release; restore it with that release.\n`,
    );
    const missing = await npmRun('restore', [join(dir, 'nowhere.db')], { PORTAL_DB: dbPath });
    expect(missing.code).toBe(1);
    expect(missing.stderr).toBe(`restore: the backup ${join(dir, 'nowhere.db')} does not exist.\n`);
    // Nothing was moved or changed.
    expect(readdirSync(dirname(dbPath)).sort()).toEqual(listing);
    expect(readFileSync(dbPath).equals(before)).toBe(true);
  });

  it('restores a backup from the previous schema version, which the portal then upgrades', async () => {
    const old = join(dir, 'previous-release.db');
    const stores = await openAtSchemaVersion(
      { portalDb: old, databaseUrl: null },
      portalSchemaVersion - 1,
    );
    await stores.idempotencyKeys.insertInFlight('old-key', 'fp', 1);
    await stores.close();
    const fresh = join(dir, 'fresh', 'deployment', 'portal.db');

    const restored = await npmRun('restore', [old], { PORTAL_DB: fresh });
    expect(restored.stderr).toBe('');
    expect(restored.code).toBe(0);
    expect(restored.stdout).toMatch(
      new RegExp(
        `^Restored .* into .*portal\\.db \\(PORTAL_DB\\): \\d+ bytes, schema version ${portalSchemaVersion - 1}; the portal upgrades it to ${portalSchemaVersion} when it starts\\.\\nStart the portal\\.\\n$`,
      ),
    );
    expect(statSync(dirname(fresh)).mode & 0o777).toBe(0o700);
    const upgraded = await openPortalStores({ portalDb: fresh, databaseUrl: null });
    try {
      expect(await upgraded.schemaVersion()).toBe(portalSchemaVersion);
      expect(await upgraded.idempotencyKeys.find('old-key')).toMatchObject({ state: 'in_flight' });
    } finally {
      await upgraded.close();
    }
  });

  it('refuses to overwrite a file unless --force, and says what is wrong in one line', async () => {
    const existing = join(dir, 'existing.db');
    writeFileSync(existing, 'keep me');
    const refused = await npmRun('backup', [existing], { PORTAL_DB: dbPath });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toBe(
      `backup: ${existing} already exists; choose another name or add --force.\n`,
    );
    expect(readFileSync(existing, 'utf8')).toBe('keep me');

    const forced = await npmRun('backup', ['--force', existing], { PORTAL_DB: dbPath });
    expect(forced.code).toBe(0);
    // The portal is stopped: the backup leaves no -wal or -shm of its own beside its database.
    expect(readdirSync(dirname(dbPath)).filter((name) => /^portal\.db-/.test(name))).toEqual([]);
    // The backup's two keys, and the one the restore wrote back: sent after that backup.
    expect(
      readSqlite<{ key: string; state: string }>(
        existing,
        'SELECT key, state FROM idempotency_keys ORDER BY key',
      ),
    ).toEqual([
      { key: 'key-after-backup', state: 'unknown' },
      { key: 'key-before-backup', state: 'settled' },
      { key: 'key-in-flight', state: 'unknown' },
    ]);

    const noDatabase = await npmRun('backup', [join(dir, 'x.db')], {
      PORTAL_DB: join(dir, 'missing', 'portal.db'),
    });
    expect(noDatabase.code).toBe(1);
    expect(noDatabase.stderr).toBe(
      `backup: the portal database ${join(dir, 'missing', 'portal.db')} (PORTAL_DB) does not exist.\n`,
    );
    expect(existsSync(join(dir, 'missing'))).toBe(false);

    const notPortal = await npmRun('backup', [join(dir, 'y.db')], {
      PORTAL_DB: join(dir, 'notes.txt'),
    });
    expect(notPortal.code).toBe(1);
    expect(notPortal.stderr).toBe(
      `backup: ${join(dir, 'notes.txt')} is not a portal database: file is not a database.\n`,
    );
    expect(existsSync(join(dir, 'y.db'))).toBe(false);

    const usage = await npmRun('backup', [], { PORTAL_DB: dbPath });
    expect(usage.code).toBe(2);
    expect(usage.stderr).toBe('backup: Give a file.\nusage: npm run backup -- [--force] FILE\n');
  });
});

describe('npm run backup on a full disk', () => {
  it('says so in one line and leaves no partial file', async (context) => {
    // A real full disk: a 256 KiB tmpfs. Mounting needs root; elsewhere this test is skipped.
    const small = join(dir, 'small-disk');
    rmSync(small, { recursive: true, force: true });
    mkdirSync(small);
    const mounted = spawnSync('mount', ['-t', 'tmpfs', '-o', 'size=256k', 'tmpfs', small]);
    if (mounted.status !== 0) context.skip('mounting a small tmpfs needs root');
    try {
      const big = join(dir, 'big', 'portal.db');
      const opened = await openPortalSqlite(big);
      opened.db
        .prepare(
          "INSERT INTO idempotency_keys (key, fingerprint, state, created_at, body) VALUES ('k', 'f', 'settled', 1, randomblob(1048576))",
        )
        .run();
      await opened.close();

      const copy = join(small, 'portal.db');
      const full = await npmRun('backup', [copy], { PORTAL_DB: big });
      expect(full.stdout).toBe('');
      expect(full.stderr).toBe(`backup: could not write ${copy}: the disk is full.\n`);
      expect(full.code).toBe(1);
      expect(readdirSync(small)).toEqual([]);
    } finally {
      spawnSync('umount', [small]);
    }
  });
});

describe('npm run backup and restore, PostgreSQL (pg_dump, pg_restore)', () => {
  const password = 'hunter2-not-printed';
  /** PATH with PostgreSQL's programs on it, as on a database host. */
  const pgPath = `${dirname(pgBinary('pg_dump'))}${delimiter}${process.env.PATH ?? ''}`;

  function withPassword(url: string): string {
    const parsed = new URL(url);
    parsed.password = password;
    return parsed.toString();
  }

  function adminUrl(): string {
    const url = process.env[postgresEnvName];
    if (!url) throw new Error(`${postgresEnvName} is unset: the global setup starts it`);
    return url;
  }

  it('dumps a running, writing portal; restored into an empty database, a resent batch is replayed, and one sent after the backup is listed and refused', async () => {
    upstream.requests.length = 0;
    const source = withPassword(createTestDatabase(adminUrl()));
    const dump = join(dir, 'backups', 'portal.dump');
    let portal = await startTestPortal(portalConfig({ DATABASE_URL: source }));
    let writes: { stop: () => Promise<number> } | undefined;
    let firstAnswer: unknown;
    let afterBackupBatch: unknown;
    try {
      const first = await send(portal, 'pg-key-before-backup');
      expect(first.status).toBe(202);
      firstAnswer = JSON.parse(first.body.toString());
      const slow = send(portal, 'pg-key-in-flight', slowBatch);
      await waitFor(() => posts() === 2);
      writes = keepWriting(portal);

      // Without pg_dump on PATH: the command to run, without the password.
      const printed = await npmRun('backup', [dump], {
        DATABASE_URL: source,
        PATH: dirname(process.execPath),
      });
      expect(printed.code).toBe(2);
      expect(printed.stderr).toContain('backup: pg_dump is not on PATH');
      expect(printed.stderr).toContain(
        `  pg_dump --format=custom --dbname=${source.replace(`:${password}`, '')} --file=${dump}\n`,
      );
      expect(printed.stderr).not.toContain(password);
      expect(existsSync(dump)).toBe(false);

      const dumped = await npmRun('backup', [dump], { DATABASE_URL: source, PATH: pgPath });
      expect(dumped.stderr).toBe('');
      expect(dumped.code).toBe(0);
      expect(dumped.stdout).toMatch(
        new RegExp(
          `^Backed up 127\\.0\\.0\\.1:\\d+/t_\\w+ \\(DATABASE_URL\\) to .*portal\\.dump with pg_dump \\(custom format\\): \\d+ bytes, schema version ${portalSchemaVersion}\\.\\n$`,
        ),
      );
      expect(dumped.stdout).not.toContain(password);
      expect(statSync(dump).mode & 0o777).toBe(0o600);
      expect(await writes.stop()).toBeGreaterThan(0);
      releaseSlow();
      expect((await slow).status).toBe(202);
      // Sent after the backup: the restore goes back to before it.
      const late = await send(portal, 'pg-key-after-backup');
      expect(late.status).toBe(202);
      afterBackupBatch = (JSON.parse(late.body.toString()) as { batchid: unknown }).batchid;
    } finally {
      releaseSlow();
      await writes?.stop();
      await portal.close();
    }
    expect(posts()).toBe(3);

    // Restore prints the pg_restore command for an empty database, alone on its line of stdout,
    // and exits 0; run as printed, it works. (`source` plays the database renamed aside.)
    const target = withPassword(createTestDatabase(adminUrl()));
    const restore = await npmRun('restore', [dump], { DATABASE_URL: target, PATH: pgPath });
    expect(restore.code).toBe(0);
    expect(restore.stderr).not.toContain(password);
    expect(restore.stdout).not.toContain(password);
    const command = `pg_restore --no-owner --single-transaction --dbname=${target.replace(`:${password}`, '')} ${dump}`;
    expect(restore.stdout).toBe(`${command}\n`);
    expect(restore.stderr).toContain(' --sent-after-backup ');
    const restored = await new Promise<{ code: number; stderr: string }>((resolve) => {
      execFile(
        'sh',
        ['-c', command],
        { env: { PATH: pgPath, PGPASSWORD: password } },
        (error, _stdout, stderr) => resolve({ code: error ? Number(error.code ?? 1) : 0, stderr }),
      );
    });
    expect(restored.stderr).toBe('');
    expect(restored.code).toBe(0);
    const client = new pg.Client({ connectionString: target });
    await client.connect();
    const { rows } = await client.query<{ key: string; state: string }>(
      'SELECT key, state FROM idempotency_keys ORDER BY key',
    );
    await client.end();
    expect(rows).toEqual([
      { key: 'pg-key-before-backup', state: 'settled' },
      { key: 'pg-key-in-flight', state: 'in_flight' },
    ]);

    // The documented command lists the batch sent after the backup, from the database the
    // restore replaced, and keeps it from being sent again; run twice, it says the same.
    const sourceClient = new pg.Client({ connectionString: source });
    await sourceClient.connect();
    const { rows: sent } = await sourceClient.query<{ created_at: string }>(
      "SELECT created_at FROM idempotency_keys WHERE key = 'pg-key-after-backup'",
    );
    await sourceClient.end();
    const sentAt = new Date(Number(sent[0]?.created_at)).toISOString();
    const listing = `Sent after the backup was taken (1 batch): the VMS has them, or may have them, but the restored database does not. Check the VMS before sending any of them again; the portal refuses to send them again with the same key.\n  ${sentAt}  batch ${String(afterBackupBatch)}  connection default  by (not recorded)  2 items  key pg-key-after-backup\n`;
    for (let run = 0; run < 2; run += 1) {
      const listed = await npmRun(
        'restore',
        ['--sent-after-backup', source.replace(`:${password}`, '')],
        {
          DATABASE_URL: target,
          PATH: pgPath,
        },
      );
      expect(listed.stderr).toBe('');
      expect(listed.code).toBe(0);
      expect(listed.stdout).toBe(listing);
    }

    portal = await startTestPortal(portalConfig({ DATABASE_URL: target }));
    try {
      const again = await send(portal, 'pg-key-before-backup');
      expect(again.status).toBe(202);
      expect(again.headers[REPLAYED_HEADER]).toBe('true');
      expect(JSON.parse(again.body.toString())).toEqual(firstAnswer);
      const afterBackup = await send(portal, 'pg-key-after-backup');
      expect(afterBackup.status).toBe(409);
      expect(JSON.parse(afterBackup.body.toString())).toMatchObject({
        error: {
          code: 'outcome_unknown',
          details: [{ field: 'Idempotency-Key', message: 'sent after the backup was taken' }],
        },
      });
      expect(posts()).toBe(3);
      const listed = await portal.call('GET', '/api/sent-after-backup');
      expect(JSON.parse(listed.body.toString())).toEqual({
        batches: [
          { batchId: afterBackupBatch, connection: 'default', email: null, sentAt, itemCount: 2 },
        ],
      });
    } finally {
      await portal.close();
    }
  }, 90_000);
});
