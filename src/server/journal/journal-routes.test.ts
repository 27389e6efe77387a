import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiErrorBodySchema } from '@/domain/api-error';
import {
  journalCurlSchema,
  journalDetailSchema,
  journalEntrySchema,
  journalPageSchema,
  journalStatusSchema,
  replayOfHeader,
  type JournalSummary,
} from '@/domain/journal';
import {
  startCaptureUpstream,
  startTestPortal,
  testConfig,
  type CaptureUpstream,
  type TestPortal,
} from '@/test-support/capture-upstream';
import { harSchema } from '@/test-support/har-schema';

// The inspector's API over a journal of real calls through the proxy.

const orgs = '?Client_Org_Id=1001&Vendor_Org_Id=9001';
const json = { 'content-type': 'application/json' };
/** Calls made in beforeAll: enough for several pages of the list and of the export. */
const gets = 230;
const posts = 20;

let dir: string;
let upstream: CaptureUpstream;
let portal: TestPortal;
const portals: TestPortal[] = [];

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'journal-api-'));
  upstream = await startCaptureUpstream();
  upstream.respondWith((captured) =>
    captured.method === 'POST'
      ? {
          status: 202,
          headers: json,
          body: `{"batchid":"rb_${captured.body.length}","received":1}`,
        }
      : { status: 200, headers: json, body: `[{"Req_Id":"${captured.query.length}"}]` },
  );
  portal = await startTestPortal(
    testConfig(upstream.url, {
      PORTAL_DB: join(dir, 'portal.db'),
      PORTAL_RATE_LIMIT_PER_MINUTE: '0',
    }),
  );
  portals.push(portal);
  for (let i = 0; i < gets; i += 1) {
    await portal.call('GET', `/api/vms/requisitions${orgs}&filtervalue=${i}`);
  }
  for (let i = 0; i < posts; i += 1) {
    await portal.call('POST', `/api/vms/requisitionimport${orgs}`, {
      headers: json,
      body: `[{"clientinternalreq":"API-${i}","titlerole":"Tester ${'x'.repeat(i)} O'Brien"}]`,
    });
  }
  await portal.call('POST', `/api/vms/requisitionimport?Client_Org_Id=666&Vendor_Org_Id=9001`, {
    headers: json,
    body: '[{}]',
  });
});

afterAll(async () => {
  for (const running of portals) await running.close();
  await upstream.close();
  rmSync(dir, { recursive: true, force: true });
});

async function page(query: string) {
  const res = await portal.call('GET', `/api/journal${query}`);
  expect(res.status, res.body.toString()).toBe(200);
  return journalPageSchema.parse(res.json());
}

async function refusal(path: string) {
  const res = await portal.call('GET', path);
  return { status: res.status, error: apiErrorBodySchema.parse(res.json()).error };
}

describe('GET /api/journal', () => {
  it('pages through every call, newest first, with a cursor', async () => {
    const seen: JournalSummary[] = [];
    let cursor: string | null = '';
    while (cursor !== null) {
      const next: { entries: JournalSummary[]; next: string | null } = await page(
        `?limit=100${cursor ? `&cursor=${cursor}` : ''}`,
      );
      seen.push(...next.entries);
      cursor = next.next;
    }
    const ids = seen.map((entry) => entry.id);
    expect(ids).toHaveLength(gets + posts + 1);
    expect(ids).toEqual([...ids].sort((a, b) => b - a));
    expect(new Set(ids).size).toBe(ids.length);
    expect((await page('')).entries).toHaveLength(50);
  });

  it('filters by method, status, operation, org and batch, and searches bodies', async () => {
    expect((await page('?method=POST&limit=200')).entries).toHaveLength(posts + 1);
    expect((await page('?status=refused')).entries.map((entry) => entry.clientOrgId)).toEqual([
      666,
    ]);
    expect((await page('?status=4xx')).entries).toHaveLength(1);
    expect((await page('?status=2xx&operation=requisitionimport&limit=200')).entries).toHaveLength(
      posts,
    );
    expect((await page('?org=666')).entries).toHaveLength(1);
    const [one] = (await page('?q=API-7')).entries;
    expect(one?.batchId).not.toBeNull();
    expect((await page(`?batch=${one?.batchId ?? ''}`)).entries.map((entry) => entry.id)).toEqual([
      one?.id,
    ]);
    expect((await page(`?q=${encodeURIComponent("O'Brien")}&limit=200`)).entries).toHaveLength(
      posts,
    );
    expect((await page('?q=tester+API-3')).entries).toHaveLength(1);
    expect((await page('?q=nothing-like-this')).entries).toEqual([]);
  });

  it('answers search text that looks like syntax, and never with a 500', async () => {
    for (const q of ['AND', 'NEAR(', 'a:b', '"API-3', 'OR OR', '*API', 'x^y', '(API-3)']) {
      const res = await portal.call('GET', `/api/journal?q=${encodeURIComponent(q)}`);
      expect(res.status, q).toBe(200);
    }
    const blank = await refusal(`/api/journal?q=${encodeURIComponent('" * ()')}`);
    expect(blank.status).toBe(400);
    expect(blank.error).toMatchObject({ code: 'invalid_parameter', details: [{ field: 'q' }] });
  });

  it.each([
    ['?limit=0', 'limit'],
    ['?limit=201', 'limit'],
    ['?limit=ten', 'limit'],
    ['?status=7xx', 'status'],
    ['?operation=engagements', 'operation'],
    ['?from=yesterday', 'from'],
    ['?cursor=-1', 'cursor'],
    ['?stauts=2xx', 'stauts'],
    ['?method=GET&method=POST', 'method'],
  ])('refuses %s with 400 naming %s', async (query, field) => {
    const { status, error } = await refusal(`/api/journal${query}`);
    expect(status).toBe(400);
    expect(error.code).toBe('invalid_parameter');
    expect(error.details.map((detail) => detail.field)).toContain(field);
    expect(error.message).toContain(field);
  });
});

describe('GET /api/journal/:id and its cURL', () => {
  it('answers 404 for a call that is not there', async () => {
    for (const path of ['/api/journal/999999', '/api/journal/abc', '/api/journal/999999/curl']) {
      const { status, error } = await refusal(path);
      expect(status).toBe(404);
      expect(error.code).toBe('not_found');
    }
  });

  it('gives the cURL of a call with no secret in it, and none for a path that is no operation', async () => {
    const [post] = (await page('?method=POST&status=2xx&limit=1')).entries;
    const res = await portal.call('GET', `/api/journal/${post?.id}/curl`);
    const { curl, snippet } = journalCurlSchema.parse(res.json());
    expect(curl).toContain(`--url '${upstream.url}requisitionimport${orgs}'`);
    expect(curl).toContain('"x-api-key: $VMS_API_KEY"');
    expect(curl).toContain(`"x-signature: $(${snippet})"`);
    expect(snippet).toContain('"$VMS_API_SECRET"');

    await portal.call('GET', `/api/vms/nothing${orgs}`);
    const [nowhere] = (await page('?limit=1')).entries;
    const { status, error } = await refusal(`/api/journal/${nowhere?.id}/curl`);
    expect(status).toBe(404);
    expect(error.message).toContain('no VMS operation');
  });
});

describe('GET /api/journal/export', () => {
  it('downloads the selection as HAR 1.2, oldest first, streamed over several pages', async () => {
    const res = await portal.call('GET', '/api/journal/export?format=har&operation=requisitions');
    expect(res.status).toBe(200);
    expect(res.headers['content-disposition']).toMatch(
      /^attachment; filename="vms-calls-.+\.har"$/,
    );
    expect(res.headers['transfer-encoding']).toBe('chunked');
    const har = harSchema.parse(JSON.parse(res.body.toString('utf8')));
    expect(har.log.entries).toHaveLength(gets);
    const started = har.log.entries.map((entry) => entry.startedDateTime);
    expect(started).toEqual([...started].sort());
    const [first] = har.log.entries;
    expect(first?.request.url).toBe(`${upstream.url}requisitions${orgs}&filtervalue=0`);
    expect(first?.request.queryString).toContainEqual({ name: 'filtervalue', value: '0' });
    // The headers sent to the VMS, less the signing ones.
    expect(first?.request.headers).toEqual([
      { name: 'host', value: new URL(upstream.url).host },
      { name: 'accept', value: 'application/json' },
    ]);
    expect(first?.timings.wait).toBeGreaterThan(0);
    expect(first?.response.content.text).toBe(`[{"Req_Id":"${`${orgs}&filtervalue=0`.length}"}]`);
  });

  it('puts a refused call and a POST body in HAR too', async () => {
    const res = await portal.call('GET', '/api/journal/export?method=POST');
    const har = harSchema.parse(JSON.parse(res.body.toString('utf8')));
    expect(har.log.entries).toHaveLength(posts + 1);
    const refused = har.log.entries.at(-1);
    expect(refused?.response.status).toBe(403);
    expect(refused?._outcome).toBe('refused');
    expect(refused?.request.url).toMatch(
      /^http:\/\/127\.0\.0\.1:\d+\/api\/vms\/requisitionimport\?Client_Org_Id=666/,
    );
    expect(har.log.entries[0]?.request.postData?.text).toBe(
      `[{"clientinternalreq":"API-0","titlerole":"Tester  O'Brien"}]`,
    );
  });

  it('downloads the selection as JSON Lines of full entries', async () => {
    const res = await portal.call('GET', '/api/journal/export?format=jsonl&method=POST');
    expect(res.headers['content-disposition']).toMatch(/\.jsonl"$/);
    expect(res.headers['content-type']).toContain('application/x-ndjson');
    const lines = res.body.toString('utf8').trimEnd().split('\n');
    const entries = lines.map((line) => journalEntrySchema.parse(JSON.parse(line)));
    expect(entries).toHaveLength(posts + 1);
    expect(entries[0]?.requestBody?.text).toContain('API-0');
  });

  it('refuses a bad format or search before it starts', async () => {
    expect((await refusal('/api/journal/export?format=csv')).status).toBe(400);
    expect((await refusal(`/api/journal/export?q=${encodeURIComponent('"')}`)).status).toBe(400);
  });
});

describe('guards', () => {
  it('answers with the API’s strict headers, and only to this machine’s names', async () => {
    const res = await portal.call('GET', '/api/journal');
    expect(res.headers['content-security-policy']).toBe(
      "default-src 'none'; frame-ancestors 'none'",
    );
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['cross-origin-resource-policy']).toBe('same-origin');
    const rebound = await portal.call('GET', '/api/journal', {
      headers: { host: 'evil.example:8787' },
    });
    expect(rebound.status).toBe(403);
  });

  it('says what it keeps', async () => {
    const res = await portal.call('GET', '/api/journal/status');
    expect(journalStatusSchema.parse(res.json())).toEqual({
      enabled: true,
      retentionDays: 30,
      maxMb: 500,
      bodyLimitKb: 256,
    });
  });
});

describe('JOURNAL=off', () => {
  it('records nothing, says so, and ignores the replay header', async () => {
    const off = await startTestPortal(testConfig(upstream.url, { JOURNAL: 'off' }));
    portals.push(off);
    const sent = await off.call('POST', `/api/vms/requisitionimport${orgs}`, {
      headers: { ...json, [replayOfHeader]: '12345' },
      body: '[{}]',
    });
    expect(sent.status).toBe(202);
    const listed = await off.call('GET', '/api/journal');
    expect(listed.status).toBe(404);
    expect(apiErrorBodySchema.parse(listed.json()).error.message).toContain('JOURNAL=off');
    expect(
      journalStatusSchema.parse((await off.call('GET', '/api/journal/status')).json()),
    ).toMatchObject({
      enabled: false,
    });
  });
});

describe('personal data with sign-in off', () => {
  it('shows the calls made without an account in full, to whoever uses the loopback portal', async () => {
    const sent = await portal.call('POST', `/api/vms/candidates${orgs}`, {
      headers: json,
      body: '[{"requirementid":"40001","firstname":"Wilhelmina","candemail":"wil@example.org"}]',
    });
    expect(sent.status).toBe(202);
    const [call] = (await page('?q=Wilhelmina')).entries;
    const res = await portal.call('GET', `/api/journal/${call?.id}`);
    const detail = journalDetailSchema.parse(res.json());
    expect(detail).toMatchObject({ personalData: 'full', mayReveal: false });
    expect(detail.requestBody?.personal).toBeUndefined();
    expect(detail.requestBody?.text).toContain('"candemail":"wil@example.org"');

    // A reveal still wants its reason.
    const reveal = await portal.call('POST', `/api/journal/${call?.id}/reveal`, {
      headers: json,
      body: '{"reason":""}',
    });
    expect(reveal.status).toBe(400);
    expect(apiErrorBodySchema.parse(reveal.json()).error.message).toBe(
      'Give a reason to reveal personal data: it is kept in the audit trail.',
    );
  });
});
