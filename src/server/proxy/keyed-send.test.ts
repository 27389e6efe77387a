import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  startCaptureUpstream,
  testConfig,
  type CaptureUpstream,
} from '@/test-support/capture-upstream';
import { openPortalStores, type PortalStores } from '@/test-support/portal-stores';
import { CallTracker } from './call-tracker';
import { forward, type ForwardSteps } from './forward-call';
import { IdempotencyGate } from './idempotency';
import { CallFingerprint, callFingerprint } from './idempotency-key';
import { sendKeyed, sendUnkeyed, stillWaiting, type KeyedSend } from './keyed-send';
import { closeChannels, openChannel, type Channel } from './proxy-channel';
import { AnswerTranslator } from './translate-answer';

/*
 * The proxy's key step on a real SQLite database and a real upstream: a keyed batch reaches the
 * VMS once and its repeat gets the remembered answer; the same key with other bytes is refused;
 * a key recorded with the earlier fingerprint still answers its retry; an unkeyed call goes
 * every time.
 */

const silentLog = { warn: () => {} } as never;
const steps: ForwardSteps = { translator: new AnswerTranslator(silentLog), tap: null };
const url = '/api/vms/requisitionimport?Client_Org_Id=1001&Vendor_Org_Id=9001';
let upstream: CaptureUpstream;
let channel: Channel;
let dir: string;
let stores: PortalStores;
let gate: IdempotencyGate;
let calls: CallTracker;

beforeAll(async () => {
  upstream = await startCaptureUpstream();
  const connection = testConfig(upstream.url).connections[0];
  if (!connection) throw new Error('testConfig has a connection');
  channel = openChannel(connection, upstream.url);
});

afterAll(async () => {
  await closeChannels(new Map([['test', channel]]));
  await upstream.close();
});

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'keyed-send-'));
  stores = await openPortalStores({ portalDb: join(dir, 'portal.db'), databaseUrl: null });
  gate = new IdempotencyGate(stores.idempotencyKeys);
  calls = new CallTracker(() => false);
  upstream.requests.length = 0;
});

afterEach(async () => {
  await stores.close();
  rmSync(dir, { recursive: true, force: true });
});

function keyed(key: string, body: string): KeyedSend {
  const bytes = Buffer.from(body);
  const request = { method: 'POST', id: 'req', log: silentLog } as never;
  return {
    channel,
    calls,
    gate,
    key,
    fingerprint: new CallFingerprint('POST', `${channel.connection.name} ${url}`, bytes),
    send: (waitMs) =>
      forward(steps, channel, request, 'requisitionimport', '', bytes, waitMs, undefined),
    draining: () => false,
    lateAnswer: () => {},
  };
}

describe('sendKeyed', () => {
  it('sends a batch once; its repeat is the remembered answer, the VMS not asked again', async () => {
    const first = await sendKeyed(keyed('k-1', '[{"titlerole":"Welder"}]'));
    expect(first.kind).toBe('forwarded');
    const again = await sendKeyed(keyed('k-1', '[{"titlerole":"Welder"}]'));
    expect(again.kind).toBe('replayed');
    if (again.kind === 'replayed') expect(again.answer.status).toBe(202);
    expect(upstream.requests).toHaveLength(1);
    const record = await stores.idempotencyKeys.find('k-1');
    expect(record?.state).toBe('settled');
  });

  it('refuses the same key with other bytes, sending nothing', async () => {
    await sendKeyed(keyed('k-2', '[{"titlerole":"Welder"}]'));
    const other = await sendKeyed(keyed('k-2', '[{"titlerole":"Fitter"}]'));
    expect(other.kind).toBe('conflict');
    expect(upstream.requests).toHaveLength(1);
  });

  it('answers the retry of a key recorded with the earlier fingerprint', async () => {
    const body = '[{"titlerole":"Welder"}]';
    const earlier = callFingerprint('POST', `${channel.connection.name} ${url}`, Buffer.from(body));
    await stores.idempotencyKeys.insertInFlight('k-3', earlier, Date.now());
    await stores.idempotencyKeys.settle(
      'k-3',
      { status: 202, headers: { 'content-type': 'application/json' }, body: Buffer.from('{}') },
      Date.now(),
    );
    expect((await sendKeyed(keyed('k-3', body))).kind).toBe('replayed');
    expect((await sendKeyed(keyed('k-3', '[{"titlerole":"Fitter"}]'))).kind).toBe('conflict');
    expect(upstream.requests).toHaveLength(0);
  });
});

describe('sendUnkeyed', () => {
  it('sends every call, tracked while it is at the VMS', async () => {
    const call = keyed('unused', '[{"titlerole":"Welder"}]');
    const pending = sendUnkeyed(call);
    expect(calls.inFlight).toBe(1);
    expect((await pending).kind).toBe('forwarded');
    expect((await sendUnkeyed(call)).kind).toBe('forwarded');
    expect(upstream.requests).toHaveLength(2);
    expect(calls.inFlight).toBe(0);
  });
});

describe('stillWaiting', () => {
  it('tells the first send that the portal waits on, and a repeat that the first is unanswered', () => {
    const first = JSON.parse(stillWaiting(channel, true).body.toString('utf8')) as {
      error: { code: string; message: string };
    };
    expect(first.error.code).toBe('upstream_timeout');
    expect(first.error.message).toContain('VMS_TIMEOUT_MS');
    const repeat = stillWaiting(channel, false);
    expect(repeat.status).toBe(504);
    expect(repeat.body.toString('utf8')).toContain('still not answered the first send');
  });
});
