import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { journalPageSchema } from '@/domain/journal';
import {
  startCaptureUpstream,
  startTestPortal,
  testConfig,
  type CaptureUpstream,
  type TestPortal,
} from '@/test-support/capture-upstream';
import { addUser, TestBrowser, type BrowserAnswer } from '@/test-support/test-browser';

// Answers that carry personal or VMS data are never kept by a browser's or a proxy's cache: a
// shared machine's next user, or a cache between the portal and its users, could read them.

const password = 'correct horse battery staple';
const orgs = '?Client_Org_Id=1001&Vendor_Org_Id=9001';

let dir: string;
let dbPath: string;
let upstream: CaptureUpstream;
let portal: TestPortal;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'portal-no-store-'));
  dbPath = join(dir, 'portal.db');
  upstream = await startCaptureUpstream();
  portal = await startTestPortal(
    testConfig(upstream.url, { AUTH: 'on', PORTAL_DB: dbPath, PORTAL_RATE_LIMIT_PER_MINUTE: '0' }),
  );
  await addUser(dbPath, 'ada@example.com', password, 'admin');
});

afterAll(async () => {
  await portal.close();
  await upstream.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('Cache-Control: no-store', () => {
  it('is on every answer of /api/vms, /api/journal, /api/users, /api/me and /api/session, refusals too', async () => {
    const seen: [string, BrowserAnswer][] = [];
    const stranger = new TestBrowser(portal.url);
    const admin = new TestBrowser(portal.url);
    const call = async (browser: TestBrowser, method: string, path: string, body?: unknown) => {
      const answer = await browser.call(method, path, body === undefined ? {} : { body });
      seen.push([`${method} ${path} → ${answer.status}`, answer]);
      return answer;
    };

    for (const path of [
      `/api/vms/requisitions${orgs}`,
      '/api/journal',
      '/api/users',
      '/api/me/drafts',
    ]) {
      await call(stranger, 'GET', path);
    }
    await call(stranger, 'GET', '/api/session');
    await call(admin, 'POST', '/api/session', { email: 'ada@example.com', password });
    await admin.session();

    // The VMS's own caching advice does not reach the browser.
    upstream.respondWith(() => ({
      status: 200,
      headers: { 'content-type': 'application/json', 'cache-control': 'public, max-age=600' },
      body: '[]',
    }));
    await call(admin, 'GET', `/api/vms/requisitions${orgs}`);
    await call(admin, 'GET', '/api/vms/no-such-operation');
    const page = journalPageSchema.parse((await call(admin, 'GET', '/api/journal')).json());
    await call(admin, 'GET', '/api/journal/status');
    await call(admin, 'GET', `/api/journal/${page.entries[0]?.id}`);
    await call(admin, 'GET', `/api/journal/${page.entries[0]?.id}/curl`);
    await call(admin, 'GET', '/api/journal/export?format=jsonl');
    const invited = (await call(admin, 'POST', '/api/users', {
      email: 'rita@example.com',
      role: 'recruiter',
      clientOrgIds: [1001],
    })) as BrowserAnswer;
    const id = (invited.json() as { user: { id: string } }).user.id;
    await call(admin, 'GET', '/api/users');
    await call(admin, 'PATCH', `/api/users/${id}`, { role: 'qa' });
    await call(admin, 'PUT', '/api/me/drafts/one', { value: { a: 1 }, baseVersion: 0 });
    await call(admin, 'GET', '/api/me/drafts');
    await call(admin, 'DELETE', '/api/session');

    expect(seen.map(([, answer]) => answer.status)).toContain(401);
    expect(seen.map(([, answer]) => answer.status)).toContain(200);
    expect(
      seen
        .filter(([, answer]) => answer.headers['cache-control'] !== 'no-store')
        .map(([what, answer]) => `${what}: ${String(answer.headers['cache-control'])}`),
    ).toEqual([]);
  });
});
