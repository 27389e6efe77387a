import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createdApiTokenSchema } from '@/domain/api-tokens';
import { createdUserSchema, sessionStateSchema } from '@/domain/auth';
import { buildPortal } from '@/server/app';
import {
  startCaptureUpstream,
  startTestPortal,
  testConfig,
  type CaptureUpstream,
  type TestPortal,
} from '@/test-support/capture-upstream';
import { addUser, TestBrowser } from '@/test-support/test-browser';
import { testDatabaseBytes } from '@/test-support/test-database';
import { recordedPath, recordedUrl, secretParams } from './recorded-path';

const token = 'Zq3vX0b1Rk9mT4sW8yA2cE6gI5kM7oQ9sU1wY3a5c7e';

describe('recordedPath', () => {
  it.each([
    [`/api/invites/${token}`, '/api/invites/[redacted]'],
    [`/api/invites/${token}?next=/`, '/api/invites/[redacted]'],
    [`/invite/${token}`, '/invite/[redacted]'],
    // However a router or a proxy in front might read the path, the token is not kept.
    [`/API//Invites/${token}/`, '/API//Invites/[redacted]/'],
    [`/api/%69nvites/${token}/accept`, '/api/%69nvites/[redacted]/accept'],
  ])('records %s as %s', (url, recorded) => {
    expect(recordedPath(url)).toBe(recorded);
  });

  it('keeps every other path as it is, without its query', () => {
    expect(recordedPath('/api/vms/requisitions?Client_Org_Id=1001')).toBe('/api/vms/requisitions');
    expect(recordedPath('/api/invites')).toBe('/api/invites');
    expect(recordedPath('/api/users/u-1/sessions')).toBe('/api/users/u-1/sessions');
  });

  it('keeps the query where the journal shows it', () => {
    expect(recordedUrl('/api/vms/requisitions?Client_Org_Id=1001')).toBe(
      '/api/vms/requisitions?Client_Org_Id=1001',
    );
    expect(recordedUrl(`/api/invites/${token}?a=1`)).toBe('/api/invites/[redacted]?a=1');
  });
});

/**
 * The path parameters known to be plain identifiers: a suite's or a journal entry's id, a user's
 * id, a connection's name, a per-user record's collection and key, a VMS batch id. A new route's parameter must
 * be added either here or, when it is a secret, to secretParams (and its path to secretPaths).
 */
const plainParams = new Set(['id', 'name', 'collection', 'key', 'batchId', 'scheduleId']);

describe('every route the portal serves', () => {
  let upstream: CaptureUpstream;
  const routes: string[] = [];

  beforeAll(async () => {
    upstream = await startCaptureUpstream();
    const app = buildPortal(testConfig(upstream.url, { AUTH: 'on', PORTAL_DB: ':memory:' }));
    app.addHook('onRoute', (route) => {
      routes.push(route.url);
    });
    await app.ready();
    await app.close();
  });

  afterAll(async () => {
    await upstream.close();
  });

  it('has each path parameter declared plain or secret, and a secret one is never recorded', () => {
    const parameterised = routes.filter((url) => url.includes(':'));
    expect(parameterised).toContain('/api/invites/:token');
    for (const url of parameterised) {
      for (const [, name = ''] of url.matchAll(/:([A-Za-z0-9_]+)/g)) {
        const secret = (secretParams as readonly string[]).includes(name);
        expect(
          secret || plainParams.has(name),
          `${url}: is :${name} a secret? Add it to secretParams (and the path to secretPaths) or to plainParams`,
        ).toBe(true);
        if (!secret) continue;
        const concrete = url.replace(/:([A-Za-z0-9_]+)/g, (_, param: string) =>
          param === name ? token : 'x',
        );
        expect(recordedPath(concrete), `${url} records its :${name}`).not.toContain(token);
      }
    }
  });
});

describe('a one-time link refused or used', () => {
  const password = 'correct horse battery staple';
  let dir: string;
  let dbPath: string;
  let upstream: CaptureUpstream;
  let portal: TestPortal;
  let admin: TestBrowser;
  let closed = false;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'portal-recorded-path-'));
    dbPath = join(dir, 'portal.db');
    upstream = await startCaptureUpstream();
    portal = await startTestPortal(
      testConfig(upstream.url, {
        AUTH: 'on',
        PORTAL_DB: dbPath,
        PORTAL_RATE_LIMIT_PER_MINUTE: '0',
      }),
    );
    await addUser(dbPath, 'ada@example.com', password, 'admin');
    admin = new TestBrowser(portal.url);
    await admin.signIn('ada@example.com', password);
  });

  afterAll(async () => {
    if (!closed) await portal.close();
    await upstream.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('leaves no invite token or API token in the database, its WAL, the log or the audit trail', async () => {
    const secrets: string[] = [];
    const inviteToken = async (email: string) => {
      const answer = await admin.call('POST', '/api/users', {
        body: { email, role: 'qa', clientOrgIds: [1001] },
      });
      expect(answer.status).toBe(201);
      const made = createdUserSchema.parse(answer.json()).invitePath?.replace('/invite/', '');
      expect(made).toMatch(/^[A-Za-z0-9_-]{43}$/);
      secrets.push(made ?? '');
      return made ?? '';
    };
    const first = await inviteToken('quinn@example.com');
    const second = await inviteToken('rosa@example.com');

    // From another site: refused (csrf_failed) and audited.
    const evil = new TestBrowser(portal.url, 'https://evil.example');
    const refused = await evil.call('POST', `/api/invites/${first}`, { body: { password } });
    expect(refused.status).toBe(403);
    // A wrong token, then the right one, from the portal's own page.
    const quinn = new TestBrowser(portal.url);
    expect(
      (await quinn.call('POST', `/api/invites/${second}x`, { body: { password } })).status,
    ).toBe(410);
    const accepted = await quinn.call('POST', `/api/invites/${first}`, { body: { password } });
    expect(accepted.status).toBe(200);
    quinn.csrfToken = sessionStateSchema.parse(accepted.json()).csrfToken;
    // The invite page itself, opened as the link is.
    await portal.call('GET', `/invite/${second}`);

    // An API token made, revoked and then used: refused as token_invalid, and audited.
    const made = await quinn.call('POST', '/api/tokens', {
      body: { name: 'ci', scope: 'suites', expiresInDays: 30 },
    });
    expect(made.status).toBe(201);
    const { token: summary, secret: apiToken } = createdApiTokenSchema.parse(made.json());
    secrets.push(apiToken);
    expect((await quinn.call('DELETE', `/api/tokens/${summary.id}`)).status).toBe(200);
    const revoked = await portal.call('GET', '/api/suites', {
      headers: { authorization: `Bearer ${apiToken}` },
    });
    expect(revoked.status).toBe(401);

    const audit = await admin.call('GET', '/api/audit?limit=200');
    expect(audit.status).toBe(200);
    const auditText = audit.text;
    // The refusals are there, with the path's secret replaced.
    expect(auditText).toContain('/api/invites/[redacted]');
    expect(auditText).toContain('csrf_failed');
    expect(auditText).toContain('token_invalid');

    // Written out of the portal's queues before the files are read.
    await portal.close();
    const bytes = testDatabaseBytes(dbPath);
    for (const secret of secrets) {
      expect(bytes.includes(Buffer.from(secret))).toBe(false);
      expect(portal.rawLog()).not.toContain(secret);
      expect(auditText).not.toContain(secret);
    }
    closed = true;
  });
});
