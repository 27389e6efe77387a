import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiErrorBodySchema } from '@/domain/api-error';
import { auditEntrySchema, auditPageSchema, type AuditEntry } from '@/domain/audit';
import type { PortalConfig } from '@/server/config';
import {
  startCaptureUpstream,
  startTestPortal,
  testConfig,
  type CaptureUpstream,
  type TestPortal,
} from '@/test-support/capture-upstream';
import { addUser, TestBrowser } from '@/test-support/test-browser';
import { queryTestDatabase } from '@/test-support/test-database';

// The audit trail (decision 036): sign-ins and failed ones, sends and refusals are written to the
// database and read back by admins through /api/audit and its export; nobody else may read them.

const password = 'correct horse battery staple';
const wrongPassword = 'not the password at all';
const traceId = '4bf92f3577b34da6a3ce929d0e0e4736';
const send = (org: number) => `/api/vms/requisitionimport?Client_Org_Id=${org}&Vendor_Org_Id=9001`;

let dir: string;
let dbPath: string;
let config: PortalConfig;
let upstream: CaptureUpstream;
let portal: TestPortal;
let admin: TestBrowser;
let rita: TestBrowser;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'portal-audit-'));
  dbPath = join(dir, 'portal.db');
  upstream = await startCaptureUpstream();
  config = testConfig(upstream.url, {
    AUTH: 'on',
    PORTAL_DB: dbPath,
    PORTAL_RATE_LIMIT_PER_MINUTE: '0',
  });
  portal = await startTestPortal(config);
  await addUser(dbPath, 'ada@example.com', password, 'admin');
  await addUser(dbPath, 'rita@example.com', password, 'recruiter', [1001]);
  admin = new TestBrowser(portal.url);
  expect((await admin.signIn('ada@example.com', password)).status).toBe(200);
  rita = new TestBrowser(portal.url);
  expect((await rita.signIn('rita@example.com', password)).status).toBe(200);

  // What the trail should hold: a send (with the caller's trace), a failed sign-in, a refused
  // org, a call without the session's CSRF token.
  const sent = await rita.call('POST', send(1001), {
    body: [{ titlerole: 'Nurse' }, { titlerole: 'Welder' }],
    headers: { traceparent: `00-${traceId}-00f067aa0ba902b7-01` },
  });
  expect(sent.status).toBe(202);
  expect((await new TestBrowser(portal.url).signIn('ada@example.com', wrongPassword)).status).toBe(
    401,
  );
  expect((await rita.call('POST', send(1002), { body: [{ titlerole: 'Nurse' }] })).status).toBe(
    403,
  );
  const foreignOrg = await rita.call('POST', send(1999), { body: [{ titlerole: 'Nurse' }] });
  expect(apiErrorBodySchema.parse(foreignOrg.json()).error.code).toBe('org_not_permitted');
  const unknownConnection = await rita.call('POST', send(1001), {
    body: [{ titlerole: 'Nurse' }],
    headers: { 'x-vms-connection': 'elsewhere' },
  });
  expect(unknownConnection.status).toBe(404);
  const noToken = await rita.call('POST', send(1001), {
    body: [{ titlerole: 'Nurse' }],
    noToken: true,
  });
  expect(apiErrorBodySchema.parse(noToken.json()).error.code).toBe('csrf_failed');
});

afterAll(async () => {
  await portal.close();
  await upstream.close();
  rmSync(dir, { recursive: true, force: true });
});

async function events(query = ''): Promise<AuditEntry[]> {
  const answer = await admin.call('GET', `/api/audit${query}`);
  expect(answer.status).toBe(200);
  return auditPageSchema.parse(answer.json()).entries;
}

describe('the audit trail', () => {
  it('records a send: who, the connection, the batch id, the items, the outcome, the trace', async () => {
    const [sendEvent] = await events('?event=send');
    expect(sendEvent).toMatchObject({
      event: 'send',
      email: 'rita@example.com',
      connection: config.defaultConnection,
      address: '127.0.0.1',
      outcome: 'ok',
      status: 202,
      traceId,
      details: {
        operation: 'requisitionimport',
        clientOrgId: 1001,
        itemCount: 2,
        batchId: 'batch-1',
        upstreamStatus: 202,
        replayed: false,
      },
    });
    // The VMS got the same trace, with the portal's span as the parent.
    expect(upstream.requests[0]?.headers.traceparent).toMatch(
      new RegExp(`^00-${traceId}-[0-9a-f]{16}-01$`),
    );
    expect(
      portal.logLines().find((line) => line.msg === 'vms call' && line.event === 'send'),
    ).toMatchObject({ traceId });
  });

  it('records sign-ins and a failed one, with why and from where, never the password', async () => {
    const failed = await events('?event=sign_in_failed');
    expect(failed).toHaveLength(1);
    expect(failed[0]).toMatchObject({
      email: 'ada@example.com',
      outcome: 'failed',
      status: 401,
      address: '127.0.0.1',
      details: { reason: 'wrong_password' },
    });
    const signIns = await events('?event=sign_in');
    expect(signIns.map((entry) => entry.email).sort()).toEqual([
      'ada@example.com',
      'rita@example.com',
    ]);
    // The log lines are still written.
    expect(
      portal.logLines().filter((line) => line.audit === true && line.event === 'sign_in_failed'),
    ).toHaveLength(1);
    const rows = await queryTestDatabase<{ details: string }>(
      dbPath,
      'SELECT details FROM audit_events',
    );
    expect(JSON.stringify(rows)).not.toContain(wrongPassword);
    expect(JSON.stringify(rows)).not.toContain(password);
  });

  it('records refusals once each: an org not granted or not the portal’s, a missing CSRF token', async () => {
    const refused = await events('?event=refused&email=rita@example.com');
    // Not a 404 for an unknown connection: that is no refusal of who someone is.
    expect(refused.map((entry) => entry.details.code)).toEqual([
      'csrf_failed',
      'org_not_permitted',
      'forbidden',
    ]);
    expect(refused[1]?.details).toMatchObject({ clientOrgId: 1999 });
    expect(refused[2]).toMatchObject({
      outcome: 'refused',
      status: 403,
      connection: config.defaultConnection,
      details: { method: 'POST', path: '/api/vms/requisitionimport', clientOrgId: 1002 },
    });
  });

  it('filters by connection and time, and pages newest first', async () => {
    expect((await events(`?connection=${config.defaultConnection}&event=send`)).length).toBe(1);
    expect(await events('?to=2000-01-01')).toEqual([]);
    const all = await events();
    const first = auditPageSchema.parse((await admin.call('GET', '/api/audit?limit=2')).json());
    expect(first.entries).toEqual(all.slice(0, 2));
    expect(first.next).not.toBeNull();
    const second = auditPageSchema.parse(
      (await admin.call('GET', `/api/audit?limit=2&cursor=${first.next ?? ''}`)).json(),
    );
    expect(second.entries).toEqual(all.slice(2, 4));
    const times = all.map((entry) => Date.parse(entry.at));
    expect(times).toEqual([...times].sort((a, b) => b - a));
    const bad = await admin.call('GET', '/api/audit?event=nonsense');
    expect(bad.status).toBe(400);
    expect(apiErrorBodySchema.parse(bad.json()).error.code).toBe('invalid_parameter');
  });

  it('exports the selection as CSV and as JSON Lines', async () => {
    const csv = await admin.call('GET', '/api/audit/export?format=csv&event=sign_in_failed');
    expect(csv.status).toBe(200);
    expect(csv.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(csv.headers['content-disposition']).toMatch(/^attachment; filename="audit-.*\.csv"$/);
    expect(csv.headers['cache-control']).toBe('no-store');
    const lines = csv.text.trimEnd().split('\r\n');
    expect(lines[0]).toBe(
      'id,at,event,userId,email,connection,address,outcome,status,traceId,details',
    );
    expect(lines).toHaveLength(2);
    expect(lines[1]).toContain(',sign_in_failed,');
    expect(lines[1]).toContain('ada@example.com');
    expect(lines[1]).toContain('"{""reason"":""wrong_password""');

    const jsonl = await admin.call('GET', '/api/audit/export?format=jsonl&event=send');
    expect(jsonl.headers['content-type']).toBe('application/x-ndjson; charset=utf-8');
    const rows = jsonl.text
      .trim()
      .split('\n')
      .map((line) => auditEntrySchema.parse(JSON.parse(line)));
    expect(rows.map((row) => row.details.batchId)).toEqual(['batch-1']);
  });

  it('is for admins: a recruiter gets 403, and that refusal is recorded too', async () => {
    for (const path of ['/api/audit', '/api/audit/export?format=csv']) {
      const answer = await rita.call('GET', path);
      expect(answer.status).toBe(403);
      expect(apiErrorBodySchema.parse(answer.json()).error.code).toBe('forbidden');
    }
    const refused = await events('?event=refused&email=rita@example.com');
    expect(refused[0]?.details).toMatchObject({ code: 'forbidden', path: '/api/audit/export' });
    expect((await new TestBrowser(portal.url).call('GET', '/api/audit')).status).toBe(401);
  });
});

describe('closing the portal', () => {
  it('writes the events still queued before the database closes', async () => {
    const closingDir = mkdtempSync(join(tmpdir(), 'portal-audit-close-'));
    const closingDb = join(closingDir, 'portal.db');
    try {
      // Sign-in off: a send is recorded with nobody as its user.
      const closing = await startTestPortal(testConfig(upstream.url, { PORTAL_DB: closingDb }));
      const answer = await closing.call('POST', send(1001), {
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify([{ titlerole: 'Nurse' }]),
      });
      expect(answer.status).toBe(202);
      await closing.close();
      const rows = await queryTestDatabase<{ event: string; email: string | null }>(
        closingDb,
        'SELECT event, email FROM audit_events',
      );
      expect(rows).toEqual([{ event: 'send', email: null }]);
    } finally {
      rmSync(closingDir, { recursive: true, force: true });
    }
  });
});
