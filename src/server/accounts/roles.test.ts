import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { apiErrorBodySchema } from '@/domain/api-error';
import { journalPageSchema, replayOfHeader, uncheckedHeader } from '@/domain/journal';
import {
  startCaptureUpstream,
  startTestPortal,
  testConfig,
  type CaptureUpstream,
  type TestPortal,
} from '@/test-support/capture-upstream';
import { addUser, TestBrowser } from '@/test-support/test-browser';
import { queryTestDatabase } from '@/test-support/test-database';

// The proxy checks the user's grants as well as the deployment's orgs, the
// journal is QA's (a recruiter's is their own calls), and every journal entry records who sent it.

const password = 'correct horse battery staple';
const batch = [{ titlerole: 'Nurse' }];
const sendFor = (org: number) =>
  `/api/vms/requisitionimport?Client_Org_Id=${org}&Vendor_Org_Id=9001`;

let dir: string;
let dbPath: string;
let upstream: CaptureUpstream;
let portal: TestPortal;
const browsers: Record<'recruiter' | 'qa' | 'admin', TestBrowser> = {} as never;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'portal-roles-'));
  dbPath = join(dir, 'portal.db');
  upstream = await startCaptureUpstream();
  portal = await startTestPortal(
    testConfig(upstream.url, { AUTH: 'on', PORTAL_DB: dbPath, PORTAL_RATE_LIMIT_PER_MINUTE: '0' }),
  );
  await addUser(dbPath, 'rita@example.com', password, 'recruiter', [1001]);
  await addUser(dbPath, 'quinn@example.com', password, 'qa', [1002]);
  await addUser(dbPath, 'ada@example.com', password, 'admin');
  for (const [role, email] of [
    ['recruiter', 'rita@example.com'],
    ['qa', 'quinn@example.com'],
    ['admin', 'ada@example.com'],
  ] as const) {
    browsers[role] = new TestBrowser(portal.url);
    expect((await browsers[role].signIn(email, password)).status).toBe(200);
  }
});

afterAll(async () => {
  await portal.close();
  await upstream.close();
  rmSync(dir, { recursive: true, force: true });
});

beforeEach(() => {
  upstream.requests.length = 0;
});

function errorOf(answer: { json(): unknown }) {
  return apiErrorBodySchema.parse(answer.json()).error;
}

describe('a recruiter', () => {
  it('sends for a granted org', async () => {
    const answer = await browsers.recruiter.call('POST', sendFor(1001), { body: batch });
    expect(answer.status).toBe(202);
    expect(upstream.requests).toHaveLength(1);
  });

  it('gets 403 forbidden for another org of the deployment, even by a hand-made call, and nothing is sent', async () => {
    for (const path of [
      sendFor(1002),
      '/api/vms/requisitions?Client_Org_Id=1002&Vendor_Org_Id=9001',
      '/api/vms/candidateresults?Client_Org_Id=1002&Vendor_Org_Id=9001&batchid=b-1',
    ]) {
      const answer = await browsers.recruiter.call(path.includes('import') ? 'POST' : 'GET', path, {
        body: path.includes('import') ? batch : undefined,
      });
      expect(answer.status, path).toBe(403);
      expect(errorOf(answer)).toMatchObject({
        code: 'forbidden',
        details: [{ field: 'Client_Org_Id', message: 'not granted to you' }],
      });
      expect(errorOf(answer).message).toContain('client org 1002');
    }
    // An org the deployment does not act for is still the deployment's refusal.
    const foreign = await browsers.recruiter.call('POST', sendFor(666), { body: batch });
    expect(errorOf(foreign).code).toBe('org_not_permitted');
    expect(upstream.requests).toHaveLength(0);
  });

  it('may not replay a journal entry or send without local checks, and reads only their own calls in the journal', async () => {
    for (const headers of [{ [replayOfHeader]: '1' }, { [uncheckedHeader]: '1' }]) {
      const answer = await browsers.recruiter.call('POST', sendFor(1001), { body: batch, headers });
      expect(answer.status).toBe(403);
      expect(errorOf(answer).code).toBe('forbidden');
    }
    expect(upstream.requests).toHaveLength(0);
    // Theirs, the two refused just now among them; a QA user's send is not there for them.
    expect((await browsers.qa.call('POST', sendFor(1002), { body: batch })).status).toBe(202);
    const own = journalPageSchema.parse(
      (await browsers.recruiter.call('GET', '/api/journal')).json(),
    );
    expect(own.entries.length).toBeGreaterThanOrEqual(2);
    expect(new Set(own.entries.map((entry) => entry.sentBy?.email))).toEqual(
      new Set(['rita@example.com']),
    );
    const all = journalPageSchema.parse((await browsers.qa.call('GET', '/api/journal')).json());
    const quinns = all.entries.find((entry) => entry.sentBy?.email === 'quinn@example.com');
    expect(quinns).toBeDefined();
    const answer = await browsers.recruiter.call('GET', `/api/journal/${quinns?.id ?? 0}`);
    expect(answer.status).toBe(404);
    expect(errorOf(answer).code).toBe('not_found');
  });

  it('may not manage users', async () => {
    expect((await browsers.recruiter.call('GET', '/api/users')).status).toBe(403);
  });
});

describe('QA and admins', () => {
  it('QA sends for its own grants only, without local checks too, and reads the journal', async () => {
    const unchecked = await browsers.qa.call('POST', sendFor(1002), {
      body: batch,
      headers: { [uncheckedHeader]: '1' },
    });
    expect(unchecked.status).toBe(202);
    expect((await browsers.qa.call('POST', sendFor(1001), { body: batch })).status).toBe(403);
    expect((await browsers.qa.call('GET', '/api/journal')).status).toBe(200);
    expect((await browsers.qa.call('GET', '/api/users')).status).toBe(403);
  });

  it('an admin acts for every org of the deployment', async () => {
    expect((await browsers.admin.call('POST', sendFor(1001), { body: batch })).status).toBe(202);
    expect((await browsers.admin.call('POST', sendFor(1002), { body: batch })).status).toBe(202);
    expect((await browsers.admin.call('GET', '/api/users')).status).toBe(200);
  });

  it('nobody signed in gets 401 before anything is read, and nothing is sent', async () => {
    const nobody = new TestBrowser(portal.url);
    const answer = await nobody.call('POST', sendFor(1001), { body: batch });
    expect(answer.status).toBe(401);
    expect(errorOf(answer).code).toBe('unauthenticated');
    expect((await nobody.call('GET', '/api/journal')).status).toBe(401);
    expect(upstream.requests).toHaveLength(0);
  });
});

describe('who sent it', () => {
  it('every journal entry records the user, refused calls included', async () => {
    await browsers.recruiter.call('POST', sendFor(1001), { body: batch });
    await browsers.recruiter.call('POST', sendFor(1002), { body: batch });
    await browsers.qa.call('GET', '/api/vms/requisitions?Client_Org_Id=1002&Vendor_Org_Id=9001');
    // Reading the journal writes what is queued.
    const page = journalPageSchema.parse((await browsers.qa.call('GET', '/api/journal')).json());
    expect(page.entries.length).toBeGreaterThanOrEqual(3);
    // The inspector shows who sent each call.
    const sent = page.entries.find((entry) => entry.path === sendFor(1001));
    expect(sent?.sentBy?.email).toBe('rita@example.com');
    const rows = await queryTestDatabase(
      dbPath,
      'SELECT path, status, user_email AS email, user_id AS id FROM journal_calls ORDER BY id DESC',
    );
    const users = await queryTestDatabase<{ id: string; email: string }>(
      dbPath,
      'SELECT id, email FROM users',
    );
    const idOf = (email: string) => users.find((user) => user.email === email)?.id;
    expect(rows).toEqual(
      expect.arrayContaining([
        {
          path: '/api/vms/requisitions?Client_Org_Id=1002&Vendor_Org_Id=9001',
          status: 200,
          email: 'quinn@example.com',
          id: idOf('quinn@example.com'),
        },
        {
          path: sendFor(1002),
          status: 403,
          email: 'rita@example.com',
          id: idOf('rita@example.com'),
        },
        {
          path: sendFor(1001),
          status: 202,
          email: 'rita@example.com',
          id: idOf('rita@example.com'),
        },
      ]),
    );
    // Calls refused before anyone was known (401) are not journaled: every entry has a sender.
    expect(rows.some((row) => (row as { status: number }).status === 401)).toBe(false);
    expect(rows.every((row) => (row as { email: string | null }).email !== null)).toBe(true);
  });

  it('a send’s log line is an audit line that names the user', async () => {
    await browsers.admin.call('POST', sendFor(1002), { body: batch });
    expect(
      portal
        .logLines()
        .filter((line) => line.msg === 'vms call')
        .at(-1),
    ).toMatchObject({
      audit: true,
      event: 'send',
      email: 'ada@example.com',
      operation: 'requisitionimport',
      clientOrgId: 1002,
      itemCount: 1,
      status: 202,
    });
  });
});
