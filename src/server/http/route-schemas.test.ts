import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { apiErrorBodySchema } from '@/domain/api-error';
import { sessionUserSchema } from '@/domain/auth';
import {
  startCaptureUpstream,
  startTestPortal,
  testConfig,
  type CaptureUpstream,
  type TestPortal,
} from '@/test-support/capture-upstream';
import { addUser, TestBrowser } from '@/test-support/test-browser';
import { bodySchema, responseSchema, withRouteSchemas } from './route-schemas';

/*
 * The routes' schemas on a real portal (sign-in on, an admin signed in): a request part a schema
 * refuses is answered in the portal's one error shape, with the domain's own words and the code
 * the route has always answered with; and an answer carries only what its schema names.
 */

const password = 'correct horse battery staple';
let dir: string;
let upstream: CaptureUpstream;
let portal: TestPortal;
let plain: TestPortal;
let admin: TestBrowser;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'portal-schemas-'));
  const dbPath = join(dir, 'portal.db');
  upstream = await startCaptureUpstream();
  portal = await startTestPortal(
    testConfig(upstream.url, { AUTH: 'on', PORTAL_DB: dbPath, PORTAL_RATE_LIMIT_PER_MINUTE: '0' }),
  );
  plain = await startTestPortal(testConfig(upstream.url, { PORTAL_DB: join(dir, 'plain.db') }));
  await addUser(dbPath, 'ada@example.com', password, 'admin');
  admin = new TestBrowser(portal.url);
  expect((await admin.signIn('ada@example.com', password)).status).toBe(200);
});

afterAll(async () => {
  await portal.close();
  await plain.close();
  await upstream.close();
  rmSync(dir, { recursive: true, force: true });
});

function refusal(answer: { status: number; json(): unknown }) {
  return { status: answer.status, ...apiErrorBodySchema.parse(answer.json()).error };
}

describe('a request part its schema refuses', () => {
  it('is a body: 400 invalid_body in the domain’s words, field by field', async () => {
    const answer = await admin.call('POST', '/api/users', {
      body: { email: 'not an address', role: 'recruiter', clientOrgIds: [1001] },
    });
    expect(refusal(answer)).toEqual({
      status: 400,
      code: 'invalid_body',
      message: 'Write an e-mail address, like name@example.com.',
      details: [{ field: 'email', message: 'Write an e-mail address, like name@example.com.' }],
    });
  });

  it('is no body at all where one is needed: 400 invalid_body naming the body', async () => {
    const answer = await admin.call('PUT', '/api/me/drafts/one');
    const { status, code, details } = refusal(answer);
    expect([status, code]).toEqual([400, 'invalid_body']);
    expect(details.map((detail) => detail.field)).toEqual(['body']);
  });

  it('is a path parameter: the route’s own answer, 404 for a collection there is not', async () => {
    expect(refusal(await admin.call('GET', '/api/me/recipes'))).toEqual({
      status: 404,
      code: 'not_found',
      message:
        'There is no collection "recipes" of your records; there are drafts and submissions and tray.',
      details: [],
    });
    // A key as long as a key may be is kept; one longer is refused by the key's rule.
    const longest = await admin.call('PUT', `/api/me/drafts/${'é'.repeat(200)}`, {
      body: { value: 1, baseVersion: 0 },
    });
    expect(longest.status).toBe(200);
    expect(
      refusal(
        await admin.call('PUT', `/api/me/drafts/${'k'.repeat(201)}`, {
          body: { value: 1, baseVersion: 0 },
        }),
      ),
    ).toEqual({
      status: 400,
      code: 'invalid_parameter',
      message: 'A record key has 1 to 200 characters.',
      details: [{ field: 'key', message: 'empty or too long' }],
    });
  });

  it('is checked after the route’s own refusals: parameters before the body, sign-in first', async () => {
    // An unknown connection is 404 whatever the body says.
    const unknown = await admin.call('POST', '/api/connections/elsewhere/check', {
      body: { sendTest: 'yes' },
    });
    expect(refusal(unknown)).toMatchObject({ status: 404, code: 'not_found' });
    // A known one with a body its schema refuses is 400, the key that is not allowed named.
    const bad = await admin.call('POST', '/api/connections/default/check', {
      body: { sendTest: true, extra: 1 },
    });
    expect(refusal(bad)).toMatchObject({ status: 400, code: 'invalid_body' });
    // With sign-in off there is no sign-in to send a body to: 404 before the body is read.
    const off = await plain.call('POST', '/api/session', {
      headers: { 'content-type': 'application/json', origin: plain.url },
      body: '{"email": 1}',
    });
    expect(refusal(off)).toMatchObject({ status: 404, code: 'not_found' });
  });

  it('is a query parameter given twice: 400 naming it', async () => {
    expect(refusal(await admin.call('GET', '/api/me/drafts?since=1&since=2'))).toMatchObject({
      status: 400,
      code: 'invalid_parameter',
      details: [{ field: 'since', message: 'not a whole number' }],
    });
  });
});

describe('an answer', () => {
  it('carries only what its schema names', async () => {
    const app = Fastify();
    withRouteSchemas(app).get(
      '/me',
      { schema: { response: { 200: responseSchema(sessionUserSchema) } } },
      // A field the schema does not name, as a careless route might add.
      async () => ({
        id: 'u1',
        email: 'ada@example.com',
        role: 'admin' as const,
        clientOrgIds: [1001],
        connections: ['default'],
        passwordHash: '$argon2id$secret',
      }),
    );
    const answer = await app.inject('/me');
    expect(answer.json()).toEqual({
      id: 'u1',
      email: 'ada@example.com',
      role: 'admin',
      clientOrgIds: [1001],
      connections: ['default'],
    });
    expect(answer.body).not.toContain('argon2id');
    await app.close();
  });
});

describe('a route schema', () => {
  it('not made from a Zod schema stops the start, naming the route', async () => {
    const app = Fastify();
    withRouteSchemas(app).post(
      '/things',
      { schema: { body: { type: 'object', properties: { name: { type: 'string' } } } } },
      async () => ({}),
    );
    await expect(app.ready()).rejects.toThrow(/POST \/things: its body schema was not made/);
  });

  it('made from one checks with it, its transforms included', async () => {
    const app = Fastify();
    withRouteSchemas(app).post(
      '/things',
      { schema: { body: bodySchema(z.object({ count: z.string().transform(Number) })) } },
      async (request) => ({ doubled: request.body.count * 2 }),
    );
    const answer = await app.inject({ method: 'POST', url: '/things', payload: { count: '21' } });
    expect(answer.json()).toEqual({ doubled: 42 });
    await app.close();
  });
});
