import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { journalEntrySchema, journalPageSchema } from '@/domain/journal';
import {
  requisitionImportPath,
  startCaptureUpstream,
  startTestPortal,
  testConfig,
  type CaptureUpstream,
  type CapturedRequest,
  type TestPortal,
} from '@/test-support/capture-upstream';
import { testDatabaseBytes } from '@/test-support/test-database';

/*
 * A VMS that echoes what it was sent: the key, the secret and the call's signature, in its body
 * and in the headers the portal passes on, as they are, JSON-escaped and percent-encoded. None
 * of it may reach the browser, a remembered answer or the journal.
 */

// A key and secret with characters that JSON and percent-encoding both change, so each form of
// the echo is a different string.
const apiKey = 'key/with"quote+plus-5f0c2a';
const apiSecret = 'secret\\back slash&amp-e83b6d';
const orgs = '?Client_Org_Id=1001&Vendor_Org_Id=9001';
const batch = '[{"clientinternalreq":"ECHO-1","titlerole":"Analyst"}]';

let dir: string;
let dbFile: string;
let upstream: CaptureUpstream;
let portal: TestPortal;

/** Every form of every credential the upstream saw for this request. */
function echoOf(captured: CapturedRequest): string {
  const signature = String(captured.headers['x-signature']);
  const key = String(captured.headers['x-api-key']);
  return [
    `key ${key} secret ${apiSecret} signature ${signature}`,
    `json ${JSON.stringify({ key, secret: apiSecret, signature })}`,
    `url ?k=${encodeURIComponent(key)}&s=${encodeURIComponent(apiSecret)}&sig=${signature}`,
  ].join('\n');
}

/** Every credential form a response must not hold. */
function forbidden(): string[] {
  const signatures = upstream.requests.map((r) => String(r.headers['x-signature']));
  return [apiKey, apiSecret, ...signatures].flatMap((secret) => [
    secret,
    JSON.stringify(secret).slice(1, -1),
    encodeURIComponent(secret),
  ]);
}

function expectClean(text: string) {
  for (const secret of forbidden()) expect(text).not.toContain(secret);
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'portal-echo-'));
  dbFile = join(dir, 'portal.db');
  upstream = await startCaptureUpstream();
  portal = await startTestPortal(
    testConfig(upstream.url, {
      PORTAL_DB: dbFile,
      VMS_API_KEY: apiKey,
      VMS_API_SECRET: apiSecret,
    }),
  );
});

afterAll(async () => {
  await portal.close();
  await upstream.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('a VMS that echoes the credentials', () => {
  it('has them replaced in an error body and in the headers passed on', async () => {
    upstream.respondWith((captured) => ({
      status: 401,
      headers: {
        'content-type': `text/plain; key=${String(captured.headers['x-api-key'])}`,
        'retry-after': String(captured.headers['x-signature']),
      },
      body: echoOf(captured),
    }));
    const res = await portal.call('GET', `/api/vms/requisitions${orgs}`);
    expect(res.status).toBe(401);
    const text = res.body.toString('utf8');
    expectClean(text);
    expectClean(JSON.stringify(res.headers));
    // The rest of the answer is the VMS's, word for word.
    expect(text).toBe(
      [
        'key [redacted] secret [redacted] signature [redacted]',
        'json {"key":"[redacted]","secret":"[redacted]","signature":"[redacted]"}',
        'url ?k=[redacted]&s=[redacted]&sig=[redacted]',
      ].join('\n'),
    );
    expect(res.headers['content-type']).toBe('text/plain; key=[redacted]');
    expect(res.headers['retry-after']).toBe('[redacted]');
  });

  it('keeps a remembered answer clean, so a retry of the batch gets no credential either', async () => {
    upstream.respondWith((captured) => ({
      status: 202,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ batchid: 'echo-batch-1', note: echoOf(captured) }),
    }));
    const init = {
      headers: { 'content-type': 'application/json', 'idempotency-key': 'echo-key-1' },
      body: batch,
    };
    const first = await portal.call('POST', requisitionImportPath, init);
    expect(first.status).toBe(202);
    const again = await portal.call('POST', requisitionImportPath, init);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.body.equals(first.body)).toBe(true);
    expect(upstream.requests.filter((r) => r.method === 'POST')).toHaveLength(1);
    expect(JSON.parse(first.body.toString('utf8'))).toMatchObject({ batchid: 'echo-batch-1' });
    expectClean(first.body.toString('utf8'));
    expectClean(again.body.toString('utf8'));
  });

  it('passes an answer without any credential on as it came', async () => {
    const body = '[{"Batch_Id":"echo-batch-1","Row":1,"Status":"Success","ErrorMessage":""}]';
    upstream.respondWith(() => ({
      status: 200,
      headers: { 'content-type': 'application/json' },
      body,
    }));
    const res = await portal.call('GET', `/api/vms/requisitionresults${orgs}&batchid=echo-batch-1`);
    expect(res.body.toString('utf8')).toBe(body);
  });

  it('marks the journal entry redacted, and nothing anywhere holds a credential', async () => {
    const page = journalPageSchema.parse(
      (await portal.call('GET', '/api/journal?limit=50')).json(),
    );
    const echoed = page.entries.find((entry) => entry.status === 401);
    const full = journalEntrySchema.parse(
      (await portal.call('GET', `/api/journal/${echoed?.id}`)).json(),
    );
    expect(full.responseBody?.redacted).toBe(true);
    expect(full.responseBody?.text).toContain('signature [redacted]');
    const plain = page.entries.find((entry) => entry.operation === 'requisitionresults');
    const plainFull = journalEntrySchema.parse(
      (await portal.call('GET', `/api/journal/${plain?.id}`)).json(),
    );
    expect(plainFull.responseBody?.redacted).toBe(false);

    await portal.call('GET', '/api/journal/export?format=har');
    for (const seen of portal.responses) {
      expectClean(`${JSON.stringify(seen.headers)}\n${seen.body.toString('utf8')}`);
    }
    expectClean(portal.rawLog());
    const bytes = testDatabaseBytes(dbFile);
    for (const secret of forbidden()) expect(bytes.includes(Buffer.from(secret))).toBe(false);
  });
});
