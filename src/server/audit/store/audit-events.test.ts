import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { auditFilterSchema, type AuditFilter } from '@/domain/audit';
import { type PortalSqlite } from '@/server/store/portal-database';
import { createPool } from '@/server/store/postgres/pool';
import { openPortalSqlite } from '@/test-support/portal-stores';
import { openPortalStores, type PortalStores } from '@/test-support/portal-stores';
import { createTestDatabase, postgresEnvName } from '@/test-support/postgres-server';
import {
  auditCursorAfter,
  createAuditStore,
  type AuditRecord,
  type AuditStore,
} from './audit-events';

// The audit trail's store (decision 036), the same cases on SQLite and on PostgreSQL.

const start = Date.UTC(2026, 10, 1, 12);

function event(n: number, overrides: Partial<AuditRecord> = {}): AuditRecord {
  return {
    at: start + n * 60_000,
    event: 'send',
    userId: 'u-ada',
    email: 'ada@example.com',
    connection: 'uat',
    address: '127.0.0.1',
    outcome: 'ok',
    status: 202,
    details: { itemCount: n, batchId: `rb_${n}`, fields: ['Client_Org_Id'] },
    traceId: '4bf92f3577b34da6a3ce929d0e0e4736',
    ...overrides,
  };
}

const filter = (values: Record<string, string> = {}): AuditFilter =>
  auditFilterSchema.parse(values);

interface Opened {
  store: AuditStore;
  /** Runs SQL both databases take, for what the store does not offer (an UPDATE, a raw row). */
  exec(sql: string): Promise<void>;
  close(): Promise<void>;
}

async function open(kind: 'sqlite' | 'postgres'): Promise<Opened> {
  if (kind === 'sqlite') {
    const dir = mkdtempSync(join(tmpdir(), 'audit-store-'));
    const database = await openPortalSqlite(join(dir, 'portal.db'));
    const db: PortalSqlite = database.db;
    return {
      store: createAuditStore(db),
      exec: async (sql) => void db.exec(sql),
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
  // A pool of its own, as another process would have: the store offers no way to change a row.
  const inspector = createPool(databaseUrl);
  return {
    store: stores.audit,
    exec: async (sql) => void (await inspector.query(sql)),
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

describe.each(['sqlite', 'postgres'] as const)('the audit store in %s', (kind) => {
  let store: AuditStore;
  beforeEach(async () => {
    opened = await open(kind);
    store = opened.store;
  });

  it('reads back what it wrote, newest first, in pages by (at, id)', async () => {
    await store.append([event(1), event(2), event(3, { at: start + 2 * 60_000 }), event(4)]);
    const first = await store.list(filter(), { order: 'newest', from: null, limit: 2 });
    expect(first.map((entry) => entry.id)).toEqual([4, 3]);
    expect(first[0]).toEqual({
      id: 4,
      at: new Date(start + 4 * 60_000).toISOString(),
      event: 'send',
      userId: 'u-ada',
      email: 'ada@example.com',
      connection: 'uat',
      address: '127.0.0.1',
      outcome: 'ok',
      status: 202,
      details: { itemCount: 4, batchId: 'rb_4', fields: ['Client_Org_Id'] },
      traceId: '4bf92f3577b34da6a3ce929d0e0e4736',
    });
    const last = first.at(-1);
    if (!last) throw new Error('no page');
    const second = await store.list(filter(), {
      order: 'newest',
      from: auditCursorAfter(last),
      limit: 2,
    });
    // 3 and 2 share a minute: the id orders them.
    expect(second.map((entry) => entry.id)).toEqual([2, 1]);
    const oldest = await store.list(filter(), { order: 'oldest', from: null, limit: 10 });
    expect(oldest.map((entry) => entry.id)).toEqual([1, 2, 3, 4]);
    expect(await store.count()).toBe(4);
  });

  it('reads an event name it does not know as written, never as another event', async () => {
    await store.append([event(1)]);
    // A newer release sharing the database wrote an event this one has no name for.
    await opened.exec(
      `INSERT INTO audit_events (at, event, outcome, details) VALUES (${start + 120_000}, 'report_scheduled', 'ok', '{}')`,
    );
    const entries = await store.list(filter(), { order: 'oldest', from: null, limit: 10 });
    expect(entries.map((entry) => entry.event)).toEqual(['send', 'report_scheduled']);
  });

  it('filters by event, e-mail address, connection and time', async () => {
    await store.append([
      event(1, { event: 'sign_in', connection: null, status: null }),
      event(2, { event: 'sign_in_failed', userId: null, email: null, outcome: 'failed' }),
      event(3, { email: 'rita@example.com', connection: 'prod' }),
      event(4),
    ]);
    const ids = async (values: Record<string, string>) =>
      (await store.list(filter(values), { order: 'newest', from: null, limit: 10 })).map(
        (entry) => entry.id,
      );
    expect(await ids({ event: 'sign_in_failed' })).toEqual([2]);
    expect(await ids({ email: 'RITA@example.com' })).toEqual([3]);
    expect(await ids({ connection: 'uat' })).toEqual([4, 2]);
    expect(
      await ids({
        from: new Date(start + 2 * 60_000).toISOString(),
        to: new Date(start + 3 * 60_000).toISOString(),
      }),
    ).toEqual([3, 2]);
    expect(await ids({ event: 'send', email: 'ada@example.com' })).toEqual([4]);
  });

  it('never changes a row, and prunes by age, oldest first, at most a chunk at a time', async () => {
    await store.append([event(1), event(2), event(3), event(4)]);
    await expect(opened.exec("UPDATE audit_events SET email = 'x@example.com'")).rejects.toThrow(
      /never changed/,
    );
    expect(await store.pruneBefore(start + 4 * 60_000, 2)).toBe(2);
    expect(await store.pruneBefore(start + 4 * 60_000, 2)).toBe(1);
    const left = await store.list(filter(), { order: 'oldest', from: null, limit: 10 });
    expect(left.map((entry) => entry.id)).toEqual([4]);
  });
});
