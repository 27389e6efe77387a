import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiErrorBodySchema } from '@/domain/api-error';
import {
  startCaptureUpstream,
  startTestPortal,
  testConfig,
  type CaptureUpstream,
  type TestPortal,
} from '@/test-support/capture-upstream';
import { addUser, TestBrowser } from '@/test-support/test-browser';
import { queryTestDatabase } from '@/test-support/test-database';

// No one writes to the portal before signing in: a call refused for want of a session is held
// to the per-address rate limit, and leaves nothing in the portal database.

const password = 'correct horse battery staple';
const limit = 30;
const send = '/api/vms/requisitionimport?Client_Org_Id=1001&Vendor_Org_Id=9001';

let dir: string;
let dbPath: string;
let upstream: CaptureUpstream;
let portal: TestPortal;
let admin: TestBrowser;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'portal-unauthenticated-'));
  dbPath = join(dir, 'portal.db');
  upstream = await startCaptureUpstream();
  portal = await startTestPortal(
    testConfig(upstream.url, {
      AUTH: 'on',
      PORTAL_DB: dbPath,
      TRUST_PROXY: '127.0.0.1',
      PORTAL_RATE_LIMIT_PER_MINUTE: String(limit),
    }),
  );
  await addUser(dbPath, 'ada@example.com', password, 'admin');
  admin = new TestBrowser(portal.url);
  expect((await admin.signIn('ada@example.com', password)).status).toBe(200);
});

afterAll(async () => {
  await portal.close();
  await upstream.close();
  rmSync(dir, { recursive: true, force: true });
});

/**
 * The journal's rows, the audit trail's and the SQLite files' sizes, after what the journal and
 * the trail had queued is written.
 */
async function footprint() {
  // Reading the journal or the trail writes what it has queued first.
  expect((await admin.call('GET', '/api/journal')).status).toBe(200);
  expect((await admin.call('GET', '/api/audit')).status).toBe(200);
  const [events] = await queryTestDatabase<{ n: number }>(
    dbPath,
    'SELECT count(*) AS n FROM audit_events',
  );
  const [calls] = await queryTestDatabase<{ n: number }>(
    dbPath,
    'SELECT count(*) AS n FROM journal_calls',
  );
  const [bodies] = await queryTestDatabase<{ n: number }>(
    dbPath,
    'SELECT count(*) AS n FROM journal_bodies',
  );
  const size = (file: string) => (existsSync(file) ? statSync(file).size : 0);
  return {
    calls: Number(calls?.n),
    bodies: Number(bodies?.n),
    events: Number(events?.n),
    bytes: size(dbPath) + size(`${dbPath}-wal`),
  };
}

describe('calls without a session', () => {
  it('a flood of them is rate-limited and leaves the database as it was', async () => {
    // One signed-in send first: the journal is on and records what someone sends.
    const sent = await admin.call('POST', send, { body: [{ titlerole: 'Nurse' }] });
    expect(sent.status).toBe(202);
    const before = await footprint();
    expect(before.calls).toBe(1);

    const statuses: number[] = [];
    for (let i = 0; i < 200; i += 1) {
      const body = JSON.stringify([{ titlerole: `flood ${i} ${'x'.repeat(16 * 1024)}` }]);
      const answer = await request(`${portal.url}${send}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-forwarded-for': '203.0.113.9' },
        body,
      });
      const text = await answer.body.text();
      statuses.push(answer.statusCode);
      if (i === 0)
        expect(apiErrorBodySchema.parse(JSON.parse(text)).error.code).toBe('unauthenticated');
    }
    expect(statuses.slice(0, limit).every((status) => status === 401)).toBe(true);
    expect(statuses.slice(limit).every((status) => status === 429)).toBe(true);
    expect(upstream.requests).toHaveLength(1);

    expect(await footprint()).toEqual(before);
    // Each refusal is one log line, without the body.
    const refused = portal.logLines().filter((line) => line.msg === 'refused without a session');
    expect(refused).toHaveLength(200);
    expect(refused[0]).toMatchObject({ method: 'POST', status: 401, address: '203.0.113.9' });
    expect(portal.rawLog()).not.toContain('flood 1');
  });
});
