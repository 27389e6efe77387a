import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BodyToKeep, JournalRecord } from '@/server/journal/store/journal-store';
import { portalSchemaVersion } from '@/server/portal-schema';
import type { StoreTarget } from '@/server/store/database';
import { testCredentials } from '@/test-support/capture-upstream';
import { acceptedImport } from '@/test-support/journal-calls';
import { openAtSchemaVersion } from '@/test-support/older-schema';
import { openPortalStores } from '@/test-support/portal-stores';
import { createTestDatabase, postgresEnvName } from '@/test-support/postgres-server';
import { tsxEnv, tsxLoader } from '@/test-support/tsx-child';

/*
 * Upgrades: a database left by the previous release (the schema one version back, made by this
 * code's own migrations stopped early) is brought to the current version at start with what it
 * held intact; a database a newer release has upgraded is refused, saying what to do.
 */

const root = fileURLToPath(new URL('../../..', import.meta.url));
const previous = portalSchemaVersion - 1;
const now = 1_760_000_000_000;

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'portal-upgrade-'));
});
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

function postgresUrl(): string {
  const adminUrl = process.env[postgresEnvName];
  if (!adminUrl) throw new Error(`${postgresEnvName} is unset: the global setup starts it`);
  return createTestDatabase(adminUrl);
}

const targets: Record<'sqlite' | 'postgres', () => StoreTarget> = {
  sqlite: () => ({
    portalDb: join(dir, `portal-${Math.random().toString(36).slice(2)}.db`),
    databaseUrl: null,
  }),
  postgres: () => ({ portalDb: ':memory:', databaseUrl: postgresUrl() }),
};

function body(text: string): BodyToKeep {
  const bytes = Buffer.from(text);
  return {
    sha256: createHash('sha256').update(bytes).digest(),
    size: bytes.length,
    kept: bytes,
    truncated: false,
    redacted: false,
  };
}

const call: JournalRecord = {
  at: now,
  ...acceptedImport,
  url: 'http://vms.example/requisitionimport?Client_Org_Id=1001&Vendor_Org_Id=9001',
  batchId: 'batch-7',
  idempotencyKey: 'key-settled',
  latencyMs: 12.5,
  requestBody: body('[{"titlerole":"Welder"}]'),
  responseBody: body('{"batchid":"batch-7","received":1}'),
  responseHeaders: { 'content-type': 'application/json' },
  sentBy: { userId: 'u-1', email: 'alice@example.com' },
};

/** Makes the schema version `version` newer than this code's, as a newer release would. */
async function pretendNewerRelease(target: StoreTarget, version: number): Promise<void> {
  if (target.databaseUrl === null) {
    const db = new Database(target.portalDb);
    db.pragma(`user_version = ${version}`);
    db.close();
    return;
  }
  const client = new pg.Client({ connectionString: target.databaseUrl });
  await client.connect();
  await client.query(
    'INSERT INTO portal_schema_versions (version, name, applied_at) VALUES ($1, $2, $3)',
    [version, 'from a newer release', Date.now()],
  );
  await client.end();
}

/** `npm start` (main.ts) as a real process on `env`: its exit code and what it printed. */
function startPortalProcess(env: NodeJS.ProcessEnv): Promise<{ code: number; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ['--import', tsxLoader, join(root, 'src/server/main.ts')],
      {
        cwd: dir,
        env: {
          PATH: process.env.PATH,
          ...tsxEnv,
          HOST: '127.0.0.1',
          PORT: '0',
          VMS_BASE_URL: 'http://127.0.0.1:9/',
          VMS_API_KEY: testCredentials.apiKey,
          VMS_API_SECRET: testCredentials.apiSecret,
          VMS_CLIENT_ORGS: '1001',
          VMS_VENDOR_ORG_ID: '9001',
          ...env,
        },
        timeout: 60_000,
      },
      (error, _stdout, stderr) => {
        resolve({ code: error ? Number(error.code ?? 1) : 0, stderr });
      },
    );
  });
}

describe.each(['sqlite', 'postgres'] as const)('upgrading %s', (kind) => {
  it(`brings a version ${previous} database to ${portalSchemaVersion} with its data intact`, async () => {
    const target = targets[kind]();
    const old = await openAtSchemaVersion(target, previous);
    try {
      expect(await old.schemaVersion()).toBe(previous);
      await old.idempotencyKeys.insertInFlight('key-settled', 'fp-1', now);
      await old.idempotencyKeys.settle(
        'key-settled',
        {
          status: 202,
          headers: { 'content-type': 'application/json' },
          body: Buffer.from('{"batchid":"batch-7","received":1}'),
        },
        now + 10,
      );
      await old.idempotencyKeys.insertInFlight('key-in-flight', 'fp-2', now);
      await old.journal.write([call], []);
      expect(
        await old.users.create({
          id: 'u-1',
          email: 'alice@example.com',
          role: 'admin',
          passwordHash: '$argon2id$v=19$m=19456,t=2,p=1$c2FsdA$aGFzaA',
          clientOrgIds: [1001],
          createdAt: now,
        }),
      ).toBe(true);
      await old.sessions.create(Buffer.alloc(32, 7), {
        userId: 'u-1',
        csrfToken: 'csrf-1',
        createdAt: now,
        lastSeenAt: now + 5,
      });
      const put = await old.userRecords.put(
        'u-1',
        'drafts',
        'draft-1',
        { value: '{"titlerole":"Welder"}', baseVersion: 0, deleted: false },
        now,
      );
      expect(put.kind).toBe('stored');
    } finally {
      await old.close();
    }

    const upgraded = await openPortalStores(target);
    try {
      expect(await upgraded.schemaVersion()).toBe(portalSchemaVersion);
      expect(await upgraded.idempotencyKeys.find('key-settled')).toEqual({
        state: 'settled',
        fingerprint: 'fp-1',
        createdAt: now,
        outcome: {
          status: 202,
          headers: { 'content-type': 'application/json' },
          body: Buffer.from('{"batchid":"batch-7","received":1}'),
        },
      });
      expect(await upgraded.idempotencyKeys.find('key-in-flight')).toEqual({
        state: 'in_flight',
        fingerprint: 'fp-2',
        createdAt: now,
      });
      expect(await upgraded.journal.count()).toBe(1);
      const [summary] = await upgraded.journal.list(
        { from: undefined, to: undefined },
        { order: 'newest', from: null, limit: 10 },
      );
      const entry = await upgraded.journal.get(summary?.id ?? -1);
      expect(entry).toMatchObject({
        path: call.path,
        idempotencyKey: 'key-settled',
        batchId: 'batch-7',
        status: 202,
        requestBody: { text: '[{"titlerole":"Welder"}]' },
      });
      expect(await upgraded.users.byEmail('alice@example.com')).toMatchObject({
        id: 'u-1',
        role: 'admin',
        clientOrgIds: [1001],
      });
      expect(await upgraded.sessions.find(Buffer.alloc(32, 7))).toEqual({
        userId: 'u-1',
        csrfToken: 'csrf-1',
        createdAt: now,
        lastSeenAt: now + 5,
      });
      const drafts = await upgraded.userRecords.changedSince('u-1', 'drafts', 0, 10);
      expect(drafts.records).toMatchObject([
        { key: 'draft-1', value: { titlerole: 'Welder' }, version: 1, deleted: false },
      ]);
    } finally {
      await upgraded.close();
    }
  });

  it('refuses a database a newer release has upgraded, saying what to do', async () => {
    const target = targets[kind]();
    await (await openPortalStores(target)).close();
    await pretendNewerRelease(target, portalSchemaVersion + 1);

    const setting = kind === 'sqlite' ? 'PORTAL_DB' : 'DATABASE_URL';
    await expect(openPortalStores(target)).rejects.toThrow(
      `its schema is version ${portalSchemaVersion + 1}, newer than this portal knows (it supports up to version ${portalSchemaVersion})`,
    );
    // The portal itself, started as `npm start` starts it: exit 1 and the whole advice.
    const started = await startPortalProcess(
      kind === 'sqlite'
        ? { PORTAL_DB: target.portalDb }
        : { DATABASE_URL: target.databaseUrl ?? '' },
    );
    expect(started.code).toBe(1);
    expect(started.stderr).toContain(`Could not start: The portal database`);
    expect(started.stderr).toContain(`(${setting}) could not be prepared`);
    expect(started.stderr).toContain(`its schema is version ${portalSchemaVersion + 1}`);
    expect(started.stderr).toContain(`up to version ${portalSchemaVersion}`);
    expect(started.stderr).toContain('Run that newer release');
    expect(started.stderr).toContain('restore the backup taken before the upgrade');
  });
});
