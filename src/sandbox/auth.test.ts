import { createHmac } from 'node:crypto';
import Fastify from 'fastify';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  sandboxSignatureRecipe,
  type SignatureRecipe,
} from '@/domain/vms-profile/signature-recipe';
import { computeSignature, signRequest, unixSeconds } from '@/node/signature';
import type { TestSandbox } from '@/test-support/sandbox-client';
import { errorOf, startTestSandbox, tempDbPath } from '@/test-support/sandbox-client';
import { registerAuthentication, scopeOf } from './auth';
import { openSandboxDatabase } from './database';
import { sandboxDemo } from './demo';
import { registerErrorHandling } from './errors';
import { loadReference } from './reference';
import { seedAccounts } from './seed';

const secondVendor = seedAccounts[1];
if (!secondVendor) throw new Error('The seed has a second vendor key.');

let sandbox: TestSandbox;
beforeAll(async () => {
  sandbox = await startTestSandbox();
});
afterAll(() => sandbox.close());

describe('authentication, like the real gateway', () => {
  it('answers a request signed with the demo key and secret at the current second', async () => {
    const result = await sandbox.call('/requisitions');
    expect(result.status).toBe(200);
  });

  it('refuses a request without x-api-key with 401 missing_api_key', async () => {
    const result = await sandbox.call('/requisitions', { apiKey: null });
    expect(result.status).toBe(401);
    expect(errorOf(result).code).toBe('missing_api_key');
    expect(errorOf(result).message).toMatch(/x-api-key header is missing/);
  });

  it('refuses an unknown key with 401 unknown_api_key', async () => {
    const result = await sandbox.call('/requisitions', { apiKey: 'not-a-key' });
    expect(result.status).toBe(401);
    expect(errorOf(result).code).toBe('unknown_api_key');
  });

  it('refuses a signature made with the wrong secret with 403 "Not Authorized"', async () => {
    const result = await sandbox.call('/requisitions', { secret: 'wrong-secret' });
    expect(result.status).toBe(403);
    expect(errorOf(result)).toMatchObject({ code: 'not_authorized', message: 'Not Authorized' });
    expect(errorOf(result).details[0]?.message).toMatch(
      /^x-signature must be the lowercase hex SHA-256 of key \+ secret \+ Unix seconds, timestamp not sent; /,
    );
  });

  it('refuses a request without x-signature with 403', async () => {
    const result = await sandbox.call('/requisitions', { signature: null });
    expect(result.status).toBe(403);
    expect(errorOf(result).code).toBe('not_authorized');
  });

  it('checks authentication before reading the body', async () => {
    const result = await sandbox.call('/requisitionimport', {
      apiKey: 'not-a-key',
      rawBody: '{not json',
    });
    expect(result.status).toBe(401);
  });
});

describe('which orgs a key may act for', () => {
  it('refuses a client org the key does not serve with 403 org_not_permitted', async () => {
    const result = await sandbox.call('/requisitions', { query: { Client_Org_Id: 1003 } });
    expect(result.status).toBe(403);
    expect(errorOf(result).code).toBe('org_not_permitted');
    expect(errorOf(result).message).toMatch(/client org 1003; it serves client orgs 1001 and 1002/);
  });

  it("refuses a client org the sandbox has but this vendor's key does not serve", async () => {
    const options = { apiKey: secondVendor.apiKey, secret: secondVendor.secret };
    const allowed = await sandbox.call('/requisitions', {
      ...options,
      query: { Vendor_Org_Id: 9002 },
    });
    expect(allowed.status).toBe(200);
    const refused = await sandbox.call('/requisitions', {
      ...options,
      query: { Client_Org_Id: 1002, Vendor_Org_Id: 9002 },
    });
    expect(refused.status).toBe(403);
    expect(errorOf(refused).code).toBe('org_not_permitted');
  });

  it('refuses a sub-org as Client_Org_Id and says where it belongs', async () => {
    const result = await sandbox.call('/requisitions', { query: { Client_Org_Id: 1011 } });
    expect(result.status).toBe(403);
    expect(errorOf(result).message).toMatch(/sub-org goes in the orgid field/);
  });

  it("refuses a vendor org that is not the key's with 403 org_not_permitted", async () => {
    const result = await sandbox.call('/requisitions', { query: { Vendor_Org_Id: 9002 } });
    expect(result.status).toBe(403);
    expect(errorOf(result).code).toBe('org_not_permitted');
    expect(errorOf(result).message).toMatch(/vendor org 9001/);
  });

  it.each([
    ['Client_Org_Id', { Client_Org_Id: null }],
    ['Vendor_Org_Id', { Vendor_Org_Id: null }],
  ])('refuses a missing %s with 400 missing_parameter naming it', async (name, query) => {
    const result = await sandbox.call('/requisitions', { query });
    expect(result.status).toBe(400);
    expect(errorOf(result).code).toBe('missing_parameter');
    expect(errorOf(result).message).toContain(name);
  });

  it.each([
    ['Client_Org_Id', { Client_Org_Id: 'abc' }],
    ['Vendor_Org_Id', { Vendor_Org_Id: '9001.5' }],
  ])('refuses a %s that is not an integer with 400 invalid_parameter', async (name, query) => {
    const result = await sandbox.call('/requisitions', { query });
    expect(result.status).toBe(400);
    expect(errorOf(result).code).toBe('invalid_parameter');
    expect(errorOf(result).message).toContain(name);
  });
});

describe('paths', () => {
  it('answers an unknown path with 404 not_found listing the operations', async () => {
    const result = await sandbox.call('/requisition');
    expect(result.status).toBe(404);
    expect(errorOf(result).code).toBe('not_found');
    expect(errorOf(result).message).toMatch(/POST \/requisitionimport/);
  });

  it('authenticates before saying a path is unknown', async () => {
    expect((await sandbox.call('/nothing-here', { apiKey: null })).status).toBe(401);
  });

  it('treats a wrong method as an unknown operation', async () => {
    const result = await sandbox.call('/requisitionimport');
    expect(result.status).toBe(404);
  });
});

describe('GET /_sandbox/reference', () => {
  it('gives the reference data of a client without authentication', async () => {
    const result = await sandbox.call('/_sandbox/reference', {
      apiKey: null,
      signature: null,
      query: { Vendor_Org_Id: null, Client_Org_Id: 1002 },
    });
    expect(result.status).toBe(200);
    expect(result.body).toMatchObject({ orgId: 1002, allowsExceedingHourlyHigh: true });
  });

  it('says which client orgs exist when asked for another', async () => {
    const result = await sandbox.call('/_sandbox/reference', {
      apiKey: null,
      query: { Vendor_Org_Id: null, Client_Org_Id: 1003 },
    });
    expect(result.status).toBe(404);
    expect(errorOf(result).message).toMatch(/1001 and 1002/);
  });

  it('needs Client_Org_Id', async () => {
    const result = await sandbox.call('/_sandbox/reference', {
      apiKey: null,
      query: { Vendor_Org_Id: null, Client_Org_Id: null },
    });
    expect(result.status).toBe(400);
    expect(errorOf(result).code).toBe('missing_parameter');
  });
});

/*
 * The sandbox registered with another recipe, as a profile will pass it: the same hooks on a
 * bare Fastify app over a seeded database, with one route that answers the authorized scope.
 */
describe('a sandbox started with another signature recipe', () => {
  const hmacRecipe: SignatureRecipe = {
    hash: 'hmac-sha256',
    order: ['timestamp', 'key'],
    timestamp: { form: 'iso-8601', travel: { header: 'x-timestamp' } },
    encoding: 'base64',
    keyHeader: 'x-api-key',
    signatureHeader: 'x-signature',
  };
  const bodyRecipe: SignatureRecipe = {
    hash: 'sha512',
    order: ['key', 'timestamp', 'body', 'secret'],
    timestamp: { form: 'unix-milliseconds', travel: { query: 'ts' } },
    encoding: 'HEX',
    keyHeader: 'x-key',
    signatureHeader: 'x-sig',
  };
  const clock = new Date('2026-11-27T10:15:30.250Z');
  const query = '?Client_Org_Id=1001&Vendor_Org_Id=9001';
  const temp = tempDbPath();
  const db = openSandboxDatabase(temp.dbPath);
  const apps: FastifyInstance[] = [];
  afterAll(async () => {
    await Promise.all(apps.map((app) => app.close()));
    db.close();
    temp.remove();
  });

  function sandboxWith(recipe: SignatureRecipe): FastifyInstance {
    const app = Fastify();
    registerErrorHandling(app);
    registerAuthentication(app, loadReference(db), () => clock, recipe);
    app.get('/requisitions', async (request) => ({ vendor: scopeOf(request).vendorOrgId }));
    app.post('/requisitionimport', async (request) => ({
      vendor: scopeOf(request).vendorOrgId,
      items: (request.body as unknown[]).length,
    }));
    apps.push(app);
    return app;
  }

  it('accepts a request signed with signRequest for an HMAC recipe with a timestamp header', async () => {
    const app = sandboxWith(hmacRecipe);
    const signed = signRequest(hmacRecipe, {
      apiKey: sandboxDemo.apiKey,
      secret: sandboxDemo.apiSecret,
      now: clock.getTime() - 120_000,
    });
    // What the recipe says, computed here by hand: base64 HMAC-SHA256 of the ISO time + the key.
    expect(signed.headers).toEqual({
      'x-api-key': sandboxDemo.apiKey,
      'x-timestamp': '2026-11-27T10:13:30Z',
      'x-signature': createHmac('sha256', sandboxDemo.apiSecret)
        .update(`2026-11-27T10:13:30Z${sandboxDemo.apiKey}`)
        .digest('base64'),
    });
    const result = await app.inject({ url: `/requisitions${query}`, headers: signed.headers });
    expect(result.statusCode).toBe(200);
    expect(result.json()).toEqual({ vendor: 9001 });
  });

  it('refuses a request signed the default way, describing the recipe in use', async () => {
    const app = sandboxWith(hmacRecipe);
    const result = await app.inject({
      url: `/requisitions${query}`,
      headers: {
        'x-api-key': sandboxDemo.apiKey,
        'x-signature': computeSignature(
          sandboxDemo.apiKey,
          sandboxDemo.apiSecret,
          unixSeconds(clock.getTime()),
        ),
      },
    });
    expect(result.statusCode).toBe(403);
    const error = errorOf({ status: result.statusCode, body: result.json() });
    expect(error).toMatchObject({ code: 'not_authorized', message: 'Not Authorized' });
    expect(error.details[0]).toEqual({
      field: 'x-signature',
      message:
        'x-signature must be the base64 HMAC-SHA256 keyed with the secret of ISO 8601 UTC time ' +
        'to the second + key, timestamp sent in the x-timestamp header; the timestamp is ' +
        'accepted for 300 seconds either side of the server clock. Check the secret and the ' +
        'clock of the signing machine.',
    });
  });

  it('accepts the default recipe’s signature made 299 s ago, not 301 s ago (expired) or 301 s ahead', async () => {
    // On the sandbox's own clock, fixed here: a machine slowed by other work cannot move the edge.
    const app = sandboxWith(sandboxSignatureRecipe);
    const status = async (offsetMs: number) => {
      const signed = signRequest(sandboxSignatureRecipe, {
        apiKey: sandboxDemo.apiKey,
        secret: sandboxDemo.apiSecret,
        now: clock.getTime() + offsetMs,
      });
      const result = await app.inject({ url: `/requisitions${query}`, headers: signed.headers });
      return { status: result.statusCode, body: result.body };
    };
    expect((await status(-299_000)).status).toBe(200);
    const expired = await status(-301_000);
    expect(expired.status).toBe(403);
    expect(expired.body).toContain('Not Authorized');
    expect((await status(301_000)).status).toBe(403);
  });

  it('refuses a travelling timestamp outside the window though correctly signed', async () => {
    const app = sandboxWith(hmacRecipe);
    const signed = signRequest(hmacRecipe, {
      apiKey: sandboxDemo.apiKey,
      secret: sandboxDemo.apiSecret,
      now: clock.getTime() - 301_000,
    });
    const result = await app.inject({ url: `/requisitions${query}`, headers: signed.headers });
    expect(result.statusCode).toBe(403);
  });

  it('verifies a recipe that signs the body against the bytes sent, before parsing them', async () => {
    const app = sandboxWith(bodyRecipe);
    const body = '[ {"a": 1}, {"b": "é"} ]';
    const signed = signRequest(bodyRecipe, {
      apiKey: sandboxDemo.apiKey,
      secret: sandboxDemo.apiSecret,
      now: clock.getTime(),
      body,
    });
    expect(signed.query).toEqual({ ts: '1795774530250' });
    const send = (payload: string, headers = signed.headers) =>
      app.inject({
        method: 'POST',
        url: `/requisitionimport${query}&ts=${signed.query.ts}`,
        headers: { ...headers, 'content-type': 'application/json' },
        payload,
      });
    const accepted = await send(body);
    expect(accepted.statusCode).toBe(200);
    expect(accepted.json()).toEqual({ vendor: 9001, items: 2 });
    // The same items, other bytes: not what was signed.
    const refused = await send('[{"a":1},{"b":"é"}]');
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toMatchObject({ error: { details: [{ field: 'x-sig' }] } });
    // The key is still checked before the body is read.
    const unknown = await send('{not json', { 'x-key': 'not-a-key' });
    expect(unknown.statusCode).toBe(401);
    expect(unknown.json()).toMatchObject({ error: { code: 'unknown_api_key' } });
  });
});
