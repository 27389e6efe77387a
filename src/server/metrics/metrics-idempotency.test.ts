import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  requisitionImportPath,
  startCaptureUpstream,
  startTestPortal,
  testConfig,
  type CaptureUpstream,
  testCredentials,
  type TestPortal,
} from '@/test-support/capture-upstream';
import { parseScrape, sampleValue } from './scrape-text';

/*
 * The idempotency outcomes a plain send never shows, each made for real against a VMS that
 * answers late or drops the connection; what the VMS received is counted beside them.
 */

const token = 'metrics-token-idempotency-7c1e';
const batch = '[{"clientinternalreq":"REQ-1"},{"clientinternalreq":"REQ-2"}]';
const accepted = {
  status: 202,
  headers: { 'content-type': 'application/json' },
  body: '{"batchid":"rb_1","received":2}',
};

let upstream: CaptureUpstream;
let portal: TestPortal;

function send(key: string) {
  return portal.call('POST', requisitionImportPath, {
    headers: { 'content-type': 'application/json', 'idempotency-key': key },
    body: batch,
  });
}

async function outcomes(): Promise<Record<string, number | undefined>> {
  const answer = await portal.call('GET', '/metrics', {
    headers: { authorization: `Bearer ${token}` },
  });
  expect(answer.status).toBe(200);
  const text = answer.body.toString('utf8');
  // The VMS's key and secret, the token: nowhere in what a scraper reads.
  for (const secret of [testCredentials.apiKey, testCredentials.apiSecret, token]) {
    expect(text).not.toContain(secret);
  }
  const scrape = parseScrape(text);
  return Object.fromEntries(
    ['forwarded', 'replayed', 'waiting', 'unknown'].map((outcome) => [
      outcome,
      sampleValue(scrape, 'vms_portal_idempotency_outcomes_total', { outcome }),
    ]),
  );
}

beforeEach(async () => {
  upstream = await startCaptureUpstream();
  portal = await startTestPortal(
    testConfig(upstream.url, { METRICS_TOKEN: token, VMS_TIMEOUT_MS: '300' }),
  );
});

afterEach(async () => {
  await portal.close();
  await upstream.close();
});

describe('idempotency outcomes', () => {
  it('counts a late answer as forwarded once, each 504 as waiting, and its resend as replayed', async () => {
    upstream.respondWith(() => ({ ...accepted, delayMs: 1000 }));
    expect((await send('late-1')).status).toBe(504);
    expect((await send('late-1')).status).toBe(504);
    await new Promise((resolve) => setTimeout(resolve, 1200));
    expect((await send('late-1')).status).toBe(202);
    expect(upstream.requests).toHaveLength(1);
    expect(await outcomes()).toEqual({
      forwarded: 1,
      replayed: 1,
      waiting: 2,
      unknown: undefined,
    });
  });

  it('counts a send whose answer never came, and its refused resend, as unknown', async () => {
    upstream.respondWith(() => ({ reset: true }));
    expect((await send('lost-1')).status).toBe(409);
    expect((await send('lost-1')).status).toBe(409);
    expect(upstream.requests).toHaveLength(1);
    expect(await outcomes()).toEqual({
      forwarded: 1,
      replayed: undefined,
      waiting: undefined,
      unknown: 2,
    });
  });

  it('counts nothing for a send without a key', async () => {
    const plain = await portal.call('POST', requisitionImportPath, {
      headers: { 'content-type': 'application/json' },
      body: batch,
    });
    expect(plain.status).toBe(202);
    expect(await outcomes()).toEqual({
      forwarded: undefined,
      replayed: undefined,
      waiting: undefined,
      unknown: undefined,
    });
  });
});
