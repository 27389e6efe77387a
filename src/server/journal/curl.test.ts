import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { journalCurlSchema, journalPageSchema, type JournalEntry } from '@/domain/journal';
import { verifySignature } from '@/node/signature';
import { sandboxDemo } from '@/sandbox/index';
import { loadConfig } from '@/server/config';
import { startPortal, type RunningPortal } from '@/server/start';
import {
  startCaptureUpstream,
  startTestPortal,
  testConfig,
  testCredentials,
  type CaptureUpstream,
  type TestPortal,
} from '@/test-support/capture-upstream';
import { acceptedImport } from '@/test-support/journal-calls';
import { curlFor, shellQuote } from './curl';

// "Copy as cURL" reproduces the call against the VMS, signed by the shown snippet from
// $VMS_API_KEY and $VMS_API_SECRET. These tests run it, with bash, openssl and curl.

const run = promisify(execFile);
const orgs = '?Client_Org_Id=1001&Vendor_Org_Id=9001';
const json = { 'content-type': 'application/json' };

/** Runs a copied command with the credentials in the environment; the HTTP status and body. */
async function runCurl(curl: string, credentials: { apiKey: string; apiSecret: string }) {
  const { stdout } = await run('bash', ['-c', `${curl} --write-out '\\n%{http_code}'`], {
    env: {
      PATH: process.env.PATH,
      VMS_API_KEY: credentials.apiKey,
      VMS_API_SECRET: credentials.apiSecret,
    },
  });
  const at = stdout.lastIndexOf('\n');
  return { status: Number(stdout.slice(at + 1)), body: stdout.slice(0, at) };
}

async function lastCall(portal: { url: string }) {
  const res = await fetch(`${portal.url}/api/journal?limit=1`);
  const [entry] = journalPageSchema.parse(await res.json()).entries;
  if (!entry) throw new Error('nothing in the journal');
  const copied = await fetch(`${portal.url}/api/journal/${entry.id}/curl`);
  return { entry, ...journalCurlSchema.parse(await copied.json()) };
}

describe('the copied command against a capturing upstream', () => {
  let dir: string;
  let upstream: CaptureUpstream;
  let portal: TestPortal;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'journal-curl-'));
    upstream = await startCaptureUpstream();
    portal = await startTestPortal(testConfig(upstream.url, { PORTAL_DB: join(dir, 'portal.db') }));
  });

  afterAll(async () => {
    await portal.close();
    await upstream.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('sends the body byte for byte, signed with a signature the VMS accepts', async () => {
    // Quotes, a backslash, $ and backticks, non-ASCII: nothing in the body is the shell's.
    const body = `[{"titlerole":"O'Brien's \\"lead\\" $HOME \`id\` — Zürich"}]\n`;
    await portal.call('POST', `/api/vms/requisitionimport${orgs}`, { headers: json, body });
    const { curl } = await lastCall(portal);
    for (const secret of [testCredentials.apiKey, testCredentials.apiSecret]) {
      expect(curl).not.toContain(secret);
    }
    expect(curl).not.toMatch(/[0-9a-f]{64}/);

    upstream.requests.length = 0;
    const answer = await runCurl(curl, testCredentials);
    expect(answer.status).toBe(202);
    const [sent] = upstream.requests;
    expect(sent?.method).toBe('POST');
    expect(sent?.path).toBe('/requisitionimport');
    expect(sent?.query).toBe(orgs);
    expect(sent?.body.toString('utf8')).toBe(body);
    expect(sent?.headers['x-api-key']).toBe(testCredentials.apiKey);
    expect(
      verifySignature(
        testCredentials.apiKey,
        testCredentials.apiSecret,
        String(sent?.headers['x-signature']),
        {
          skewSeconds: 5,
        },
      ),
    ).toBe(true);
  });
});

describe('the copied Node script against a capturing upstream', () => {
  let dir: string;
  let upstream: CaptureUpstream;
  let portal: TestPortal;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'journal-fetch-'));
    upstream = await startCaptureUpstream();
    portal = await startTestPortal(testConfig(upstream.url, { PORTAL_DB: join(dir, 'portal.db') }));
  });

  afterAll(async () => {
    await portal.close();
    await upstream.close();
    rmSync(dir, { recursive: true, force: true });
  });

  /** Runs a copied Node script with the credentials in the environment; what it printed. */
  async function runNode(script: string) {
    const file = join(dir, 'call.mjs');
    writeFileSync(file, script);
    const { stdout } = await run(process.execPath, [file], {
      env: {
        PATH: process.env.PATH,
        VMS_API_KEY: testCredentials.apiKey,
        VMS_API_SECRET: testCredentials.apiSecret,
      },
    });
    return stdout;
  }

  it('sends a batch’s body byte for byte and a list’s query, signed, with no secret in it', async () => {
    const body = `[{"titlerole":"O'Brien's \\"lead\\" \${x} \`id\` — Zürich \u2028"}]`;
    await portal.call('POST', `/api/vms/requisitionimport${orgs}`, { headers: json, body });
    const batch = await lastCall(portal);
    await portal.call(
      'GET',
      `/api/vms/requisitions${orgs}&filterfield=Req_Id&filteroperator=%3E&filtervalue=5`,
    );
    const list = await lastCall(portal);
    for (const copied of [batch, list]) {
      for (const text of [copied.fetch, copied.powershell]) {
        for (const secret of [testCredentials.apiKey, testCredentials.apiSecret]) {
          expect(text).not.toContain(secret);
        }
        expect(text).not.toMatch(/[0-9a-f]{64}/);
        expect(text).toContain('VMS_API_KEY');
        expect(text).toContain('VMS_API_SECRET');
      }
    }

    upstream.requests.length = 0;
    expect(await runNode(batch.fetch)).toMatch(/^202 /);
    expect(await runNode(list.fetch)).toMatch(/^200 /);
    const [posted, listed] = upstream.requests;
    expect(posted?.method).toBe('POST');
    expect(posted?.body.toString('utf8')).toBe(body);
    expect(posted?.headers['content-type']).toBe('application/json');
    expect(listed?.method).toBe('GET');
    expect(listed?.query).toBe(`${orgs}&filterfield=Req_Id&filteroperator=%3E&filtervalue=5`);
    for (const sent of [posted, listed]) {
      expect(sent?.headers['x-api-key']).toBe(testCredentials.apiKey);
      expect(
        verifySignature(
          testCredentials.apiKey,
          testCredentials.apiSecret,
          String(sent?.headers['x-signature']),
          { skewSeconds: 5 },
        ),
      ).toBe(true);
    }
  });
});

describe('the copied command against the sandbox VMS', () => {
  let dir: string;
  let portal: RunningPortal;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'journal-curl-sandbox-'));
    portal = await startPortal(
      loadConfig({
        PORT: '0',
        SANDBOX_PORT: '0',
        SANDBOX_DB: ':memory:',
        PORTAL_DB: join(dir, 'portal.db'),
        SANDBOX_PROCESSING_DELAY_MS: '0',
        LOG_LEVEL: 'silent',
      }),
    );
  });

  afterAll(async () => {
    await portal.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('gets a 2xx with the demo credentials, for a batch and for a list', async () => {
    const sent = await fetch(`${portal.url}/api/vms/requisitionimport${orgs}`, {
      method: 'POST',
      headers: json,
      body: '[{"clientinternalreq":"CURL-1","titlerole":"Analyst"}]',
    });
    expect(sent.status).toBe(202);
    const batch = await lastCall(portal);
    expect(batch.curl).toContain(`--url '${portal.upstreamUrl}/requisitionimport${orgs}'`);
    const posted = await runCurl(batch.curl, sandboxDemo);
    expect(posted.status).toBe(202);
    expect(posted.body).toMatch(/"batchid":"rb_/);

    await fetch(`${portal.url}/api/vms/requisitions${orgs}`);
    const list = await lastCall(portal);
    const listed = await runCurl(list.curl, sandboxDemo);
    expect(listed.status).toBe(200);
    expect(JSON.parse(listed.body)).toBeInstanceOf(Array);

    // Wrong credentials: the sandbox refuses, so the 2xx above was the signature's doing.
    const refused = await runCurl(list.curl, {
      apiKey: sandboxDemo.apiKey,
      apiSecret: 'wrong-secret',
    });
    expect(refused.status).toBe(403);
  });
});

describe('curlFor', () => {
  const entry = (overrides: Partial<JournalEntry>): JournalEntry => ({
    id: 1,
    at: '2026-11-20T10:00:00.000Z',
    ...acceptedImport,
    batchId: null,
    latencyMs: 3,
    requestSize: 4,
    responseSize: null,
    sentBy: null,
    connection: null,
    traceId: null,
    suiteRun: null,
    url: `http://old-vms.example/requisitionimport${orgs}`,
    requestBody: null,
    responseHeaders: {},
    responseBody: null,
    firstByteMs: null,
    lateAnswer: null,
    ...overrides,
  });
  const body = {
    encoding: 'utf8',
    size: 4,
    sha256: '0'.repeat(64),
    truncated: false,
    redacted: false,
  } as const;

  it('aims at the VMS configured now, with the call’s query', () => {
    const { curl } = curlFor(
      entry({ requestBody: { ...body, text: '[{}]' } }),
      'requisitionimport',
      'https://vms.example/api/',
    );
    expect(curl).toContain(`--url 'https://vms.example/api/requisitionimport${orgs}'`);
    expect(curl.startsWith("printf '%s' '[{}]' | curl")).toBe(true);
  });

  it('decodes a body kept in base64, and says when a body was cut or redacted', () => {
    const { curl } = curlFor(
      entry({
        requestBody: {
          ...body,
          text: 'AAEC',
          encoding: 'base64',
          truncated: true,
          size: 9000,
          redacted: true,
        },
      }),
      'requisitionimport',
      'https://vms.example/',
    );
    expect(curl).toContain("printf '%s' 'AAEC' | base64 -d | curl");
    expect(curl).toContain('# The journal kept only part of this body (9000 bytes');
    expect(curl).toContain('# A secret in this body was replaced');
  });

  it('writes one call three ways: the same address, headers, body and notes', () => {
    const copied = curlFor(
      entry({
        requestBody: { ...body, text: `[{"a":"it's ‘quoted’"}]`, truncated: true, size: 9000 },
      }),
      'requisitionimport',
      'https://vms.example/',
    );
    const url = `https://vms.example/requisitionimport${orgs}`;
    expect(copied.curl).toContain(`--url '${url}'`);
    expect(copied.powershell).toContain(`-Uri '${url}'`);
    expect(copied.fetch).toContain(`await fetch(${JSON.stringify(url)}, {`);
    expect(copied.curl).toContain('# The journal kept only part of this body (9000 bytes');
    expect(copied.powershell).toContain('# The journal kept only part of this body (9000 bytes');
    expect(copied.fetch).toContain('// The journal kept only part of this body (9000 bytes');
    // PowerShell: a single-quoted string, its quotes (typographic ones too) doubled; UTF-8 bytes.
    expect(copied.powershell).toContain(
      `$body = [Text.Encoding]::UTF8.GetBytes('[{"a":"it''s ‘‘quoted’’"}]')`,
    );
    expect(copied.powershell).toContain("'x-api-key' = $env:VMS_API_KEY");
    expect(copied.powershell).toContain('$env:VMS_API_KEY + $env:VMS_API_SECRET + $timestamp');
    expect(copied.powershell).toMatch(/Invoke-RestMethod -Method Post `\n/);
    expect(copied.fetch).toContain('body: "[{\\"a\\":\\"it\'s ‘quoted’\\"}]",');
    expect(copied.fetch).toContain("'x-api-key': process.env.VMS_API_KEY".replaceAll("'", '"'));

    const get = curlFor(
      entry({ method: 'GET', operation: 'requisitions', requestBody: null }),
      'requisitions',
      'https://vms.example/',
    );
    expect(get.powershell).not.toContain('-Body');
    expect(get.powershell).toContain('-Method Get');
    expect(get.fetch).not.toContain('body:');
    expect(get.curl).not.toContain('--data-binary');
  });

  it('quotes for the shell', () => {
    expect(shellQuote("it's")).toBe(`'it'\\''s'`);
  });
});

describe('the copied command against a VMS with its own paths and signature recipe', () => {
  let dir: string;
  let portal: RunningPortal;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'journal-curl-other-'));
    // The embedded sandbox speaks the documented example: other paths and parameter names, an
    // HMAC-SHA256 signature in base64 with its timestamp in a header.
    portal = await startPortal(
      loadConfig({
        PORT: '0',
        SANDBOX_PORT: '0',
        SANDBOX_DB: ':memory:',
        PORTAL_DB: join(dir, 'portal.db'),
        SANDBOX_PROCESSING_DELAY_MS: '0',
        VMS_PROFILE: 'docs/examples/profile-other-vms.json',
        LOG_LEVEL: 'silent',
      }),
    );
  });

  afterAll(async () => {
    await portal.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('signs by the recipe and calls the VMS’s own paths, in cURL and in Node', async () => {
    const sent = await fetch(`${portal.url}/api/vms/requisitionimport${orgs}`, {
      method: 'POST',
      headers: json,
      body: '[{"clientinternalreq":"CURL-2","titlerole":"Analyst"}]',
    });
    expect(sent.status).toBe(200);
    const batch = await lastCall(portal);
    expect(batch.curl).toContain(`--url '${portal.upstreamUrl}/api/v2/requisitions/import${orgs}'`);
    expect(batch.curl).toContain('-hmac "$VMS_API_SECRET"');
    expect(batch.curl).toContain('--header "x-timestamp: $ts"');
    expect(batch.snippet).toContain('openssl base64 -A');
    const posted = await runCurl(batch.curl, sandboxDemo);
    expect(posted.status).toBe(200);
    expect(posted.body).toMatch(/"id":"rb_/);

    await fetch(
      `${portal.url}/api/vms/requisitions${orgs}&filterfield=Req_Id&filteroperator=%3D&filtervalue=40001`,
    );
    const list = await lastCall(portal);
    const listed = await runCurl(list.curl, sandboxDemo);
    expect(listed.status).toBe(200);
    expect(listed.body).toContain('40001');

    const file = join(dir, 'call.mjs');
    writeFileSync(file, list.fetch);
    const node = await run(process.execPath, [file], {
      env: {
        PATH: process.env.PATH,
        VMS_API_KEY: sandboxDemo.apiKey,
        VMS_API_SECRET: sandboxDemo.apiSecret,
      },
    });
    expect(node.stdout).toMatch(/^200 /);

    // Signed with the wrong secret, the VMS refuses: the 2xx above was the recipe's doing.
    expect(
      (await runCurl(list.curl, { apiKey: sandboxDemo.apiKey, apiSecret: 'wrong' })).status,
    ).toBeGreaterThanOrEqual(400);
  });
});

describe('the copied command for a recipe whose timestamp is a pattern', () => {
  let dir: string;
  let portal: RunningPortal;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'journal-curl-pattern-'));
    // Unpadded fields and AM/PM sent in a header; seconds searched for when not sent.
    const profileFile = join(dir, 'profile.json');
    writeFileSync(
      profileFile,
      JSON.stringify({
        signature: {
          hash: 'sha256',
          order: ['key', 'secret', 'timestamp'],
          timestamp: { form: 'M/D/YYYY h:mm:ss A', travel: { header: 'x-timestamp' } },
          encoding: 'hex',
        },
      }),
    );
    portal = await startPortal(
      loadConfig({
        PORT: '0',
        SANDBOX_PORT: '0',
        SANDBOX_DB: ':memory:',
        PORTAL_DB: join(dir, 'portal.db'),
        SANDBOX_PROCESSING_DELAY_MS: '0',
        VMS_PROFILE: profileFile,
        LOG_LEVEL: 'silent',
      }),
    );
  });

  afterAll(async () => {
    await portal.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('writes the time as the pattern does, in cURL and in Node, and the VMS accepts it', async () => {
    await fetch(`${portal.url}/api/vms/requisitions${orgs}`);
    const list = await lastCall(portal);
    expect(list.curl).toContain('--header "x-timestamp: $ts"');
    expect(list.curl).toContain(`ts="$(LC_ALL=C date -u +'%-m/%-d/%Y %-I:%M:%S %p')"`);
    expect((await runCurl(list.curl, sandboxDemo)).status).toBe(200);
    const file = join(dir, 'call.mjs');
    writeFileSync(file, list.fetch);
    const node = await run(process.execPath, [file], {
      env: {
        PATH: process.env.PATH,
        VMS_API_KEY: sandboxDemo.apiKey,
        VMS_API_SECRET: sandboxDemo.apiSecret,
      },
    });
    expect(node.stdout).toMatch(/^200 /);
    expect(
      (await runCurl(list.curl, { apiKey: sandboxDemo.apiKey, apiSecret: 'wrong' })).status,
    ).toBeGreaterThanOrEqual(400);
  });
});
