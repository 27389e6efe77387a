import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiErrorBodySchema } from '@/domain/api-error';
import {
  recordOwnerHeader,
  sessionStateSchema,
  userRecordConflictSchema,
  userRecordSchema,
  userRecordsSchema,
} from '@/domain/auth';
import {
  startCaptureUpstream,
  startTestPortal,
  testConfig,
  type CaptureUpstream,
  type TestPortal,
} from '@/test-support/capture-upstream';
import { addUser, TestBrowser } from '@/test-support/test-browser';
import { queryTestDatabase } from '@/test-support/test-database';
import { userRecordPageSize } from './user-record-routes';

// Drafts and submissions per user on the server, versioned, with tombstones
// and 409 when two devices wrote.

const password = 'correct horse battery staple';

let dir: string;
let upstream: CaptureUpstream;
let portal: TestPortal;
let laptop: TestBrowser;
let desktop: TestBrowser;
let other: TestBrowser;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'portal-records-'));
  const dbPath = join(dir, 'portal.db');
  upstream = await startCaptureUpstream();
  portal = await startTestPortal(testConfig(upstream.url, { AUTH: 'on', PORTAL_DB: dbPath }));
  await addUser(dbPath, 'rita@example.com', password, 'recruiter', [1001]);
  await addUser(dbPath, 'sam@example.com', password, 'recruiter', [1001]);
  laptop = new TestBrowser(portal.url);
  desktop = new TestBrowser(portal.url);
  other = new TestBrowser(portal.url);
  await laptop.signIn('rita@example.com', password);
  await desktop.signIn('rita@example.com', password);
  await other.signIn('sam@example.com', password);
});

afterAll(async () => {
  await portal.close();
  await upstream.close();
  rmSync(dir, { recursive: true, force: true });
});

const code = (answer: { json(): unknown }) => apiErrorBodySchema.parse(answer.json()).error.code;

const put = (
  browser: TestBrowser,
  key: string,
  body: { value?: unknown; baseVersion: number; deleted?: boolean },
  collection = 'drafts',
) => browser.call('PUT', `/api/me/${collection}/${encodeURIComponent(key)}`, { body });

const read = async (browser: TestBrowser, since = 0, collection = 'drafts') =>
  userRecordsSchema.parse(
    (await browser.call('GET', `/api/me/${collection}?since=${since}`)).json(),
  );

describe('per-user records', () => {
  it('stores a new record at the collection’s next version and returns it', async () => {
    const answer = await put(laptop, 'draft 1', { value: { title: 'Nurse' }, baseVersion: 0 });
    expect(answer.status).toBe(200);
    expect(userRecordSchema.parse(answer.json())).toMatchObject({
      key: 'draft 1',
      value: { title: 'Nurse' },
      version: 1,
      deleted: false,
    });
  });

  it('follows the user to another device, and gives what changed since a version', async () => {
    const all = await read(desktop);
    expect(all.records.map((record) => record.key)).toEqual(['draft 1']);
    expect(all.version).toBe(1);
    await put(laptop, 'draft 2', { value: { title: 'Welder' }, baseVersion: 0 });
    const changed = await read(desktop, all.version);
    expect(changed.records).toEqual([
      expect.objectContaining({ key: 'draft 2', version: 2, value: { title: 'Welder' } }),
    ]);
    expect(changed.version).toBe(2);
    expect((await read(desktop, changed.version)).records).toEqual([]);
  });

  it('answers 409 with the server’s version when the write was based on an older one', async () => {
    const first = userRecordSchema.parse(
      (await put(laptop, 'draft 1', { value: { title: 'Nurse (ICU)' }, baseVersion: 1 })).json(),
    );
    expect(first.version).toBe(3);
    // The desktop still has version 1.
    const stale = await put(desktop, 'draft 1', { value: { title: 'Nurse (ER)' }, baseVersion: 1 });
    expect(stale.status).toBe(409);
    const conflict = userRecordConflictSchema.parse(stale.json());
    expect(conflict.error.code).toBe('version_conflict');
    expect(conflict.current).toMatchObject({ version: 3, value: { title: 'Nurse (ICU)' } });
    expect(apiErrorBodySchema.parse(stale.json()).error.message).toContain('another device');
    // Chosen: the desktop's, written over version 3.
    const kept = await put(desktop, 'draft 1', { value: { title: 'Nurse (ER)' }, baseVersion: 3 });
    expect(kept.status).toBe(200);
    // A new record written twice from two devices: the second is a conflict too.
    await put(laptop, 'draft 9', { value: 1, baseVersion: 0 });
    expect((await put(desktop, 'draft 9', { value: 2, baseVersion: 0 })).status).toBe(409);
  });

  it('keeps a deletion as a tombstone so other devices remove it too', async () => {
    const since = (await read(desktop)).version;
    const gone = await put(laptop, 'draft 2', { value: null, baseVersion: 2, deleted: true });
    expect(userRecordSchema.parse(gone.json())).toMatchObject({
      key: 'draft 2',
      deleted: true,
      value: null,
    });
    const changed = await read(desktop, since);
    expect(changed.records).toEqual([
      expect.objectContaining({ key: 'draft 2', deleted: true, value: null }),
    ]);
  });

  it('keeps each user’s records and each collection apart', async () => {
    expect((await read(other)).records).toEqual([]);
    expect((await read(laptop, 0, 'submissions')).records).toEqual([]);
    await put(
      laptop,
      'batch-1',
      { value: { batchId: 'b-1', items: 2 }, baseVersion: 0 },
      'submissions',
    );
    expect((await read(desktop, 0, 'submissions')).records).toHaveLength(1);
    expect((await read(other, 0, 'submissions')).records).toEqual([]);
    // Another user's key is another record: writing it never touches Rita's.
    expect((await put(other, 'draft 1', { value: 'mine', baseVersion: 0 })).status).toBe(200);
  });

  it('pages a long history: a full page ends at its last record’s version', async () => {
    const browser = new TestBrowser(portal.url);
    await browser.signIn('sam@example.com', password);
    for (let i = 0; i < userRecordPageSize + 5; i += 1) {
      await put(browser, `s-${i}`, { value: i, baseVersion: 0 }, 'submissions');
    }
    const first = await read(browser, 0, 'submissions');
    expect(first.records).toHaveLength(userRecordPageSize);
    expect(first.version).toBe(first.records.at(-1)?.version);
    const rest = await read(browser, first.version, 'submissions');
    expect(rest.records).toHaveLength(5);
  });

  it('refuses unknown collections, bad versions and missing values, and strangers', async () => {
    expect((await laptop.call('GET', '/api/me/secrets')).status).toBe(404);
    expect((await laptop.call('GET', '/api/me/drafts?since=-1')).status).toBe(400);
    expect((await put(laptop, 'x', { baseVersion: 0 })).status).toBe(400);
    expect((await put(laptop, 'x', { value: 1, baseVersion: -1 })).status).toBe(400);
    const nobody = new TestBrowser(portal.url);
    expect((await nobody.call('GET', '/api/me/drafts')).status).toBe(401);
  });

  it('keeps the batch not yet sent as well, one record per kind and client org', async () => {
    const tray = { items: [{ id: 'i-1' }], sendKey: null, lost: null };
    const answer = await put(
      laptop,
      'tray:requisition:1001',
      { value: tray, baseVersion: 0 },
      'tray',
    );
    expect(answer.status).toBe(200);
    expect((await read(desktop, 0, 'tray')).records.map((record) => record.value)).toEqual([tray]);
    expect((await read(other, 0, 'tray')).records).toEqual([]);
  });

  it('refuses a page that acts for another user than the one signed in on its browser', async () => {
    const idOf = async (browser: TestBrowser) =>
      sessionStateSchema.parse((await browser.call('GET', '/api/session')).json()).user?.id ?? '';
    const rita = await idOf(laptop);
    const sam = await idOf(other);
    const before = await read(other, 0, 'tray');
    // Sam is signed in on the browser; a page still holding Rita's work tries to save it.
    const asRita = { [recordOwnerHeader]: rita };
    const written = await other.call('PUT', '/api/me/tray/tray:requisition:1001', {
      body: { value: { items: [], sendKey: 'rita' }, baseVersion: 0 },
      headers: asRita,
    });
    expect(written.status).toBe(401);
    expect(code(written)).toBe('unauthenticated');
    expect((await other.call('GET', '/api/me/tray', { headers: asRita })).status).toBe(401);
    expect(await read(other, 0, 'tray')).toEqual(before);
    // Naming the user who is signed in is fine.
    const own = await other.call('GET', '/api/me/tray', { headers: { [recordOwnerHeader]: sam } });
    expect(own.status).toBe(200);
  });
});

describe('what one user may keep, and how often they may ask', () => {
  const limits = { recordBytes: 2000, userBytes: 5000, userRecords: 3, perMinute: 20 };
  let small: TestPortal;
  let dbPath: string;

  beforeAll(async () => {
    dbPath = join(dir, 'small.db');
    small = await startTestPortal(testConfig(upstream.url, { AUTH: 'on', PORTAL_DB: dbPath }), {
      userRecordLimits: limits,
    });
    for (const name of ['una', 'vic', 'wes', 'xan']) {
      await addUser(dbPath, `${name}@example.com`, password, 'recruiter', [1001]);
    }
  });

  afterAll(async () => {
    await small.close();
  });

  async function as(name: string) {
    const browser = new TestBrowser(small.url);
    expect((await browser.signIn(`${name}@example.com`, password)).status).toBe(200);
    return browser;
  }

  const refusal = (answer: { json(): unknown }) => apiErrorBodySchema.parse(answer.json()).error;

  it('refuses a record larger than one may be, saying so, and keeps nothing of it', async () => {
    const una = await as('una');
    const answer = await put(una, 'big', { value: 'x'.repeat(2100), baseVersion: 0 });
    expect(answer.status).toBe(413);
    expect(refusal(answer)).toMatchObject({ code: 'body_too_large' });
    expect(refusal(answer).message).toContain('at most 2 KB for one draft or submission');
    expect(refusal(answer).message).toContain('stays in this browser');
    expect((await read(una)).records).toEqual([]);
  });

  it('refuses a record past the most one user may keep; a deletion makes room', async () => {
    const vic = await as('vic');
    for (const key of ['a', 'b', 'c']) {
      expect((await put(vic, key, { value: key, baseVersion: 0 })).status).toBe(200);
    }
    const fourth = await put(vic, 'd', { value: 'd', baseVersion: 0 }, 'submissions');
    expect(fourth.status).toBe(413);
    expect(refusal(fourth).code).toBe('quota_exceeded');
    expect(refusal(fourth).message).toMatch(/^You keep 3 drafts and submissions on the server/);
    expect(refusal(fourth).message).toContain('delete drafts you no longer need');
    // Changing a record it already has is no new one.
    const [a] = (await read(vic)).records;
    const changed = await put(vic, 'a', { value: 'a2', baseVersion: a?.version ?? 0 });
    expect(changed.status, changed.text).toBe(200);
    const b = (await read(vic)).records.find((record) => record.key === 'b');
    const gone = await put(vic, 'b', { value: null, baseVersion: b?.version ?? 0, deleted: true });
    expect(gone.status, gone.text).toBe(200);
    expect((await put(vic, 'd', { value: 'd', baseVersion: 0 }, 'submissions')).status).toBe(200);
  });

  it('refuses a record that would pass the bytes one user may keep', async () => {
    const wes = await as('wes');
    const value = 'y'.repeat(1800);
    expect((await put(wes, 'one', { value, baseVersion: 0 })).status).toBe(200);
    expect((await put(wes, 'two', { value, baseVersion: 0 })).status).toBe(200);
    const third = await put(wes, 'three', { value, baseVersion: 0 });
    expect(third.status).toBe(413);
    expect(refusal(third).code).toBe('quota_exceeded');
    expect(refusal(third).message).toMatch(
      /^Your drafts and submissions on the server take 3\.\d KB of the 4\.9 KB one user may keep/,
    );
    const [stored] = await queryTestDatabase<{ n: number }>(
      dbPath,
      `SELECT count(*) AS n FROM user_records WHERE key = 'three'`,
    );
    expect(Number(stored?.n)).toBe(0);
  });

  it('answers 429 past the calls one user may make in a minute; other users go on', async () => {
    const xan = await as('xan');
    const statuses: number[] = [];
    for (let i = 0; i < limits.perMinute + 1; i += 1) {
      statuses.push((await xan.call('GET', '/api/me/drafts')).status);
    }
    expect(statuses.slice(0, limits.perMinute).every((status) => status === 200)).toBe(true);
    const over = await xan.call('GET', '/api/me/drafts');
    expect(over.status).toBe(429);
    expect(Number(over.headers['retry-after'])).toBeGreaterThan(0);
    expect(refusal(over).code).toBe('rate_limited');
    expect(refusal(over).message).toContain('at most 20 a minute from one user');
    // Another user on the same address is not held up.
    const una = await as('una');
    expect((await una.call('GET', '/api/me/drafts')).status).toBe(200);
  });
});
