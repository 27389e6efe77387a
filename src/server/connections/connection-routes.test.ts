import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Fastify from 'fastify';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiError, apiErrorBodySchema } from '@/domain/api-error';
import { doctorReportSchema } from '@/domain/connection-check';
import { profileDraftSchema } from '@/domain/profile-draft';
import { sandboxDemo, startSandbox, type RunningSandbox } from '@/sandbox/index';
import { targetFromConfig } from '@/server/doctor/target';
import { sendError } from '@/server/http/portal-error';
import {
  startCaptureUpstream,
  startTestPortal,
  testConfig,
  type TestPortal,
} from '@/test-support/capture-upstream';
import { tempDbPath } from '@/test-support/sandbox-client';
import { addUser, TestBrowser } from '@/test-support/test-browser';
import { connectionRoutes } from './connection-routes';

/*
 * POST /api/connections/:name/check through a real portal with sign-in on, against a real
 * sandbox: an admin's, refused to a recruiter and to QA; and a production connection's test
 * send, refused without force.
 */

const password = 'correct horse battery staple';
const check = '/api/connections/default/check';
let dir: string;
let sandbox: RunningSandbox;
const sandboxDb = tempDbPath();
let portal: TestPortal;
const browsers: Record<'recruiter' | 'qa' | 'admin', TestBrowser> = {} as never;

const vmsEnv = () => ({
  VMS_API_KEY: sandboxDemo.apiKey,
  VMS_API_SECRET: sandboxDemo.apiSecret,
  PORTAL_RATE_LIMIT_PER_MINUTE: '0',
});

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'portal-connections-'));
  const dbPath = join(dir, 'portal.db');
  sandbox = await startSandbox({ port: 0, dbPath: sandboxDb.dbPath, processingDelayMs: 0 });
  portal = await startTestPortal(
    testConfig(sandbox.url, { ...vmsEnv(), AUTH: 'on', PORTAL_DB: dbPath }),
  );
  await addUser(dbPath, 'rita@example.com', password, 'recruiter', [1001]);
  await addUser(dbPath, 'quinn@example.com', password, 'qa', [1001]);
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
  await sandbox.close();
  sandboxDb.remove();
  rmSync(dir, { recursive: true, force: true });
});

describe('checking a connection from the portal', () => {
  it("is an admin's: the report, every probe passed, nothing secret in it", async () => {
    const answer = await browsers.admin.call('POST', check);
    expect(answer.status).toBe(200);
    expect(answer.headers['cache-control']).toBe('no-store');
    const report = doctorReportSchema.parse(answer.json());
    expect(report.probes.filter((probe) => probe.verdict !== 'passed')).toEqual([]);
    expect(answer.text).not.toContain(sandboxDemo.apiKey);
    expect(answer.text).not.toContain(sandboxDemo.apiSecret);
  });

  it('is 403 for a recruiter and for QA, and 401 without a session', async () => {
    for (const role of ['recruiter', 'qa'] as const) {
      const answer = await browsers[role].call('POST', check);
      expect(answer.status, role).toBe(403);
      expect(apiErrorBodySchema.parse(answer.json()).error.code).toBe('forbidden');
    }
    const stranger = await request(`${portal.url}${check}`, {
      method: 'POST',
      headers: { origin: portal.url },
    });
    expect(stranger.statusCode).toBe(401);
    await stranger.body.dump();
  });

  it('is 404 for a connection that does not exist', async () => {
    const answer = await browsers.admin.call('POST', '/api/connections/elsewhere/check');
    expect(answer.status).toBe(404);
  });
});

describe('drafting a profile from the portal', () => {
  const draft = '/api/connections/default/draft-profile';

  it("is an admin's: the drafted profile with its evidence, nothing secret in it", async () => {
    const answer = await browsers.admin.call('POST', draft);
    expect(answer.status).toBe(200);
    expect(answer.headers['cache-control']).toBe('no-store');
    const outcome = profileDraftSchema.parse(answer.json());
    if (!outcome.drafted) throw new Error(outcome.problem);
    // The sandbox's own dialect, found again from its answers.
    expect(outcome.profile).toMatchObject({
      paths: {
        requisitions: 'requisitions',
        requisitionresults: 'requisitionresults?batchid={batchid}',
      },
      list: { records: '', fieldNames: 'PascalCase', paging: { style: 'none' } },
      errors: { message: '/error/message' },
    });
    expect(outcome.profile.$evidence['list.filter']).toMatch(/^proved: /);
    expect(answer.text).not.toContain(sandboxDemo.apiKey);
    expect(answer.text).not.toContain(sandboxDemo.apiSecret);
  });

  it('is 403 for a recruiter and for QA, who are offered no draft', async () => {
    for (const role of ['recruiter', 'qa'] as const) {
      const answer = await browsers[role].call('POST', draft);
      expect(answer.status, role).toBe(403);
      expect(apiErrorBodySchema.parse(answer.json()).error.code).toBe('forbidden');
    }
  });

  it('is 400 for a signed example without a signature, naming what is missing', async () => {
    const answer = await browsers.admin.call('POST', draft, {
      body: { example: { method: 'GET', path: '/requisitions', headers: { 'x-api-key': 'k' } } },
    });
    expect(answer.status).toBe(400);
    expect(apiErrorBodySchema.parse(answer.json()).error.message).toBe(
      'The signed example: no header of the example carries a signature (a header named …sign… holding hex or base64 text).',
    );
  });
});

describe("a production connection's test send", () => {
  it('is 409 without force, and goes through with it', async () => {
    const config = testConfig(sandbox.url, { ...vmsEnv(), SANDBOX_PROCESSING_DELAY_MS: '0' });
    const app = Fastify();
    // The portal's own error handler, in short: an ApiError is its code's status and body.
    app.setErrorHandler((error, _request, reply) =>
      error instanceof ApiError ? sendError(reply, error.code, error.message) : reply.send(error),
    );
    await app.register(connectionRoutes, {
      prefix: '/api/connections',
      config,
      sandboxUrl: `${sandbox.url}/`,
      connection: (name) =>
        name === 'live'
          ? { ...targetFromConfig(config, `${sandbox.url}/`), name, production: true }
          : null,
    });
    const call = (body: unknown) =>
      app.inject({
        method: 'POST',
        url: '/api/connections/live/check',
        headers: { 'content-type': 'application/json' },
        payload: JSON.stringify(body),
      });
    const refused = await call({ sendTest: true });
    expect(refused.statusCode).toBe(409);
    expect(refused.body).toContain('production');
    const probesOnly = await call({});
    expect(probesOnly.statusCode).toBe(200);
    const forced = await call({ sendTest: true, force: true });
    expect(forced.statusCode).toBe(200);
    expect(doctorReportSchema.parse(forced.json()).probes.at(-1)?.id).toBe('sendTest');
    await app.close();
  });
});

describe("a draft's test send", () => {
  it('drafts the POST side from a test VMS, and is 409 on a production one, which it calls not at all', async () => {
    const config = testConfig(sandbox.url, vmsEnv());
    const vms = await startCaptureUpstream();
    const app = Fastify();
    app.setErrorHandler((error, _request, reply) =>
      error instanceof ApiError ? sendError(reply, error.code, error.message) : reply.send(error),
    );
    await app.register(connectionRoutes, {
      prefix: '/api/connections',
      config,
      sandboxUrl: `${sandbox.url}/`,
      connection: (name) => {
        const own = targetFromConfig(config, `${sandbox.url}/`);
        if (name === 'test') return { ...own, name, production: false };
        if (name === 'live') return { ...own, name, baseUrl: vms.url, production: true };
        return null;
      },
    });
    const call = (name: string) =>
      app.inject({
        method: 'POST',
        url: `/api/connections/${name}/draft-profile`,
        headers: { 'content-type': 'application/json' },
        payload: JSON.stringify({ sendTest: true }),
      });
    const refused = await call('live');
    expect(refused.statusCode).toBe(409);
    expect(apiErrorBodySchema.parse(refused.json()).error.message).toBe(
      'The live connection is a production VMS: the test requisition would be a real one there. Draft it without the test send; a test requisition goes only to a test VMS.',
    );
    expect(vms.requests).toHaveLength(0);

    const sent = await call('test');
    expect(sent.statusCode).toBe(200);
    const outcome = profileDraftSchema.parse(sent.json());
    if (!outcome.drafted) throw new Error(outcome.problem);
    expect(outcome.profile).toMatchObject({
      paths: { requisitionimport: 'requisitionimport', candidates: 'candidates' },
      accepted: { statuses: [202], batchId: '/batchid' },
    });
    expect(outcome.profile.$evidence['results.requisition']).toMatch(/^proved: /);
    await app.close();
    await vms.close();
  });
});
