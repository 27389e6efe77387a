import type { FastifyRequest } from 'fastify';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from '@/domain/api-error';
import { auditFilterSchema } from '@/domain/audit';
import type { AuditEvent } from '@/server/accounts/audit';
import { type PortalDatabase } from '@/server/store/portal-database';
import { openPortalSqlite } from '@/test-support/portal-stores';
import { cleanDetails } from './audit-event-fields';
import { AuditTrail } from './audit-trail';
import { createAuditStore, type AuditStore } from './store/audit-events';

// The trail's writer (decision 036): queued, written in batches, kept within its budget for
// events without a session, pruned by age.

const day = 24 * 60 * 60 * 1000;
let database: PortalDatabase | undefined;
let trail: AuditTrail | undefined;

afterEach(async () => {
  await trail?.close();
  await database?.close();
  trail = undefined;
  database = undefined;
});

async function open(now: () => number, retentionDays = 365) {
  const opened = await openPortalSqlite(':memory:');
  database = opened;
  const store: AuditStore = createAuditStore(opened.db);
  const log = { error: vi.fn(), warn: vi.fn() };
  const made = new AuditTrail({
    store,
    settings: { retentionMs: retentionDays * day },
    log,
    now,
  });
  trail = made;
  return { store, log, trail: made, db: opened.db };
}

const all = (store: AuditStore) =>
  store.list(auditFilterSchema.parse({}), { order: 'oldest', from: null, limit: 1000 });

/** A request without a session, from an address. */
function anonymous(ip = '203.0.113.9'): FastifyRequest {
  return {
    ip,
    portalSession: null,
    traceContext: null,
    method: 'POST',
    raw: { url: '/api/vms/requisitionimport?Client_Org_Id=1001' },
    query: { Client_Org_Id: '1001' },
    headers: {},
  } as unknown as FastifyRequest;
}

describe('the audit trail', () => {
  it('keeps identifiers, counts and reasons, never what could hold a credential', () => {
    expect(
      cleanDetails({
        reason: 'wrong_password',
        count: 3,
        ok: true,
        none: null,
        orgs: [1001, 1002],
        password: 'hunter2',
        csrfToken: 'abc',
        apiKey: 'k',
        requestBody: '[…]',
        nested: { a: 1 },
        long: 'x'.repeat(500),
      }),
    ).toEqual({
      reason: 'wrong_password',
      count: 3,
      ok: true,
      none: null,
      orgs: [1001, 1002],
      long: 'x'.repeat(200),
    });
  });

  it('writes what is queued on flush and on close, and nothing after', async () => {
    const { store, trail } = await open(() => Date.UTC(2026, 10, 1));
    trail.auth('sign_in_failed', { email: 'ada@example.com', reason: 'wrong_password' });
    expect(await store.count()).toBe(0);
    await trail.flush();
    expect(await all(store)).toMatchObject([
      { event: 'sign_in_failed', email: 'ada@example.com', outcome: 'failed', status: 401 },
    ]);
    trail.auth('sign_out', { userId: 'u-1', email: 'ada@example.com' });
    await trail.close();
    trail.auth('sign_out', { userId: 'u-1', email: 'ada@example.com' });
    await trail.flush();
    expect(await store.count()).toBe(2);
  });

  it('records only the events of the domain list, and says so for one outside it', async () => {
    const { store, trail, log } = await open(() => Date.UTC(2026, 10, 1));
    trail.auth('sign_in', { userId: 'u-1', email: 'ada@example.com' });
    // A caller past the types (a cast, plain JavaScript) with a name the list lacks.
    trail.auth('report_scheduled' as AuditEvent, { userId: 'u-1', email: 'ada@example.com' });
    trail.auth('sign_out', { userId: 'u-1', email: 'ada@example.com' });
    await trail.flush();
    expect((await all(store)).map((entry) => entry.event)).toEqual(['sign_in', 'sign_out']);
    expect(log.error).toHaveBeenCalledWith(
      { event: 'report_scheduled' },
      "audit trail: an event not in the domain's list was not recorded",
    );
  });

  it('keeps 120 events a minute made without a session, then one row that counts the rest', async () => {
    let now = Date.UTC(2026, 10, 1);
    const { store, trail } = await open(() => now);
    const refusal = new ApiError('csrf_failed', 'refused');
    for (let i = 0; i < 500; i += 1) trail.refused(anonymous(), refusal);
    now += 61_000;
    trail.refused(anonymous(), refusal);
    await trail.flush();
    const events = await all(store);
    expect(events.filter((event) => event.event === 'refused')).toHaveLength(121);
    expect(events.find((event) => event.event === 'events_suppressed')?.details).toMatchObject({
      suppressed: 380,
      perMinute: 120,
    });
    // A flood then quiet: the next round of retention writes the count.
    for (let i = 0; i < 130; i += 1) trail.refused(anonymous(), refusal);
    now += 61_000;
    await trail.prune();
    await trail.flush();
    expect(
      (await all(store)).filter((event) => event.event === 'events_suppressed').at(-1)?.details,
    ).toMatchObject({ suppressed: 11 });
    // A refusal the trail does not record (not a 403 of its kind) costs nothing.
    const before = await store.count();
    trail.refused(anonymous(), new ApiError('not_found', 'nothing here'));
    await trail.flush();
    expect(await store.count()).toBe(before);
  });

  it('prunes events older than its retention', async () => {
    let now = Date.UTC(2026, 10, 1);
    const { store, trail } = await open(() => now, 30);
    trail.auth('sign_out', { userId: 'u-1', email: 'old@example.com' });
    now += 20 * day;
    trail.auth('sign_out', { userId: 'u-2', email: 'new@example.com' });
    await trail.flush();
    now += 15 * day;
    await trail.prune();
    expect((await all(store)).map((event) => event.email)).toEqual(['new@example.com']);
  });

  it('logs a failed write once and goes on', async () => {
    const { log, trail, db } = await open(() => Date.UTC(2026, 10, 1));
    db.exec('DROP TABLE audit_events');
    trail.auth('sign_out', { userId: 'u-1', email: 'a@example.com' });
    await trail.flush();
    trail.auth('sign_out', { userId: 'u-1', email: 'a@example.com' });
    await trail.flush();
    expect(log.error).toHaveBeenCalledTimes(1);
    expect(log.error.mock.calls[0]?.[1]).toContain('could not be written');
  });
});
