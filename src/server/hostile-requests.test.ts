import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { apiErrorBodySchema } from '@/domain/api-error';
import {
  requisitionImportPath,
  startCaptureUpstream,
  startTestPortal,
  testConfig,
  type CaptureUpstream,
  type TestPortal,
} from '@/test-support/capture-upstream';
import { trickleRequest } from '@/test-support/trickle';

// Requests built to hurt the server get a clear 4xx, never a 500 or a
// connection held open forever.

const path = requisitionImportPath;
const json = { 'content-type': 'application/json' };

let upstream: CaptureUpstream;
let portal: TestPortal;

beforeAll(async () => {
  upstream = await startCaptureUpstream();
  portal = await startTestPortal(testConfig(upstream.url, { PORTAL_REQUEST_TIMEOUT_MS: '1000' }));
});

afterAll(async () => {
  await portal.close();
  await upstream.close();
});

beforeEach(() => {
  upstream.requests.length = 0;
});

describe('hostile bodies', () => {
  it('forwards an item holding a 100,000-deep value as it is (items are for the VMS to judge)', async () => {
    const deep = `[{"titlerole":${'['.repeat(100_000)}${']'.repeat(100_000)}}]`;
    const res = await portal.call('POST', path, { headers: json, body: deep });
    expect(res.status).toBe(202);
    expect(upstream.requests[0]?.body.toString()).toBe(deep);
  });

  it('refuses a 100,000-deep array as the body itself with 400 invalid_body', async () => {
    const deep = `${'['.repeat(100_000)}${']'.repeat(100_000)}`;
    const res = await portal.call('POST', path, { headers: json, body: deep });
    expect(res.status).toBe(400);
    expect(apiErrorBodySchema.parse(res.json()).error.message).toContain('item 1 is an array');
    expect(upstream.requests).toHaveLength(0);
  });

  it('forwards an item with a __proto__ key as the data it is', async () => {
    const body = '[{"__proto__":{"polluted":"yes"},"titlerole":"Welder"}]';
    const res = await portal.call('POST', path, { headers: json, body });
    expect(res.status).toBe(202);
    expect(upstream.requests[0]?.body.toString()).toBe(body);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});

describe('slow clients', () => {
  it('closes a connection whose body trickles in slower than PORTAL_REQUEST_TIMEOUT_MS', async () => {
    const { elapsedMs, answer } = await trickleRequest(portal.url, [
      `POST ${path} HTTP/1.1`,
      'Host: 127.0.0.1',
      'Content-Type: application/json',
    ]);
    expect(elapsedMs).toBeLessThan(5000);
    expect(answer).toMatch(/^HTTP\/1\.1 408/);
    expect(upstream.requests).toHaveLength(0);
  });
});
