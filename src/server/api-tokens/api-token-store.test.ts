import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createPool } from '@/server/store/postgres/pool';
import { openPortalSqlite } from '@/test-support/portal-stores';
import { openPortalStores, type PortalStores } from '@/test-support/portal-stores';
import { createTestDatabase, postgresEnvName } from '@/test-support/postgres-server';
import { createApiTokenStore, type ApiTokenStore, type StoredApiToken } from './api-token-store';

// Personal API tokens' store (decision 037), the same cases on a real SQLite file and a real
// PostgreSQL server.

const start = Date.UTC(2026, 10, 20, 9);
const day = 24 * 60 * 60_000;
const digest = (text: string) => createHash('sha256').update(text).digest();

function token(id: string, overrides: Partial<StoredApiToken> = {}): StoredApiToken {
  return {
    id,
    userId: 'u-ada',
    name: `token ${id}`,
    scope: 'suites',
    createdAt: start,
    expiresAt: start + 30 * day,
    lastUsedAt: null,
    revokedAt: null,
    revokedBy: null,
    ...overrides,
  };
}

interface Opened {
  store: ApiTokenStore;
  /** Rows as another reader of the database sees them. */
  rows(sql: string): Promise<Record<string, unknown>[]>;
  close(): Promise<void>;
}

async function open(kind: 'sqlite' | 'postgres'): Promise<Opened> {
  if (kind === 'sqlite') {
    const dir = mkdtempSync(join(tmpdir(), 'api-token-store-'));
    const database = await openPortalSqlite(join(dir, 'portal.db'));
    return {
      store: createApiTokenStore(database.db),
      rows: async (sql) => database.db.prepare<[], Record<string, unknown>>(sql).all(),
      close: async () => {
        await database.close();
        rmSync(dir, { recursive: true, force: true });
      },
    };
  }
  const adminUrl = process.env[postgresEnvName];
  if (!adminUrl) throw new Error(`${postgresEnvName} is unset: the global setup starts PostgreSQL`);
  const databaseUrl = createTestDatabase(adminUrl);
  const stores: PortalStores = await openPortalStores({ portalDb: ':memory:', databaseUrl });
  const inspector = createPool(databaseUrl);
  return {
    store: stores.apiTokens,
    rows: async (sql) => (await inspector.query<Record<string, unknown>>(sql)).rows,
    close: async () => {
      await inspector.end();
      await stores.close();
    },
  };
}

let opened: Opened;
afterEach(async () => {
  await opened.close();
});

describe.each(['sqlite', 'postgres'] as const)('the API token store in %s', (kind) => {
  let store: ApiTokenStore;
  beforeEach(async () => {
    opened = await open(kind);
    store = opened.store;
  });

  it('finds a token by its digest and by its id, and keeps nothing but the digest of it', async () => {
    const secret = 'vmsp_0123456789abcdefghijklmnopqrstuvwxyzABCDEFG';
    await store.create(digest(secret), token('t1', { scope: 'suites-and-sends' }));
    expect(await store.byHash(digest(secret))).toEqual(token('t1', { scope: 'suites-and-sends' }));
    expect(await store.byHash(digest(`${secret}x`))).toBeUndefined();
    expect((await store.byId('t1'))?.name).toBe('token t1');
    expect(await store.byId('nope')).toBeUndefined();

    const [row] = await opened.rows('SELECT * FROM api_tokens');
    const stored = Object.values(row ?? {}).map((value) =>
      Buffer.isBuffer(value) ? value.toString('hex') : String(value),
    );
    expect(stored).toContain(digest(secret).toString('hex'));
    expect(stored.join(' ')).not.toContain(secret.slice(5, 20));
  });

  it('lists a user’s tokens and everyone’s, newest first', async () => {
    await store.create(digest('a'), token('t1'));
    await store.create(digest('b'), token('t2', { createdAt: start + 1 }));
    await store.create(digest('c'), token('t3', { userId: 'u-rita', createdAt: start + 2 }));
    expect((await store.listForUser('u-ada')).map(({ id }) => id)).toEqual(['t2', 't1']);
    expect((await store.listForUser('u-rita')).map(({ id }) => id)).toEqual(['t3']);
    expect((await store.listAll()).map(({ id }) => id)).toEqual(['t3', 't2', 't1']);
  });

  it('revokes once, saying who and when, and a second revoke changes nothing', async () => {
    await store.create(digest('a'), token('t1'));
    expect(await store.revoke('t1', start + 5, 'u-admin')).toBe(true);
    expect(await store.revoke('t1', start + 9, 'u-ada')).toBe(false);
    expect(await store.revoke('unknown', start + 9, 'u-ada')).toBe(false);
    expect(await store.byId('t1')).toMatchObject({ revokedAt: start + 5, revokedBy: 'u-admin' });
  });

  it('records the latest use and never moves it back', async () => {
    await store.create(digest('a'), token('t1'));
    await store.touch('t1', start + 120_000);
    await store.touch('t1', start + 60_000);
    expect((await store.byId('t1'))?.lastUsedAt).toBe(start + 120_000);
  });

  it('purges tokens that ended before the cutoff, whether expired or revoked, and keeps the rest', async () => {
    await store.create(digest('a'), token('expired', { expiresAt: start + day }));
    await store.create(digest('b'), token('revoked', { revokedAt: start + day }));
    await store.create(digest('c'), token('working'));
    await store.create(digest('d'), token('revoked-late', { revokedAt: start + 20 * day }));
    expect(await store.purgeEndedBefore(start + 2 * day)).toBe(2);
    expect((await store.listAll()).map(({ id }) => id).sort()).toEqual(['revoked-late', 'working']);
  });

  it('refuses a second token with the same digest', async () => {
    await store.create(digest('a'), token('t1'));
    await expect(store.create(digest('a'), token('t2'))).rejects.toThrow();
  });
});
