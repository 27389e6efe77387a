import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { inflateRawSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiErrorBodySchema } from '@/domain/api-error';
import {
  journalDetailSchema,
  journalEntrySchema,
  journalPageSchema,
  replayOfHeader,
  uncheckedHeader,
  type JournalSummary,
} from '@/domain/journal';
import { freePort } from '@/server/free-port';
import {
  startCaptureUpstream,
  startTestPortal,
  testConfig,
  testCredentials,
  type CaptureUpstream,
  type TestPortal,
} from '@/test-support/capture-upstream';
import { queryTestDatabase, testDatabaseBytes } from '@/test-support/test-database';

// Every call through the proxy is in the journal, forwarded or refused, with
// what QA needs to read it, and nothing that signs a call.

const orgs = '?Client_Org_Id=1001&Vendor_Org_Id=9001';
const json = { 'content-type': 'application/json' };
const batch = '[{"clientinternalreq":"JOURNAL-REQ-1","titlerole":"Zürich analyst"},{"x":2}]';

let dir: string;
let dbFile: string;
let upstream: CaptureUpstream;
let portal: TestPortal;
const portals: TestPortal[] = [];

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'portal-journal-'));
  dbFile = join(dir, 'portal.db');
  upstream = await startCaptureUpstream();
  upstream.respondWith((captured) => {
    if (captured.method === 'POST') {
      return {
        status: 202,
        headers: {
          'content-type': 'application/json',
          date: 'Tue, 01 Dec 2026 10:00:00 GMT',
          'x-request-id': 'vms-req-77',
          'set-cookie': 'vms-session=abc',
        },
        body: '{"batchid":"rb_journal_1","received":2}',
      };
    }
    if (captured.path.endsWith('requisitionresults')) {
      return {
        status: 200,
        headers: { 'content-type': 'application/json' },
        body: '[{"Batch_Id":"rb_journal_1","Row":1,"Status":"Pending"}]',
      };
    }
    return { status: 500, headers: { 'content-type': 'text/plain' }, body: 'VMS exploded' };
  });
  portal = await startTestPortal(
    testConfig(upstream.url, { PORTAL_DB: dbFile, VMS_MAX_BATCH: '3' }),
  );
  portals.push(portal);
});

afterAll(async () => {
  for (const running of portals) await running.close();
  await upstream.close();
  rmSync(dir, { recursive: true, force: true });
});

async function journalPage(query = '') {
  const res = await portal.call('GET', `/api/journal${query}`);
  expect(res.status).toBe(200);
  return journalPageSchema.parse(res.json());
}

async function detail(id: number) {
  const res = await portal.call('GET', `/api/journal/${id}`);
  expect(res.status).toBe(200);
  return journalDetailSchema.parse(res.json());
}

function errorCode(res: { json(): unknown }): string {
  return apiErrorBodySchema.parse(res.json()).error.code;
}

describe('recording every call', () => {
  let sent: JournalSummary;

  it('records a forwarded batch with what was sent and what came back', async () => {
    const res = await portal.call('POST', `/api/vms/requisitionimport${orgs}`, {
      headers: { ...json, 'idempotency-key': 'journal-key-1', [uncheckedHeader]: '1' },
      body: batch,
    });
    expect(res.status).toBe(202);

    const { entries } = await journalPage();
    const [entry] = entries;
    if (!entry) throw new Error('the call is not in the journal');
    sent = entry;
    expect(entry).toMatchObject({
      operation: 'requisitionimport',
      method: 'POST',
      path: `/api/vms/requisitionimport${orgs}`,
      clientOrgId: 1001,
      vendorOrgId: 9001,
      itemCount: 2,
      batchId: 'rb_journal_1',
      idempotencyKey: 'journal-key-1',
      replayed: false,
      status: 202,
      upstreamStatus: 202,
      outcome: 'forwarded',
      errorCode: null,
      failure: null,
      replayOf: null,
      unchecked: true,
      requestSize: Buffer.byteLength(batch),
    });
    expect(entry.latencyMs).toBeGreaterThan(0);
    expect(Date.now() - Date.parse(entry.at)).toBeLessThan(60_000);

    const full = await detail(entry.id);
    expect(full.url).toBe(`${upstream.url}requisitionimport${orgs}`);
    expect(full.requestBody).toMatchObject({ text: batch, encoding: 'utf8', truncated: false });
    expect(full.responseBody?.text).toBe('{"batchid":"rb_journal_1","received":2}');
    // The safe headers only: no cookie from the VMS.
    expect(full.responseHeaders).toEqual({
      'content-type': 'application/json',
      date: 'Tue, 01 Dec 2026 10:00:00 GMT',
      'x-request-id': 'vms-req-77',
    });
    expect(full.lateAnswer).toBeNull();
    // Waiting for the VMS, then receiving: the first byte came within the call's time.
    expect(full.firstByteMs).toBeGreaterThan(0);
    expect(full.firstByteMs).toBeLessThanOrEqual(full.latencyMs);
  });

  it('records a repeat answered from the idempotency store as replayed, not sent again', async () => {
    const before = upstream.requests.length;
    const res = await portal.call('POST', `/api/vms/requisitionimport${orgs}`, {
      headers: { ...json, 'idempotency-key': 'journal-key-1' },
      body: batch,
    });
    expect(res.status).toBe(202);
    expect(upstream.requests.length).toBe(before);
    const [entry] = (await journalPage()).entries;
    expect(entry).toMatchObject({
      replayed: true,
      upstreamStatus: null,
      outcome: 'forwarded',
      batchId: 'rb_journal_1',
      unchecked: false,
    });
    // The VMS's first byte came for the first send, not this one.
    expect((await detail(entry?.id ?? 0)).firstByteMs).toBeNull();
  });

  it('links a results poll to its POST, and a replay to its original', async () => {
    await portal.call('GET', `/api/vms/requisitionresults${orgs}&batchid=rb_journal_1`);
    const replay = await portal.call('POST', `/api/vms/requisitionimport${orgs}`, {
      headers: { ...json, 'idempotency-key': 'journal-key-2', [replayOfHeader]: String(sent.id) },
      body: batch,
    });
    expect(replay.status).toBe(202);

    const original = await detail(sent.id);
    expect(original.related.map((call) => [call.method, call.operation])).toEqual([
      ['POST', 'requisitionimport'],
      ['GET', 'requisitionresults'],
      ['POST', 'requisitionimport'],
    ]);
    expect(original.replays).toHaveLength(1);
    expect(original.replays[0]).toMatchObject({
      replayOf: sent.id,
      idempotencyKey: 'journal-key-2',
    });
  });

  it('refuses a replay that names no journal entry, with a clear 400, and records that', async () => {
    const before = upstream.requests.length;
    for (const value of ['999999', 'abc']) {
      const res = await portal.call('POST', `/api/vms/requisitionimport${orgs}`, {
        headers: { ...json, [replayOfHeader]: value },
        body: batch,
      });
      expect(res.status).toBe(400);
      expect(errorCode(res)).toBe('invalid_parameter');
      expect(apiErrorBodySchema.parse(res.json()).error.message).toContain('X-Portal-Replay-Of');
    }
    expect(upstream.requests.length).toBe(before);
    const [latest] = (await journalPage()).entries;
    expect(latest).toMatchObject({
      outcome: 'refused',
      errorCode: 'invalid_parameter',
      status: 400,
      replayOf: null,
    });
  });

  it('keeps the Idempotency-Key of a call refused before its key was read, and no malformed one', async () => {
    for (const [key, kept] of [
      ['refused-key-1', 'refused-key-1'],
      ['not a key!', null],
    ] as const) {
      const res = await portal.call(
        'POST',
        '/api/vms/candidates?Client_Org_Id=666&Vendor_Org_Id=9001',
        {
          headers: { ...json, 'idempotency-key': key },
          body: '[{}]',
        },
      );
      expect(res.status).toBe(403);
      const [entry] = (await journalPage()).entries;
      expect(entry).toMatchObject({ outcome: 'refused', errorCode: 'org_not_permitted' });
      expect(entry?.idempotencyKey).toBe(kept);
    }
  });

  it.each([
    [
      'an org this portal may not act for',
      'POST',
      '/api/vms/candidates?Client_Org_Id=666&Vendor_Org_Id=9001',
      json,
      '[{}]',
      403,
      'org_not_permitted',
    ],
    [
      'a body that is not an array',
      'POST',
      `/api/vms/candidates${orgs}`,
      json,
      '{"a":1}',
      400,
      'invalid_body',
    ],
    [
      'too many items',
      'POST',
      `/api/vms/candidates${orgs}`,
      json,
      '[{},{},{},{}]',
      400,
      'invalid_body',
    ],
    [
      'a body that is not JSON',
      'POST',
      `/api/vms/candidates${orgs}`,
      { 'content-type': 'text/plain' },
      'hello',
      415,
      'unsupported_media_type',
    ],
    ['no operation', 'GET', `/api/vms/engagements${orgs}`, {}, undefined, 404, 'not_found'],
  ])(
    'records a call refused for %s with its code',
    async (_, method, path, headers, body, status, code) => {
      const before = upstream.requests.length;
      const res = await portal.call(method as 'GET' | 'POST', path, { headers, body });
      expect(res.status).toBe(status);
      expect(upstream.requests.length).toBe(before);
      const [entry] = (await journalPage()).entries;
      expect(entry).toMatchObject({
        method,
        path,
        status,
        outcome: 'refused',
        errorCode: code,
        upstreamStatus: null,
      });
      const full = await detail(entry?.id ?? 0);
      expect(apiErrorBodySchema.parse(JSON.parse(full.responseBody?.text ?? '')).error.code).toBe(
        code,
      );
      if (typeof body === 'string' && status !== 415) expect(full.requestBody?.text).toBe(body);
    },
  );

  it('records refusals made before the handler: too large, too many, a foreign host name', async () => {
    const strict = await startTestPortal(
      testConfig(upstream.url, {
        PORTAL_DB: join(dir, 'strict.db'),
        VMS_BODY_LIMIT_BYTES: '2048',
        PORTAL_RATE_LIMIT_PER_MINUTE: '2',
      }),
    );
    portals.push(strict);
    const before = upstream.requests.length;
    const big = JSON.stringify([{ text: 'x'.repeat(3000) }]);
    expect(
      (await strict.call('POST', `/api/vms/candidates${orgs}`, { headers: json, body: big }))
        .status,
    ).toBe(413);
    expect(
      (
        await strict.call('GET', `/api/vms/requisitions${orgs}`, {
          headers: { host: 'evil.example' },
        })
      ).status,
    ).toBe(403);
    await strict.call('GET', `/api/vms/nothing${orgs}`);
    // The third call the limiter counts (the foreign host name was refused before it).
    expect((await strict.call('GET', `/api/vms/requisitions${orgs}`)).status).toBe(429);
    expect(upstream.requests.length).toBe(before);

    const { entries } = journalPageSchema.parse((await strict.call('GET', '/api/journal')).json());
    expect(entries.map((entry) => [entry.status, entry.outcome, entry.errorCode])).toEqual([
      [429, 'refused', 'rate_limited'],
      [404, 'refused', 'not_found'],
      [403, 'refused', 'host_not_allowed'],
      [413, 'refused', 'body_too_large'],
    ]);
  });

  it('records the VMS’s errors as forwarded with its status', async () => {
    const res = await portal.call('GET', `/api/vms/requisitions${orgs}`);
    expect(res.status).toBe(500);
    const [entry] = (await journalPage()).entries;
    expect(entry).toMatchObject({ status: 500, upstreamStatus: 500, outcome: 'forwarded' });
    expect((await detail(entry?.id ?? 0)).responseBody?.text).toBe('VMS exploded');
  });

  it('records a call the VMS never answered as failed, timeout or connection', async () => {
    const slow = await startTestPortal(
      testConfig(upstream.url, { PORTAL_DB: join(dir, 'slow.db'), VMS_TIMEOUT_MS: '200' }),
    );
    portals.push(slow);
    upstream.respondWith(() => ({ status: 200, body: '[]', delayMs: 3000 }));
    expect((await slow.call('GET', `/api/vms/requisitions${orgs}`)).status).toBe(504);
    const port = await freePort();
    const stranded = await startTestPortal(
      testConfig(`http://127.0.0.1:${port}/`, { PORTAL_DB: join(dir, 'stranded.db') }),
    );
    portals.push(stranded);
    expect((await stranded.call('GET', `/api/vms/requisitions${orgs}`)).status).toBe(502);

    for (const [running, failure, code, status] of [
      [slow, 'timeout', 'upstream_timeout', 504],
      [stranded, 'connection', 'upstream_unreachable', 502],
    ] as const) {
      const res = await running.call('GET', '/api/journal');
      const [entry] = journalPageSchema.parse(res.json()).entries;
      expect(entry).toMatchObject({ outcome: 'failed', failure, errorCode: code, status });
    }
  });

  it('records the trace a call came in, as the VMS was told it, and finds a trace’s calls', async () => {
    const traceId = '4bf92f3577b34da6a3ce929d0e0e4736';
    const res = await portal.call(
      'GET',
      `/api/vms/requisitionresults${orgs}&batchid=rb_journal_1`,
      {
        headers: { traceparent: `00-${traceId}-00f067aa0ba902b7-01` },
      },
    );
    expect(res.status).toBe(200);
    // The VMS got the same trace, with the portal's span as the parent.
    const sent = upstream.requests.at(-1);
    expect(String(sent?.headers.traceparent)).toMatch(
      new RegExp(`^00-${traceId}-[0-9a-f]{16}-01$`),
    );
    expect(String(sent?.headers.traceparent)).not.toContain('00f067aa0ba902b7');
    const { entries } = await journalPage(`?trace=${traceId}`);
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({ traceId, operation: 'requisitionresults' });
    // A call that came without one was recorded under a trace of its own.
    const others = (await journalPage('?operation=requisitionimport')).entries;
    expect(
      others.every(
        (entry) => /^[0-9a-f]{32}$/.test(entry.traceId ?? '') && entry.traceId !== traceId,
      ),
    ).toBe(true);
  });
});

describe('secrets', () => {
  it('keeps an echoed key, secret or signature out of the journal', async () => {
    upstream.respondWith((captured) => ({
      status: 401,
      headers: { 'content-type': 'text/plain', 'x-request-id': testCredentials.apiKey },
      body: `unknown key ${String(captured.headers['x-api-key'])} with secret ${testCredentials.apiSecret} signed ${String(captured.headers['x-signature'])}`,
    }));
    const res = await portal.call('GET', `/api/vms/requisitions${orgs}`);
    expect(res.status).toBe(401);
    const [entry] = (await journalPage()).entries;
    const full = journalEntrySchema.parse(
      (await portal.call('GET', `/api/journal/${entry?.id}`)).json(),
    );
    expect(full.responseBody).toMatchObject({
      text: 'unknown key [redacted] with secret [redacted] signed [redacted]',
      redacted: true,
    });
    expect(full.responseHeaders['x-request-id']).toBe('[redacted]');
  });

  it('finds a batch by any name or value it carries, and never by a secret one of its items holds', async () => {
    upstream.respondWith(() => ({
      status: 202,
      headers: { 'content-type': 'application/json' },
      body: '{"batchid":"rb_search_1","received":2}',
    }));
    const send = (key: string, items: unknown[]) =>
      portal.call('POST', `/api/vms/requisitionimport${orgs}`, {
        headers: { ...json, 'idempotency-key': key },
        body: JSON.stringify(items),
      });
    const plain = await send('journal-search-1', [
      { titlerole: 'Übersetzerin', clientinternalreq: 'REQ-2026-0420', city: 'Zürich' },
      { titlerole: 'Analyst', clientinternalreq: 'REQ-2026-0421', city: 'Zürich', openings: 3 },
    ]);
    expect(plain.status).toBe(202);
    const leaky = await send('journal-search-2', [
      { titlerole: 'Leaky clerk', note: `our key is ${testCredentials.apiKey}` },
    ]);
    expect(leaky.status).toBe(202);
    const keysFound = async (q: string) =>
      (await journalPage(`?q=${encodeURIComponent(q)}&operation=requisitionimport`)).entries.map(
        (entry) => entry.idempotencyKey,
      );

    // A value whole, a word of one without its accent, a field name, a number.
    expect(await keysFound('REQ-2026-0420')).toEqual(['journal-search-1']);
    expect(await keysFound('ubersetzerin')).toEqual(['journal-search-1']);
    expect(await keysFound('clientinternalreq 0421')).toEqual(['journal-search-1']);
    expect(await keysFound('openings 3')).toEqual(['journal-search-1']);
    // The batch that carried the key is found by its other words, and its body was kept redacted…
    expect(await keysFound('leaky clerk')).toEqual(['journal-search-2']);
    const [entry] = (await journalPage('?q=leaky')).entries;
    const full = await detail(entry?.id ?? 0);
    expect(full.requestBody).toMatchObject({ redacted: true });
    expect(full.requestBody?.text).toContain('our key is [redacted]');
    // …and the search indexed that redacted body, not the bytes as they came.
    expect(await keysFound(testCredentials.apiKey)).toEqual([]);
    expect(await keysFound('5f0c2a7d91b4')).toEqual([]);
  });

  it('has no key, secret or signature in the database file or in any answer', async () => {
    // Exports and cURL too, so every read path of the journal is searched.
    const { entries } = await journalPage('?limit=200');
    for (const entry of entries) await portal.call('GET', `/api/journal/${entry.id}/curl`);
    await portal.call('GET', '/api/journal/export?format=har');
    await portal.call('GET', '/api/journal/export?format=jsonl');
    await portal.close();
    portals.splice(portals.indexOf(portal), 1);

    const signatures = upstream.requests.map((r) => String(r.headers['x-signature']));
    expect(signatures.length).toBeGreaterThan(5);
    const secrets = [testCredentials.apiKey, testCredentials.apiSecret, ...signatures];

    const bytes = testDatabaseBytes(dbFile);
    expect(bytes.length).toBeGreaterThan(10_000);
    // Compressed bodies could hide a secret from a byte search: read them inflated too.
    const bodies = (
      await queryTestDatabase<{ compressed: number; data: Buffer }>(
        dbFile,
        'SELECT compressed, data FROM journal_bodies',
      )
    ).map((row) => (row.compressed === 1 ? inflateRawSync(row.data) : row.data));
    expect(bodies.length).toBeGreaterThan(5);
    const answers = portal.responses.map(
      (r) => `${JSON.stringify(r.headers)}\n${r.body.toString('utf8')}`,
    );
    expect(answers.join('').length).toBeGreaterThan(10_000);

    for (const secret of secrets) {
      expect(bytes.includes(Buffer.from(secret))).toBe(false);
      // A PostgreSQL dump shows binary columns in hex.
      expect(bytes.includes(Buffer.from(Buffer.from(secret).toString('hex')))).toBe(false);
      for (const body of bodies) expect(body.includes(Buffer.from(secret))).toBe(false);
      for (const answer of answers) expect(answer).not.toContain(secret);
    }
  });
});
