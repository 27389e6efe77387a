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
 * A VMS that echoes the credentials the way other JSON writers do: PHP's json_encode escapes every
 * slash (`\/`), .NET writes `+` as `\u002B`, some write every character as `\uXXXX`, and a URL
 * quoted in a body is percent-encoded in either case. The browser's JSON.parse would read each of
 * these back as the key, so none may reach it, a remembered answer or the journal.
 */

// Shaped like real VMS credentials: base64 with `+`, `/` and `=`.
const apiKey = 'ops+key/AbC==';
const apiSecret = 'c2Vj+cmV0/S3cr3t==';
const orgs = '?Client_Org_Id=1001&Vendor_Org_Id=9001';
const batch = '[{"clientinternalreq":"ECHO-ESC-1","titlerole":"Analyst"}]';

let dir: string;
let dbFile: string;
let upstream: CaptureUpstream;
let portal: TestPortal;

/** As PHP writes a string in JSON: every `/` as `\/`. */
const php = (text: string) => JSON.stringify(text).slice(1, -1).replaceAll('/', '\\/');
/** As .NET writes it: `+` and `=` as `\u002B` and `\u003D`. */
const dotnet = (text: string) =>
  JSON.stringify(text).slice(1, -1).replaceAll('+', '\\u002B').replaceAll('=', '\\u003D');
/** Every character as a lower-case `\uXXXX`. */
const everyEscaped = (text: string) =>
  [...text].map((c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`).join('');
/** Alternating escaped and plain characters, slashes as PHP writes them. */
const mixed = (text: string) =>
  [...text]
    .map((c, at) =>
      at % 2 === 0 ? `\\u${c.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}` : c,
    )
    .join('')
    .replaceAll('/', '\\/');
const percentLower = (text: string) =>
  encodeURIComponent(text).replace(/%[0-9A-F]{2}/g, (code) => code.toLowerCase());

/** Every credential of this call, in every escape above, as one JSON object's text. */
function echoOf(captured: CapturedRequest): string {
  const credentials = [
    String(captured.headers['x-api-key']),
    apiSecret,
    String(captured.headers['x-signature']),
  ];
  const fields = credentials.flatMap((secret, at) => [
    `"php${at}":"${php(secret)}"`,
    `"dotnet${at}":"${dotnet(secret)}"`,
    `"escaped${at}":"${everyEscaped(secret)}"`,
    `"mixed${at}":"${mixed(secret)}"`,
    `"url${at}":"?k=${percentLower(secret)}&K=${encodeURIComponent(secret)}"`,
    `"base64${at}":"${Buffer.from(secret).toString('base64')}"`,
  ]);
  return `{${fields.join(',')}}`;
}

function credentials(): string[] {
  return [apiKey, apiSecret, ...upstream.requests.map((r) => String(r.headers['x-signature']))];
}

/** Every string a reader would decode from a JSON text: its values, URL-decoded too. */
function decodedStrings(text: string): string[] {
  const strings: string[] = [];
  const walk = (value: unknown): void => {
    if (typeof value === 'string') {
      strings.push(value);
      try {
        strings.push(decodeURIComponent(value));
      } catch {
        // Not percent-encoded text: its plain reading is already kept.
      }
      // A string that is JSON itself (a body kept as text in the journal).
      if (/^[[{]/.test(value)) {
        try {
          walk(JSON.parse(value));
        } catch {
          // Not JSON: kept as read.
        }
      }
    } else if (Array.isArray(value)) value.forEach(walk);
    else if (value !== null && typeof value === 'object') Object.values(value).forEach(walk);
  };
  walk(JSON.parse(text));
  return strings;
}

/** Nothing a reader decodes from this JSON text holds a credential, nor its base64. */
function expectNoCredential(text: string) {
  const read = decodedStrings(text).join('\n');
  for (const secret of credentials()) {
    expect(read).not.toContain(secret);
    expect(read).not.toContain(Buffer.from(secret).toString('base64').replace(/=+$/, ''));
  }
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'portal-echo-escapes-'));
  dbFile = join(dir, 'portal.db');
  upstream = await startCaptureUpstream();
  portal = await startTestPortal(
    testConfig(upstream.url, { PORTAL_DB: dbFile, VMS_API_KEY: apiKey, VMS_API_SECRET: apiSecret }),
  );
});

afterAll(async () => {
  await portal.close();
  await upstream.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('a VMS that echoes the credentials in other JSON escapes', () => {
  it('has none in an error answer, its body or its headers', async () => {
    upstream.respondWith((captured) => ({
      status: 400,
      headers: {
        'content-type': 'application/json',
        'x-debug-key': percentLower(String(captured.headers['x-api-key'])),
        'x-debug-sig': php(String(captured.headers['x-signature'])),
      },
      body: echoOf(captured),
    }));
    const res = await portal.call('GET', `/api/vms/requisitions${orgs}`);
    expect(res.status).toBe(400);
    expectNoCredential(res.body.toString('utf8'));
    expectNoCredential(JSON.stringify(res.headers));
    // Every field was an echo: each is now the mark alone, or around the URL's own text.
    const answer = JSON.parse(res.body.toString('utf8')) as Record<string, string>;
    expect(answer.php0).toBe('[redacted]');
    expect(answer.dotnet1).toBe('[redacted]');
    expect(answer.mixed2).toBe('[redacted]');
    expect(answer.url0).toBe('?k=[redacted]&K=[redacted]');
    // The key's base64 is padded: the padding is no secret and stays.
    expect(answer.base640).toBe('[redacted]==');
    expect(answer.base641).toBe('[redacted]');
  });

  it('has none in an accepted batch’s answer, nor in its replay', async () => {
    upstream.respondWith((captured) => ({
      status: 202,
      headers: { 'content-type': 'application/json' },
      body: `{"batchid":"echo-esc-batch","echo":${echoOf(captured)}}`,
    }));
    const init = {
      headers: { 'content-type': 'application/json', 'idempotency-key': 'echo-esc-key-1' },
      body: batch,
    };
    const first = await portal.call('POST', requisitionImportPath, init);
    expect(first.status).toBe(202);
    const again = await portal.call('POST', requisitionImportPath, init);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(upstream.requests.filter((r) => r.method === 'POST')).toHaveLength(1);
    expect(JSON.parse(first.body.toString('utf8'))).toMatchObject({ batchid: 'echo-esc-batch' });
    expectNoCredential(first.body.toString('utf8'));
    expectNoCredential(again.body.toString('utf8'));
  });

  it('has none in the journal’s entries, its export, the log or the database file', async () => {
    const page = journalPageSchema.parse(
      (await portal.call('GET', '/api/journal?limit=50')).json(),
    );
    expect(page.entries.length).toBeGreaterThanOrEqual(2);
    for (const entry of page.entries) {
      const full = await portal.call('GET', `/api/journal/${entry.id}`);
      const parsed = journalEntrySchema.parse(full.json());
      if (parsed.status >= 400 || parsed.status === 202) {
        expect(parsed.responseBody?.redacted).toBe(true);
      }
      expectNoCredential(full.body.toString('utf8'));
    }
    const har = await portal.call('GET', '/api/journal/export?format=har');
    expectNoCredential(har.body.toString('utf8'));
    for (const seen of portal.responses) {
      if ((seen.headers['content-type'] ?? '').includes('json')) {
        expectNoCredential(seen.body.toString('utf8'));
      }
    }
    // The database and the log hold text, not parsed JSON: every escaped form is searched.
    const writings = credentials().flatMap((secret) => [
      secret,
      php(secret),
      dotnet(secret),
      everyEscaped(secret),
      mixed(secret),
      percentLower(secret),
      encodeURIComponent(secret),
      Buffer.from(secret).toString('base64').replace(/=+$/, ''),
    ]);
    const bytes = testDatabaseBytes(dbFile);
    const log = portal.rawLog();
    for (const writing of writings) {
      expect(bytes.includes(Buffer.from(writing))).toBe(false);
      expect(log).not.toContain(writing);
    }
  });
});
