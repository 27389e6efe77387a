import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
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

// A batch reaches the VMS once even when its answer is late, never comes, or
// the portal restarts in between. Every test counts what the upstream actually received.

const path = requisitionImportPath;
const batch = '[{"clientinternalreq":"REQ-1"},{"clientinternalreq":"REQ-2"}]';
const accepted = {
  status: 202,
  headers: { 'content-type': 'application/json' },
  body: '{"batchid":"rb_late","received":2}',
};

let dir: string;
let upstream: CaptureUpstream;
const portals: TestPortal[] = [];

async function portal(env: NodeJS.ProcessEnv = {}): Promise<TestPortal> {
  const started = await startTestPortal(
    testConfig(upstream.url, { PORTAL_DB: join(dir, 'portal.db'), ...env }),
  );
  portals.push(started);
  return started;
}

function send(to: TestPortal, key: string, body = batch) {
  return to.call('POST', path, {
    headers: { 'content-type': 'application/json', 'idempotency-key': key },
    body,
  });
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function errorCode(response: { json(): unknown }): string {
  return apiErrorBodySchema.parse(response.json()).error.code;
}

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'portal-lost-'));
  upstream = await startCaptureUpstream();
});

afterEach(async () => {
  for (const running of portals.splice(0)) await running.close();
  await upstream.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('a keyed batch whose answer is late', () => {
  it('answers 504 in time, keeps waiting, and settles the key with the late answer', async () => {
    upstream.respondWith(() => ({ ...accepted, delayMs: 700 }));
    const impatient = await portal({ VMS_TIMEOUT_MS: '200', VMS_LATE_ANSWER_MS: '5000' });

    const first = await send(impatient, 'late-1');
    expect(first.status).toBe(504);
    const message = apiErrorBodySchema.parse(first.json()).error.message;
    expect(message).toContain('It may have received the batch');
    expect(message).toContain('Send the same batch again, unchanged');

    // A retry while the VMS is still working waits for the same answer instead of sending (and
    // says 504 again if it is not there within VMS_TIMEOUT_MS).
    let whileWaiting = await send(impatient, 'late-1');
    for (let attempt = 0; whileWaiting.status === 504 && attempt < 40; attempt += 1) {
      expect(upstream.requests).toHaveLength(1);
      whileWaiting = await send(impatient, 'late-1');
    }
    expect(whileWaiting.status).toBe(202);
    expect(whileWaiting.body.toString()).toBe(accepted.body);
    expect(whileWaiting.headers[REPLAYED_HEADER]).toBe('true');

    const afterwards = await send(impatient, 'late-1');
    expect(afterwards.status).toBe(202);
    expect(afterwards.headers[REPLAYED_HEADER]).toBe('true');
    expect(upstream.requests).toHaveLength(1);
    expect(impatient.logLines().some((line) => line.msg === 'vms late answer')).toBe(true);
  });

  it('tells a retry that is still waiting so, with 504, and still sends nothing', async () => {
    upstream.respondWith(() => ({ ...accepted, delayMs: 1500 }));
    const impatient = await portal({ VMS_TIMEOUT_MS: '200', VMS_LATE_ANSWER_MS: '5000' });
    expect((await send(impatient, 'late-2')).status).toBe(504);
    const retry = await send(impatient, 'late-2');
    expect(retry.status).toBe(504);
    expect(apiErrorBodySchema.parse(retry.json()).error.message).toContain(
      'still not answered the first send',
    );
    await sleep(1500);
    expect((await send(impatient, 'late-2')).status).toBe(202);
    expect(upstream.requests).toHaveLength(1);
  });

  it('settles the key after a restart when the late answer came before it', async () => {
    upstream.respondWith(() => ({ ...accepted, delayMs: 400 }));
    const before = await portal({ VMS_TIMEOUT_MS: '100' });
    expect((await send(before, 'late-3')).status).toBe(504);
    await sleep(600);
    await before.close();
    portals.splice(portals.indexOf(before), 1);

    const after = await portal({ VMS_TIMEOUT_MS: '100' });
    const retry = await send(after, 'late-3');
    expect(retry.status).toBe(202);
    expect(retry.headers[REPLAYED_HEADER]).toBe('true');
    expect(upstream.requests).toHaveLength(1);
  });
});

describe('a keyed batch whose answer never comes', () => {
  it('is never forwarded again: 409 outcome_unknown once the portal stops waiting', async () => {
    upstream.respondWith(() => ({ hang: true }));
    const impatient = await portal({ VMS_TIMEOUT_MS: '150', VMS_LATE_ANSWER_MS: '400' });
    expect((await send(impatient, 'never-1')).status).toBe(504);
    // undici's timers are coarse (about half a second), so the portal gives up at 400 ms or a
    // little later; until then a retry waits and is told 504 again, and is never forwarded.
    let retry = await send(impatient, 'never-1');
    for (let attempt = 0; retry.status === 504 && attempt < 40; attempt += 1) {
      expect(upstream.requests).toHaveLength(1);
      await sleep(100);
      retry = await send(impatient, 'never-1');
    }
    expect(retry.status).toBe(409);
    expect(errorCode(retry)).toBe('outcome_unknown');
    expect(apiErrorBodySchema.parse(retry.json()).error.message).toContain(
      'search the Requisitions list for their client internal req',
    );
    expect(upstream.requests).toHaveLength(1);
  });

  it('is outcome unknown after a connection reset, since the VMS may have read it', async () => {
    upstream.respondWith(() => ({ reset: true }));
    const running = await portal();
    const first = await send(running, 'reset-1');
    expect(first.status).toBe(409);
    expect(errorCode(first)).toBe('outcome_unknown');
    expect(errorCode(await send(running, 'reset-1'))).toBe('outcome_unknown');
    expect(upstream.requests).toHaveLength(1);
  });

  it('is outcome unknown after a restart of the portal while it was in flight', async () => {
    upstream.respondWith(() => ({ hang: true }));
    const before = await portal({ VMS_TIMEOUT_MS: '150' });
    expect((await send(before, 'restart-1')).status).toBe(504);
    await before.close(); // stops waiting for the VMS
    portals.splice(portals.indexOf(before), 1);

    const after = await portal({ VMS_TIMEOUT_MS: '150' });
    const retry = await send(after, 'restart-1');
    expect(retry.status).toBe(409);
    expect(errorCode(retry)).toBe('outcome_unknown');
    expect(upstream.requests).toHaveLength(1);

    // A new batch (a new key) still goes.
    upstream.respondWith(() => accepted);
    expect((await send(after, 'restart-2')).status).toBe(202);
    expect(upstream.requests).toHaveLength(2);
  });

  it('forwards a retry for real when the first call certainly never reached the VMS', async () => {
    const closed = await startCaptureUpstream();
    const deadUrl = closed.url;
    await closed.close();
    const stranded = await startTestPortal(
      testConfig(deadUrl, { PORTAL_DB: join(dir, 'portal.db') }),
    );
    portals.push(stranded);
    const first = await send(stranded, 'refused-1');
    expect(first.status).toBe(502);
    expect(errorCode(first)).toBe('upstream_unreachable');
    // Still refused, but forwarded again rather than refused as unknown.
    expect(errorCode(await send(stranded, 'refused-1'))).toBe('upstream_unreachable');
  });
});
