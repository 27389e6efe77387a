import { createHash } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { apiErrorBodySchema } from '@/domain/api-error';
import { unixSeconds } from '@/node/signature';
import { freePort } from '@/server/free-port';
import {
  startCaptureUpstream,
  startTestPortal,
  testConfig,
  testCredentials,
  type CaptureUpstream,
  type TestPortal,
} from '@/test-support/capture-upstream';

const orgs = '?Client_Org_Id=1001&Vendor_Org_Id=9001';
const json = { 'content-type': 'application/json' };

let upstream: CaptureUpstream;
let portal: TestPortal;
/** Every portal and upstream of this file, for the closing check for secrets. */
const portals: TestPortal[] = [];

beforeAll(async () => {
  upstream = await startCaptureUpstream();
  // A path prefix on the base proves operations are resolved under it.
  portal = await startTestPortal(testConfig(`${upstream.url}vms/v1`, { VMS_MAX_BATCH: '3' }));
  portals.push(portal);
});

afterAll(async () => {
  await Promise.all(portals.map((p) => p.close()));
  await upstream.close();
});

beforeEach(() => {
  upstream.requests.length = 0;
  upstream.respondWith((captured) =>
    captured.method === 'POST'
      ? { status: 202, headers: json, body: '{"batchid":"b-7","received":2}' }
      : { status: 200, headers: json, body: '[{"Req_Id":"41"}]' },
  );
});

function errorCode(body: unknown): string {
  return apiErrorBodySchema.parse(body).error.code;
}

function errorMessage(body: unknown): string {
  return apiErrorBodySchema.parse(body).error.message;
}

describe('forwarding a batch', () => {
  // Odd whitespace, escapes, non-ASCII and an astral character: the VMS must get these bytes.
  const body = Buffer.from(
    '[ {"titlerole" : "Ingénieur \\u00e9 — 日本語 🚀",\r\n\t"noofopenings":"2"} ,\n{"x":"a\\"b\\\\c"}   ]\n',
    'utf8',
  );

  it('signs the call, sends the body byte for byte, and passes the answer through', async () => {
    const before = unixSeconds();
    const res = await portal.call('POST', `/api/vms/requisitionimport${orgs}`, {
      headers: {
        'content-type': 'application/json',
        'x-api-key': 'browser-key',
        'x-signature': 'browser-signature',
        authorization: 'Bearer browser',
        cookie: 'session=browser',
        'x-custom': 'browser',
        connection: 'keep-alive, x-custom',
      },
      body,
    });
    const after = unixSeconds();

    expect(res.status).toBe(202);
    expect(res.body.toString()).toBe('{"batchid":"b-7","received":2}');
    expect(upstream.requests).toHaveLength(1);
    const [sent] = upstream.requests;
    expect(sent?.method).toBe('POST');
    expect(sent?.path).toBe('/vms/v1/requisitionimport');
    expect(sent?.query).toBe(orgs);
    expect(sent?.body.equals(body)).toBe(true);
    expect(sent?.headers['content-type']).toBe('application/json');
    expect(sent?.headers.accept).toBe('application/json');
    expect(sent?.headers['x-api-key']).toBe(testCredentials.apiKey);
    expect(sent?.headers.authorization).toBeUndefined();
    expect(sent?.headers.cookie).toBeUndefined();
    expect(sent?.headers['x-custom']).toBeUndefined();

    // The VMS's documented signature: lowercase hex SHA-256 of key + secret + Unix seconds, for a second within
    // ±5 s of this test's clock.
    const candidates = new Set<string>();
    for (let ts = before - 5; ts <= after + 5; ts += 1) {
      candidates.add(
        createHash('sha256')
          .update(`${testCredentials.apiKey}${testCredentials.apiSecret}${ts}`)
          .digest('hex'),
      );
    }
    expect(sent?.headers['x-signature']).toMatch(/^[0-9a-f]{64}$/);
    expect(candidates.has(String(sent?.headers['x-signature']))).toBe(true);
  });

  it('accepts a JSON content type with parameters and forwards candidates too', async () => {
    const res = await portal.call('POST', `/api/vms/candidates${orgs}`, {
      headers: { 'content-type': 'application/json; charset=utf-8' },
      body: '[{"firstname":"Ada"}]',
    });
    expect(res.status).toBe(202);
    expect(upstream.requests[0]?.path).toBe('/vms/v1/candidates');
    expect(upstream.requests[0]?.headers['content-type']).toBe('application/json');
  });

  it('forwards GET operations with the query verbatim and no body', async () => {
    const query = `${orgs}&filterfield=Req_Id&filteroperator=%3E%3D&filtervalue=40`;
    const res = await portal.call('GET', `/api/vms/requisitions${query}`);
    expect(res.status).toBe(200);
    expect(res.body.toString()).toBe('[{"Req_Id":"41"}]');
    expect(res.headers['content-type']).toBe('application/json');
    const [sent] = upstream.requests;
    expect(sent?.path).toBe('/vms/v1/requisitions');
    expect(sent?.query).toBe(query);
    expect(sent?.body.length).toBe(0);
    expect(sent?.headers['content-type']).toBeUndefined();
    expect(sent?.headers.accept).toBe('application/json');

    await portal.call('GET', `/api/vms/requisitionresults${orgs}&batchid=b-7`);
    await portal.call('GET', `/api/vms/candidateresults${orgs}&batchid=b-8`);
    expect(upstream.requests.map((r) => r.path)).toEqual([
      '/vms/v1/requisitions',
      '/vms/v1/requisitionresults',
      '/vms/v1/candidateresults',
    ]);
  });

  it('rebuilds the org parameters from the checked values, in place, and keeps the rest', async () => {
    const query = '?Vendor_Org_Id=9001&filterfield=Req_Id&Client_Org_Id=1001&filtervalue=a%20b';
    const res = await portal.call('GET', `/api/vms/requisitions${query}`);
    expect(res.status).toBe(200);
    expect(upstream.requests[0]?.query).toBe(query);
  });

  it('passes upstream errors through unchanged and does not retry them', async () => {
    upstream.respondWith(() => ({
      status: 403,
      headers: { 'content-type': 'text/plain', 'set-cookie': 'vms=1', 'retry-after': '7' },
      body: 'Not Authorized',
    }));
    const refused = await portal.call('GET', `/api/vms/requisitions${orgs}`);
    expect(refused.status).toBe(403);
    expect(refused.body.toString()).toBe('Not Authorized');
    expect(refused.headers['content-type']).toBe('text/plain');
    expect(refused.headers['retry-after']).toBe('7');
    expect(refused.headers['set-cookie']).toBeUndefined();

    upstream.respondWith(() => ({ status: 503, headers: json, body: '{"busy":true}' }));
    const busy = await portal.call('GET', `/api/vms/requisitionresults${orgs}&batchid=x`);
    expect(busy.status).toBe(503);
    expect(busy.body.toString()).toBe('{"busy":true}');

    upstream.respondWith(() => ({ status: 500, headers: json, body: '{"oops":1}' }));
    const broken = await portal.call('POST', `/api/vms/candidates${orgs}`, {
      headers: json,
      body: '[{}]',
    });
    expect(broken.status).toBe(500);
    expect(broken.body.toString()).toBe('{"oops":1}');
    expect(upstream.requests).toHaveLength(3);
  });

  it('marks every proxy answer as inert data, whatever the VMS sent', async () => {
    upstream.respondWith(() => ({
      status: 502,
      headers: { 'content-type': 'text/html' },
      body: '<script>alert(1)</script>',
    }));
    const forwarded = await portal.call('GET', `/api/vms/requisitions${orgs}`);
    const refused = await portal.call('GET', '/api/vms/nothing');
    for (const res of [forwarded, refused]) {
      expect(res.headers['content-security-policy']).toBe(
        "default-src 'none'; frame-ancestors 'none'",
      );
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(res.headers['x-frame-options']).toBe('DENY');
      expect(res.headers['cross-origin-resource-policy']).toBe('same-origin');
    }
    expect(forwarded.status).toBe(502);
    expect(forwarded.body.toString()).toBe('<script>alert(1)</script>');
  });

  it('writes one structured log line per forwarded call', async () => {
    const before = portal.logLines().length;
    await portal.call('POST', `/api/vms/requisitionimport?Client_Org_Id=1002&Vendor_Org_Id=9001`, {
      headers: json,
      body: '[{},{}]',
    });
    const lines = portal.logLines().slice(before);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({
      msg: 'vms call',
      operation: 'requisitionimport',
      clientOrgId: 1002,
      vendorOrgId: 9001,
      itemCount: 2,
      status: 202,
      upstreamStatus: 202,
      replayed: false,
    });
    expect(typeof lines[0]?.durationMs).toBe('number');
  });
});

describe('what never reaches the VMS', () => {
  it.each([
    ['GET', '/api/vms/requisitionimport'],
    ['POST', '/api/vms/requisitions'],
    ['DELETE', '/api/vms/candidates'],
    ['PUT', '/api/vms/requisitionimport'],
    ['POST', '/api/vms/engagements'],
    ['GET', '/api/vms/candidatescore'],
    ['GET', '/api/vms/Requisitions'],
    ['GET', '/api/vms/requisitions/'],
    ['GET', '/api/vms/requisitions/extra'],
    ['GET', '/api/vms/https:%2F%2Fevil.example%2F'],
  ])('%s %s is a 404 with the error body', async (method, path) => {
    const res = await portal.call(method, `${path}${orgs}`, {
      headers: json,
      ...(method === 'GET' ? {} : { body: '[{}]' }),
    });
    expect(res.status).toBe(404);
    expect(errorCode(res.json())).toBe('not_found');
    expect(errorMessage(res.json())).toContain('It forwards only POST /api/vms/requisitionimport');
    expect(upstream.requests).toHaveLength(0);
  });

  it('HEAD on an operation is not forwarded', async () => {
    const res = await portal.call('HEAD', `/api/vms/requisitions${orgs}`);
    expect(res.status).toBe(404);
    expect(upstream.requests).toHaveLength(0);
  });

  it.each([
    ['?Vendor_Org_Id=9001', 400, 'missing_parameter', 'Client_Org_Id'],
    ['?Client_Org_Id=1001', 400, 'missing_parameter', 'Vendor_Org_Id'],
    ['?Client_Org_Id=&Vendor_Org_Id=9001', 400, 'missing_parameter', 'Client_Org_Id'],
    ['?Client_Org_Id=abc&Vendor_Org_Id=9001', 400, 'invalid_parameter', 'Client_Org_Id'],
    ['?Client_Org_Id=01001&Vendor_Org_Id=9001', 400, 'invalid_parameter', 'Client_Org_Id'],
    ['?Client_Org_Id=1001&Vendor_Org_Id=9001.5', 400, 'invalid_parameter', 'Vendor_Org_Id'],
    [
      '?Client_Org_Id=1001&Client_Org_Id=666&Vendor_Org_Id=9001',
      400,
      'invalid_parameter',
      'Client_Org_Id',
    ],
    // Other spellings that a lenient VMS could read as the org parameters.
    [
      '?client_org_id=999&Client_Org_Id=1001&Vendor_Org_Id=9001',
      400,
      'invalid_parameter',
      '"client_org_id" could be read as Client_Org_Id',
    ],
    [
      '?Client_Org_Id=1001&Client_Org_Id[]=999&Vendor_Org_Id=9001',
      400,
      'invalid_parameter',
      '"Client_Org_Id[]" could be read as Client_Org_Id',
    ],
    [
      '?Client_Org_Id=1001&Vendor_Org_Id=9001&VENDOR_ORG_ID=999',
      400,
      'invalid_parameter',
      '"VENDOR_ORG_ID" could be read as Vendor_Org_Id',
    ],
    [
      '?Client_Org_Id=1001&Vendor_Org_Id=9001&Vendor_Org_Id%5B0%5D=5',
      400,
      'invalid_parameter',
      '"Vendor_Org_Id[0]" could be read as Vendor_Org_Id',
    ],
    [
      '?Client_Org_Id=1001&Vendor_Org_Id=9001&client-org-id=999',
      400,
      'invalid_parameter',
      '"client-org-id" could be read as Client_Org_Id',
    ],
    [
      '?Client_Org_Id=1001&Vendor_Org_Id=9001&Client%5FOrg%5FId=999',
      400,
      'invalid_parameter',
      'Client_Org_Id is given 2 times',
    ],
    ['?Client_Org_Id=666&Vendor_Org_Id=9001', 403, 'org_not_permitted', 'Client_Org_Id'],
    ['?Client_Org_Id=1001&Vendor_Org_Id=9002', 403, 'org_not_permitted', 'Vendor_Org_Id'],
  ])('orgs %s → %i %s naming %s', async (query, status, code, parameter) => {
    for (const [method, path, body] of [
      ['GET', '/api/vms/requisitions', undefined],
      ['POST', '/api/vms/candidates', '[{}]'],
    ] as const) {
      const res = await portal.call(method, `${path}${query}`, { headers: json, body });
      expect(res.status).toBe(status);
      expect(errorCode(res.json())).toBe(code);
      expect(errorMessage(res.json())).toContain(parameter);
    }
    expect(upstream.requests).toHaveLength(0);
  });

  it.each([
    ['', 'The body is empty'],
    ['[{"a":1}', 'The body is not valid JSON'],
    ['{"a":"1"}', 'it is an object'],
    ['[]', 'empty array'],
    [
      '[{},{},{},{}]',
      'The body has 4 requisitions, more than the 3 one batch may hold (VMS_MAX_BATCH)',
    ],
    [
      '[{}, {}, "x"]',
      'Every item of the array must be a requisition object ({ "field": "value", … }), but item 3 is a string;',
    ],
    ['[{}, null]', 'item 2 is null'],
    ['[[{}]]', 'item 1 is an array'],
  ])('body %j is refused with 400 invalid_body', async (body, message) => {
    const res = await portal.call('POST', `/api/vms/requisitionimport${orgs}`, {
      headers: json,
      body,
    });
    expect(res.status).toBe(400);
    expect(errorCode(res.json())).toBe('invalid_body');
    expect(errorMessage(res.json())).toContain(message);
    expect(upstream.requests).toHaveLength(0);
  });

  it('refuses a body that is not declared as JSON with 415', async () => {
    const declarations: Record<string, string>[] = [{ 'content-type': 'text/plain' }, {}];
    for (const headers of declarations) {
      const res = await portal.call('POST', `/api/vms/requisitionimport${orgs}`, {
        headers,
        body: '[{}]',
      });
      expect(res.status).toBe(415);
      expect(errorCode(res.json())).toBe('unsupported_media_type');
    }
    expect(upstream.requests).toHaveLength(0);
  });

  it('refuses requests addressed to a foreign host name (DNS rebinding)', async () => {
    const res = await portal.call('GET', `/api/vms/requisitions${orgs}`, {
      headers: { host: 'evil.example:8787' },
    });
    expect(res.status).toBe(403);
    expect(errorCode(res.json())).toBe('host_not_allowed');
    expect(upstream.requests).toHaveLength(0);
  });
});

describe('failing clearly', () => {
  it('answers 413 to a body over VMS_BODY_LIMIT_BYTES without forwarding it', async () => {
    const small = await startTestPortal(testConfig(upstream.url, { VMS_BODY_LIMIT_BYTES: '2048' }));
    portals.push(small);
    const body = JSON.stringify([{ text: 'x'.repeat(3000) }]);
    const res = await small.call('POST', `/api/vms/requisitionimport${orgs}`, {
      headers: json,
      body,
    });
    expect(res.status).toBe(413);
    expect(errorCode(res.json())).toBe('body_too_large');
    expect(errorMessage(res.json())).toContain('VMS_BODY_LIMIT_BYTES');
    expect(upstream.requests).toHaveLength(0);
  });

  it('answers 504 when the VMS is slower than VMS_TIMEOUT_MS', async () => {
    const impatient = await startTestPortal(testConfig(upstream.url, { VMS_TIMEOUT_MS: '200' }));
    portals.push(impatient);
    upstream.respondWith(() => ({ status: 202, headers: json, body: '{}', delayMs: 5000 }));
    const started = Date.now();
    const res = await impatient.call('POST', `/api/vms/candidates${orgs}`, {
      headers: json,
      body: '[{}]',
    });
    // undici's timers tick about twice a second, so a short timeout fires within ~1 s.
    expect(Date.now() - started).toBeLessThan(2500);
    expect(res.status).toBe(504);
    expect(errorCode(res.json())).toBe('upstream_timeout');
    expect(errorMessage(res.json())).toContain('did not answer within 200 ms');
    expect(upstream.requests).toHaveLength(1);
    expect(impatient.logLines().at(-1)).toMatchObject({ status: 504, upstreamStatus: null });
  });

  it('answers 502 naming the host when the VMS cannot be reached', async () => {
    const port = await freePort();
    const stranded = await startTestPortal(testConfig(`http://127.0.0.1:${port}/`));
    portals.push(stranded);
    const res = await stranded.call('GET', `/api/vms/requisitions${orgs}`);
    expect(res.status).toBe(502);
    expect(errorCode(res.json())).toBe('upstream_unreachable');
    expect(errorMessage(res.json())).toContain(`127.0.0.1:${port}`);
    expect(errorMessage(res.json())).toContain('connection refused');
    // Exactly one line for the failed call, and no second warning from the forwarding layer.
    const lines = stranded.logLines();
    expect(lines.filter((line) => line.msg === 'vms call')).toHaveLength(1);
    expect(lines.filter((line) => Number(line.level) >= 40)).toEqual([]);
  });

  it('answers 429 with the error body over PORTAL_RATE_LIMIT_PER_MINUTE', async () => {
    const limited = await startTestPortal(
      testConfig(upstream.url, { PORTAL_RATE_LIMIT_PER_MINUTE: '2' }),
    );
    portals.push(limited);
    const statuses: number[] = [];
    for (let i = 0; i < 3; i += 1) {
      statuses.push((await limited.call('GET', `/api/vms/requisitions${orgs}`)).status);
    }
    expect(statuses).toEqual([200, 200, 429]);
    const first = limited.responses.at(0);
    const last = limited.responses.at(-1);
    expect(errorCode(JSON.parse(String(last?.body)))).toBe('rate_limited');
    expect(last?.headers['retry-after']).toBeDefined();
    expect(last?.headers['content-security-policy']).toContain("default-src 'none'");
    expect(first?.headers['x-ratelimit-remaining']).toBeUndefined();
    expect(upstream.requests).toHaveLength(2);
  });
});

describe('secrets', () => {
  it('never shows the key, the secret or a signature in a response or a log line', async () => {
    const signatures = upstream.requests.map((r) => String(r.headers['x-signature']));
    // Make sure this file's upstream saw signed calls; the list is re-filled by this test.
    const res = await portal.call('GET', `/api/vms/requisitions${orgs}`);
    expect(res.status).toBe(200);
    signatures.push(...upstream.requests.map((r) => String(r.headers['x-signature'])));
    expect(signatures.length).toBeGreaterThan(0);

    const secrets = [testCredentials.apiKey, testCredentials.apiSecret, ...signatures];
    const everything = portals
      .flatMap((p) => [
        p.rawLog(),
        ...p.responses.map((r) => `${JSON.stringify(r.headers)}\n${r.body.toString('utf8')}`),
      ])
      .join('\n');
    expect(everything.length).toBeGreaterThan(1000);
    for (const secret of secrets) expect(everything).not.toContain(secret);
  });
});
