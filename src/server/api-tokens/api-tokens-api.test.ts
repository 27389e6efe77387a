import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiErrorBodySchema } from '@/domain/api-error';
import {
  apiTokenListSchema,
  createdApiTokenSchema,
  type ApiTokenScope,
  type CreatedApiToken,
} from '@/domain/api-tokens';
import { auditPageSchema, type AuditEntry } from '@/domain/audit';
import { sessionStateSchema } from '@/domain/auth';
import {
  requisitionImportPath,
  startCaptureUpstream,
  startTestPortal,
  testConfig,
  type CaptureUpstream,
  type TestPortal,
} from '@/test-support/capture-upstream';
import { addUser, TestBrowser, type BrowserCall } from '@/test-support/test-browser';
import { queryTestDatabase, testDatabaseBytes } from '@/test-support/test-database';

// Personal API tokens (decision 037) against a real portal with sign-in on: QA makes, lists and
// revokes their own; a CI job's call with `Authorization: Bearer` acts as them within the
// token's scope; revoked, expired, unknown tokens and disabled accounts get 401 saying which; the
// token is in one answer only, and never in a log line, the journal or the database.

const password = 'correct horse battery staple';
const minute = 60_000;
const day = 24 * 60 * minute;
const batch = JSON.stringify([{ titlerole: 'Nurse' }]);

let dir: string;
let dbPath: string;
let upstream: CaptureUpstream;
let portal: TestPortal;
let clock = Date.parse('2026-11-23T09:00:00Z');
/** Every answer a browser here got, but the ones that made a token. */
const answers: string[] = [];
/** Every token made here. */
const secrets: string[] = [];
/** The first test's token, scope suites-and-sends, for 90 days. */
let nightly = '';

/** A browser whose answers are all kept, to look for a token in them. */
class Browser extends TestBrowser {
  override async call(method: string, path: string, init: BrowserCall = {}) {
    const answer = await super.call(method, path, init);
    answers.push(`${JSON.stringify(answer.headers)}\n${answer.text}`);
    return answer;
  }
}

const browsers: Record<'ada' | 'quinn' | 'rita', Browser> = {} as never;

async function signIn(who: keyof typeof browsers) {
  browsers[who] = new Browser(portal.url);
  expect((await browsers[who].signIn(`${who}@example.com`, password)).status).toBe(200);
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'portal-api-tokens-'));
  dbPath = join(dir, 'portal.db');
  upstream = await startCaptureUpstream();
  portal = await startTestPortal(
    testConfig(upstream.url, { AUTH: 'on', PORTAL_DB: dbPath, PORTAL_RATE_LIMIT_PER_MINUTE: '0' }),
    { now: () => clock },
  );
  await addUser(dbPath, 'ada@example.com', password, 'admin');
  await addUser(dbPath, 'quinn@example.com', password, 'qa', [1001]);
  await addUser(dbPath, 'rita@example.com', password, 'recruiter', [1001]);
  for (const who of ['ada', 'quinn', 'rita'] as const) await signIn(who);
});

afterAll(async () => {
  await portal.close();
  await upstream.close();
  rmSync(dir, { recursive: true, force: true });
});

function errorOf(answer: { json(): unknown }) {
  return apiErrorBodySchema.parse(answer.json()).error;
}

async function makeToken(
  who: keyof typeof browsers,
  body: { name: string; scope: ApiTokenScope; expiresInDays?: number },
): Promise<CreatedApiToken> {
  const answer = await browsers[who].call('POST', '/api/tokens', { body });
  expect(answer.status).toBe(201);
  // The one answer allowed to hold the token.
  answers.pop();
  const created = createdApiTokenSchema.parse(answer.json());
  secrets.push(created.secret);
  return created;
}

/** A CI job's call: the token, no cookie, no Origin, no CSRF token. */
function withToken(
  secret: string,
  method: 'GET' | 'POST' | 'DELETE',
  path: string,
  extra: Record<string, string> = {},
) {
  return portal.call(method, path, {
    headers: {
      authorization: `Bearer ${secret}`,
      ...(method === 'POST' ? { 'content-type': 'application/json' } : {}),
      ...extra,
    },
    ...(method === 'POST' ? { body: batch } : {}),
  });
}

/** A GET whose path goes on the wire as written: no URL parser resolves its dot segments. */
function rawGet(path: string, secret: string): Promise<{ status: number; body: string }> {
  const { hostname, port } = new URL(portal.url);
  return new Promise((resolve, reject) => {
    const call = httpRequest(
      { hostname, port, path, method: 'GET', headers: { authorization: `Bearer ${secret}` } },
      (response) => {
        let body = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => (body += chunk));
        response.on('end', () => resolve({ status: response.statusCode ?? 0, body }));
      },
    );
    call.on('error', reject);
    call.end();
  });
}

async function listOf(who: keyof typeof browsers, path = '/api/tokens') {
  const answer = await browsers[who].call('GET', path);
  expect(answer.status).toBe(200);
  return apiTokenListSchema.parse(answer.json()).tokens;
}

async function auditEvents(query: string): Promise<AuditEntry[]> {
  const answer = await browsers.ada.call('GET', `/api/audit${query}`);
  expect(answer.status).toBe(200);
  return auditPageSchema.parse(answer.json()).entries;
}

describe('making tokens', () => {
  it('gives a QA user a token once, with its scope and expiry; the list never shows it again', async () => {
    const created = await makeToken('quinn', {
      name: 'nightly CI',
      scope: 'suites-and-sends',
      expiresInDays: 90,
    });
    expect(created.secret).toMatch(/^vmsp_[A-Za-z0-9_-]{43}$/);
    nightly = created.secret;
    expect(created.token).toMatchObject({
      name: 'nightly CI',
      scope: 'suites-and-sends',
      email: 'quinn@example.com',
      createdAt: new Date(clock).toISOString(),
      expiresAt: new Date(clock + 90 * day).toISOString(),
      lastUsedAt: null,
      revokedAt: null,
    });
    const listed = await listOf('quinn');
    expect(listed).toEqual([created.token]);
    expect(JSON.stringify(listed)).not.toContain(created.secret);
    // Another user's list does not have it.
    expect(await listOf('ada')).toEqual([]);
  });

  it('lasts 30 days unless told, at most 365, and says what is wrong with a name, scope or expiry', async () => {
    const plain = await makeToken('quinn', { name: 'default expiry', scope: 'suites' });
    expect(Date.parse(plain.token.expiresAt) - Date.parse(plain.token.createdAt)).toBe(30 * day);

    const tooLong = await browsers.quinn.call('POST', '/api/tokens', {
      body: { name: 'forever', scope: 'suites', expiresInDays: 366 },
    });
    expect(tooLong.status).toBe(400);
    expect(errorOf(tooLong).message).toContain('at most 365 days');
    const noName = await browsers.quinn.call('POST', '/api/tokens', {
      body: { name: '  ', scope: 'suites' },
    });
    expect(errorOf(noName).details).toEqual([
      { field: 'name', message: expect.stringContaining('Give the token a name') },
    ]);
    const badScope = await browsers.quinn.call('POST', '/api/tokens', {
      body: { name: 'x', scope: 'everything' },
    });
    expect(errorOf(badScope).message).toContain('suites or suites-and-sends');
    // A name a working token of theirs has: the audit trail could not tell them apart.
    const again = await browsers.quinn.call('POST', '/api/tokens', {
      body: { name: 'Nightly CI', scope: 'suites' },
    });
    expect(again.status).toBe(409);
    expect(errorOf(again).code).toBe('token_exists');
  });

  it('refuses recruiters with 403, and a call without the session’s CSRF token', async () => {
    const answer = await browsers.rita.call('POST', '/api/tokens', {
      body: { name: 'mine', scope: 'suites' },
    });
    expect(answer.status).toBe(403);
    expect(errorOf(answer).message).toContain('needs the qa role');
    expect((await browsers.rita.call('GET', '/api/tokens')).status).toBe(403);
    const noCsrf = await browsers.quinn.call('POST', '/api/tokens', {
      body: { name: 'sneaky', scope: 'suites' },
      noToken: true,
    });
    expect(errorOf(noCsrf).code).toBe('csrf_failed');
    expect((await new Browser(portal.url).call('GET', '/api/tokens')).status).toBe(401);
  });
});

describe('calls with a token', () => {
  it('act as its owner within the scope, with no cookie and no CSRF token', async () => {
    const { secret } = await makeToken('quinn', { name: 'sends', scope: 'suites-and-sends' });
    const session = await withToken(secret, 'GET', '/api/session');
    expect(session.status).toBe(200);
    expect(sessionStateSchema.parse(session.json()).user).toMatchObject({
      email: 'quinn@example.com',
      role: 'qa',
    });

    const before = upstream.requests.length;
    const sent = await withToken(secret, 'POST', requisitionImportPath);
    expect(sent.status).toBe(202);
    const forwarded = upstream.requests.slice(before);
    expect(forwarded).toHaveLength(1);
    // The token is the portal's to check, never the VMS's to see.
    expect(JSON.stringify(forwarded[0]?.headers)).not.toContain(secret);

    // The suite API is in scope: past the token check, the router answers.
    const suites = await withToken(secret, 'GET', '/api/suite-runs/no-such-run');
    expect(suites.status).toBe(404);
    expect(errorOf(suites).code).not.toMatch(/^token_/);
  });

  it('are refused outside the scope with 403 naming it', async () => {
    const { secret } = await makeToken('quinn', { name: 'suites only', scope: 'suites' });
    const before = upstream.requests.length;
    const send = await withToken(secret, 'POST', requisitionImportPath);
    expect(send.status).toBe(403);
    expect(errorOf(send)).toMatchObject({ code: 'token_scope' });
    expect(errorOf(send).message).toContain('has the scope "suites"');
    expect(errorOf(send).message).toContain('suites-and-sends');
    expect(upstream.requests.length).toBe(before);

    for (const [method, path] of [
      ['GET', '/api/journal'],
      ['GET', '/api/audit'],
      ['GET', '/api/tokens'],
      ['POST', '/api/tokens'],
      ['GET', '/api/users'],
      ['DELETE', '/api/session'],
    ] as const) {
      const answer = await withToken(nightly, method, path);
      expect({ method, path, status: answer.status, code: errorOf(answer).code }).toEqual({
        method,
        path,
        status: 403,
        code: 'token_scope',
      });
    }
    expect(errorOf(await withToken(nightly, 'GET', '/api/journal')).message).toContain(
      'Sign in to the portal for that',
    );
    // Dot segments, sent as they are (a URL parser would resolve them first): never let through.
    for (const path of [
      '/api/suites/../journal',
      '/api/suites/%2e%2e/journal',
      '/api/suites/%2E./audit',
      '/api/vms/..%2f..%2fjournal',
      '/api/suites//../../api/users',
    ]) {
      const answer = await rawGet(path, nightly);
      expect({ path, status: answer.status, body: answer.body }).toMatchObject({
        path,
        status: 403,
        body: expect.stringContaining('token_scope'),
      });
    }
  });

  it('keep the owner’s grants: an org not granted is 403 forbidden, nothing sent', async () => {
    const { secret } = await makeToken('quinn', { name: 'grants', scope: 'suites-and-sends' });
    const before = upstream.requests.length;
    const answer = await withToken(
      secret,
      'POST',
      '/api/vms/requisitionimport?Client_Org_Id=1002&Vendor_Org_Id=9001',
    );
    expect(answer.status).toBe(403);
    expect(errorOf(answer).code).toBe('forbidden');
    expect(upstream.requests.length).toBe(before);
  });

  it('are refused with 400 when they carry a session cookie too', async () => {
    const { secret } = await makeToken('quinn', { name: 'both', scope: 'suites' });
    const answer = await browsers.quinn.call('GET', '/api/session', {
      headers: { authorization: `Bearer ${secret}` },
    });
    expect(answer.status).toBe(400);
    expect(errorOf(answer).code).toBe('ambiguous_credentials');
  });

  it('record the last use at most once a minute', async () => {
    const { secret, token } = await makeToken('quinn', { name: 'last used', scope: 'suites' });
    const lastUsed = async () =>
      (await listOf('quinn')).find((entry) => entry.id === token.id)?.lastUsedAt;
    const first = clock;
    await withToken(secret, 'GET', '/api/session');
    expect(await lastUsed()).toBe(new Date(first).toISOString());
    clock += 30_000;
    await withToken(secret, 'GET', '/api/session');
    expect(await lastUsed()).toBe(new Date(first).toISOString());
    clock += 31_000;
    await withToken(secret, 'GET', '/api/session');
    expect(await lastUsed()).toBe(new Date(clock).toISOString());
  });
});

describe('tokens that no longer work', () => {
  it('say in one line that the token was revoked, and when', async () => {
    const { secret, token } = await makeToken('quinn', { name: 'to revoke', scope: 'suites' });
    expect((await withToken(secret, 'GET', '/api/session')).status).toBe(200);
    const revoked = await browsers.quinn.call('DELETE', `/api/tokens/${token.id}`);
    expect(revoked.status).toBe(200);
    const answer = await withToken(secret, 'GET', '/api/session');
    expect(answer.status).toBe(401);
    expect(errorOf(answer)).toMatchObject({
      code: 'token_invalid',
      message:
        'This API token ("to revoke") was revoked on 2026-11-23; make a new one on your Account page (/account).',
    });
  });

  it('say that the token expired, and when', async () => {
    const { secret } = await makeToken('quinn', {
      name: 'a week',
      scope: 'suites',
      expiresInDays: 7,
    });
    const madeAt = clock;
    clock += 7 * day - 1;
    expect((await withToken(secret, 'GET', '/api/session')).status).toBe(200);
    clock += 1;
    const answer = await withToken(secret, 'GET', '/api/session');
    expect(answer.status).toBe(401);
    expect(errorOf(answer).message).toBe(
      `This API token ("a week") expired on ${new Date(madeAt + 7 * day).toISOString().slice(0, 10)}; make a new one on your Account page (/account).`,
    );
    // The browsers' sessions ended meanwhile.
    for (const who of ['ada', 'quinn', 'rita'] as const) await signIn(who);
  });

  it('say the same of a token never made and of anything not shaped like one', async () => {
    const never = `vmsp_${randomBytes(32).toString('base64url')}`;
    const messages = [];
    for (const given of [never, 'abc', `${never}x`, 'vmsp_']) {
      const answer = await withToken(given, 'GET', '/api/session');
      expect(answer.status).toBe(401);
      messages.push(errorOf(answer).message);
    }
    expect(new Set(messages).size).toBe(1);
    expect(messages[0]).toContain('not one this portal knows');
  });

  it('are refused with 403 once the owner is no longer QA or admin', async () => {
    await addUser(dbPath, 'dora@example.com', password, 'qa', [1001]);
    const dora = new Browser(portal.url);
    await dora.signIn('dora@example.com', password);
    const created = await dora.call('POST', '/api/tokens', {
      body: { name: 'dora CI', scope: 'suites-and-sends' },
    });
    answers.pop();
    const { secret, token } = createdApiTokenSchema.parse(created.json());
    secrets.push(secret);
    expect((await withToken(secret, 'GET', '/api/session')).status).toBe(200);
    expect(
      (
        await browsers.ada.call('PATCH', `/api/users/${token.userId}`, {
          body: { role: 'recruiter' },
        })
      ).status,
    ).toBe(200);
    const before = upstream.requests.length;
    const answer = await withToken(secret, 'POST', requisitionImportPath);
    expect(answer.status).toBe(403);
    expect(errorOf(answer).message).toContain('API tokens are for QA and admins');
    expect(upstream.requests.length).toBe(before);
  });

  it('stop working when the account is disabled', async () => {
    await addUser(dbPath, 'otto@example.com', password, 'qa', [1001]);
    const otto = new Browser(portal.url);
    await otto.signIn('otto@example.com', password);
    const created = await otto.call('POST', '/api/tokens', {
      body: { name: 'otto CI', scope: 'suites' },
    });
    answers.pop();
    const { secret, token } = createdApiTokenSchema.parse(created.json());
    secrets.push(secret);
    expect((await withToken(secret, 'GET', '/api/session')).status).toBe(200);
    const disabled = await browsers.ada.call('PATCH', `/api/users/${token.userId}`, {
      body: { disabled: true },
    });
    expect(disabled.status).toBe(200);
    const answer = await withToken(secret, 'GET', '/api/session');
    expect(answer.status).toBe(401);
    expect(errorOf(answer).message).toContain('belongs to is disabled');
  });
});

describe('admins', () => {
  it('see everyone’s tokens and revoke another user’s; others may not', async () => {
    const { secret, token } = await makeToken('quinn', { name: 'leaked', scope: 'suites' });
    const all = await listOf('ada', '/api/tokens/all');
    expect(all.find((entry) => entry.id === token.id)).toMatchObject({
      email: 'quinn@example.com',
      name: 'leaked',
    });
    expect(new Set(all.map((entry) => entry.email))).toEqual(
      new Set(['quinn@example.com', 'otto@example.com', 'dora@example.com']),
    );
    expect((await browsers.quinn.call('GET', '/api/tokens/all')).status).toBe(403);

    // Someone else's token is not found to a non-admin, as one that does not exist.
    const { token: adas } = await makeToken('ada', { name: 'ada CI', scope: 'suites' });
    const notYours = await browsers.quinn.call('DELETE', `/api/tokens/${adas.id}`);
    expect(notYours.status).toBe(404);

    const revoked = await browsers.ada.call('DELETE', `/api/tokens/${token.id}`);
    expect(revoked.status).toBe(200);
    expect((await withToken(secret, 'GET', '/api/session')).status).toBe(401);
  });
});

describe('what is kept', () => {
  it('records making and revoking tokens, and what a token did, naming it', async () => {
    const made = await auditEvents('?event=api_token_created');
    expect(made.find((entry) => entry.details.name === 'nightly CI')).toMatchObject({
      email: 'quinn@example.com',
      outcome: 'ok',
      details: { scope: 'suites-and-sends', expiresAt: expect.any(String) },
    });
    const revoked = await auditEvents('?event=api_token_revoked');
    // The admin who revoked quinn's token acted; quinn's account is the one it was about.
    expect(revoked.find((entry) => entry.details.name === 'leaked')).toMatchObject({
      email: 'ada@example.com',
      details: { targetEmail: 'quinn@example.com', scope: 'suites' },
    });
    expect(revoked.find((entry) => entry.details.name === 'to revoke')?.email).toBe(
      'quinn@example.com',
    );

    const sends = await auditEvents('?event=send');
    expect(sends.find((entry) => entry.details.via === 'token sends')).toMatchObject({
      email: 'quinn@example.com',
      status: 202,
    });
    const refusals = await auditEvents('?event=refused');
    expect(
      refusals.find(
        (entry) =>
          entry.details.via === 'token suites only' && entry.details.code === 'token_scope',
      ),
    ).toMatchObject({ email: 'quinn@example.com', status: 403 });
    // A revoked token tried again: who it belonged to, and why it was refused.
    expect(
      refusals.find(
        (entry) =>
          entry.details.via === 'token to revoke' && entry.details.code === 'token_invalid',
      ),
    ).toMatchObject({ email: 'quinn@example.com', status: 401, details: { reason: 'revoked' } });

    const sendLine = portal
      .logLines()
      .find((line) => line.msg === 'vms call' && line.via === 'token sends');
    expect(sendLine).toMatchObject({ email: 'quinn@example.com', status: 202 });
  });

  it('keeps each token only as its SHA-256, and never writes one to a log line, an answer, the journal or the database', async () => {
    expect(secrets.length).toBeGreaterThanOrEqual(10);
    // Reading the journal writes what is queued; the token's sends are in it, under its owner.
    const journal = await browsers.ada.call('GET', '/api/journal');
    expect(journal.status).toBe(200);
    const calls = await queryTestDatabase<{ email: string | null }>(
      dbPath,
      "SELECT user_email AS email FROM journal_calls WHERE path LIKE '/api/vms/%'",
    );
    expect(calls.filter((call) => call.email === 'quinn@example.com').length).toBeGreaterThan(0);

    const rows = await queryTestDatabase<{ name: string; token_hash: Buffer | Uint8Array }>(
      dbPath,
      'SELECT name, token_hash FROM api_tokens',
    );
    const hashes = rows.map((row) => Buffer.from(row.token_hash).toString('hex')).sort();
    expect(hashes).toEqual(
      secrets.map((secret) => createHash('sha256').update(secret).digest('hex')).sort(),
    );

    const log = portal.rawLog();
    const database = testDatabaseBytes(dbPath);
    const seen = [...answers, ...portal.responses.map((answer) => answer.body.toString('utf8'))];
    expect(log).toContain('api_token_created');
    for (const secret of secrets) {
      // The random part alone too: a prefix dropped or re-encoded would still be the token.
      const random = secret.slice('vmsp_'.length);
      expect(log).not.toContain(random);
      expect(database.includes(random)).toBe(false);
      expect(database.includes(Buffer.from(random).toString('hex'))).toBe(false);
      expect(seen.filter((text) => text.includes(random))).toEqual([]);
    }
  });
});

describe('with sign-in off', () => {
  it('needs no token: one sent is not checked, and /api/tokens says why there are none', async () => {
    const open = await startTestPortal(testConfig(upstream.url, { PORTAL_DB: ':memory:' }));
    try {
      const sent = await open.call('POST', requisitionImportPath, {
        headers: { authorization: 'Bearer not-a-token', 'content-type': 'application/json' },
        body: batch,
      });
      expect(sent.status).toBe(202);
      const tokens = await open.call('GET', '/api/tokens');
      expect(tokens.status).toBe(404);
      expect(errorOf(tokens).message).toContain('Sign-in is off on this portal');
    } finally {
      await open.close();
    }
  });
});
