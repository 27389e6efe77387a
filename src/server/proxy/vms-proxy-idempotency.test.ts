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
import { REPLAYED_HEADER } from './vms-proxy';

const path = requisitionImportPath;
const batch = '[{"titlerole":"Welder"},{"titlerole":"Fitter"}]';

let upstream: CaptureUpstream;
let portal: TestPortal;
let batchNumber = 0;

beforeAll(async () => {
  upstream = await startCaptureUpstream();
  portal = await startTestPortal(testConfig(upstream.url));
});

afterAll(async () => {
  await portal.close();
  await upstream.close();
});

beforeEach(() => {
  upstream.requests.length = 0;
  // A fresh batch id per upstream call tells a replay from a second send.
  upstream.respondWith(() => {
    batchNumber += 1;
    return {
      status: 202,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ batchid: `b-${batchNumber}`, received: 2 }),
    };
  });
});

function send(key: string, body = batch, signal?: AbortSignal) {
  return portal.call('POST', path, {
    headers: { 'content-type': 'application/json', 'idempotency-key': key },
    body,
    signal,
  });
}

describe('Idempotency-Key', () => {
  it('replays the remembered answer to a repeat without contacting the VMS', async () => {
    const first = await send('0b8f1c56-5f4e-4a55-9d3c-1f9e7d6a2b01');
    const again = await send('0b8f1c56-5f4e-4a55-9d3c-1f9e7d6a2b01');

    expect(upstream.requests).toHaveLength(1);
    expect(first.status).toBe(202);
    expect(first.headers[REPLAYED_HEADER]).toBeUndefined();
    expect(again.status).toBe(202);
    expect(again.body.equals(first.body)).toBe(true);
    expect(again.headers['content-type']).toBe('application/json');
    expect(again.headers[REPLAYED_HEADER]).toBe('true');

    const replayLine = portal.logLines().at(-1);
    expect(replayLine).toMatchObject({ msg: 'vms call', replayed: true, upstreamStatus: null });
  });

  it('sends different keys separately', async () => {
    await send('key-a');
    await send('key-b');
    expect(upstream.requests).toHaveLength(2);
  });

  it('makes a concurrent duplicate wait for the call in flight and share its answer', async () => {
    upstream.respondWith(() => ({
      status: 202,
      headers: { 'content-type': 'application/json' },
      body: '{"batchid":"slow","received":2}',
      delayMs: 150,
    }));
    const [a, b, c] = await Promise.all([send('key-c'), send('key-c'), send('key-c')]);
    expect(upstream.requests).toHaveLength(1);
    for (const res of [a, b, c]) {
      expect(res.status).toBe(202);
      expect(res.body.toString()).toBe('{"batchid":"slow","received":2}');
    }
    expect([a, b, c].filter((res) => res.headers[REPLAYED_HEADER] === 'true')).toHaveLength(2);
  });

  it('refuses the same key with a different body, operation or org with 409', async () => {
    await send('key-d');
    const otherBody = await send('key-d', '[{"titlerole":"Painter"}]');
    expect(otherBody.status).toBe(409);
    expect(apiErrorBodySchema.parse(otherBody.json()).error.code).toBe('idempotency_conflict');

    const otherOrg = await portal.call(
      'POST',
      '/api/vms/requisitionimport?Client_Org_Id=1002&Vendor_Org_Id=9001',
      { headers: { 'content-type': 'application/json', 'idempotency-key': 'key-d' }, body: batch },
    );
    expect(otherOrg.status).toBe(409);
    expect(upstream.requests).toHaveLength(1);
  });

  it('does not remember a failed send: a retry goes to the VMS for real', async () => {
    upstream.respondWith(() => ({ status: 500, body: 'down' }));
    const failed = await send('key-e');
    expect(failed.status).toBe(500);

    upstream.respondWith(() => ({ status: 202, body: '{"batchid":"ok","received":2}' }));
    const retried = await send('key-e');
    expect(retried.status).toBe(202);
    expect(retried.headers[REPLAYED_HEADER]).toBeUndefined();
    expect(upstream.requests).toHaveLength(2);

    const third = await send('key-e');
    expect(third.headers[REPLAYED_HEADER]).toBe('true');
    expect(upstream.requests).toHaveLength(2);
  });

  it('remembers the answer even when the browser gave up waiting for it', async () => {
    upstream.respondWith(() => ({
      status: 202,
      headers: { 'content-type': 'application/json' },
      body: '{"batchid":"late","received":2}',
      delayMs: 300,
    }));
    await expect(send('key-f', batch, AbortSignal.timeout(50))).rejects.toThrow();
    await new Promise((resolve) => setTimeout(resolve, 400));

    const retried = await send('key-f');
    expect(retried.status).toBe(202);
    expect(retried.body.toString()).toBe('{"batchid":"late","received":2}');
    expect(retried.headers[REPLAYED_HEADER]).toBe('true');
    expect(upstream.requests).toHaveLength(1);
  });

  it('refuses a malformed key with 400 before anything is sent', async () => {
    const res = await send('not a key!');
    expect(res.status).toBe(400);
    expect(apiErrorBodySchema.parse(res.json()).error.message).toContain('Idempotency-Key');
    expect(upstream.requests).toHaveLength(0);
  });
});
