import { createHash } from 'node:crypto';
import { createServer } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  startCaptureUpstream,
  testConfig,
  testCredentials,
  type CaptureUpstream,
} from '@/test-support/capture-upstream';
import { newCallNote } from './call-note';
import { forward, type ForwardSteps } from './forward-call';
import { closeChannels, openChannel, type Channel } from './proxy-channel';
import { AnswerTranslator } from './translate-answer';
import { callVms, signCall } from './vms-call';

/*
 * The proxy's sign and send steps against a real upstream on a free port: what reaches the VMS
 * (the bytes as sent, headers built from nothing, a fresh signature), what comes back (an echoed
 * credential replaced), and how a call without an answer is told apart.
 */

let upstream: CaptureUpstream;
let channel: Channel;
const silentLog = { warn: () => {} } as never;
const steps: ForwardSteps = { translator: new AnswerTranslator(silentLog), tap: null };

beforeAll(async () => {
  upstream = await startCaptureUpstream();
  const connection = testConfig(`${upstream.url}vms/`).connections[0];
  if (!connection) throw new Error('testConfig has a connection');
  channel = openChannel(connection, `${upstream.url}vms/`);
});

afterAll(async () => {
  await closeChannels(new Map([['test', channel]]));
  await upstream.close();
});

describe('signCall', () => {
  it('signs with the key, the secret and the Unix seconds, under the base path', () => {
    const now = Date.UTC(2026, 10, 29, 12, 0, 5, 700);
    const signed = signCall(channel, 'requisitions?Client_Org_Id=1001', undefined, now);
    const seconds = Math.floor(now / 1000);
    expect(signed.signature).toBe(
      createHash('sha256')
        .update(`${testCredentials.apiKey}${testCredentials.apiSecret}${seconds}`)
        .digest('hex'),
    );
    expect(signed.path).toBe('/vms/requisitions?Client_Org_Id=1001');
    expect(signed.headers).toEqual({
      accept: 'application/json',
      'x-api-key': testCredentials.apiKey,
      'x-signature': signed.signature,
    });
    expect(signCall(channel, 'x', Buffer.from('[]'), now).headers['content-type']).toBe(
      'application/json',
    );
  });
});

describe('callVms', () => {
  it('sends the bytes as they came and reads the answer, an echoed secret replaced', async () => {
    upstream.respondWith((captured) => ({
      status: 202,
      headers: { 'content-type': 'application/json', 'x-request-id': 'r-1', 'set-cookie': 'a=b' },
      body: `{"batchid":"b-1","echo":"${testCredentials.apiSecret}","sig":"${String(captured.headers['x-signature'])}"}`,
    }));
    const body = Buffer.from('[{"titlerole":"Zürich fitter"}]');
    const note = newCallNote('requisitionimport');
    const answer = await callVms(
      channel,
      'POST',
      'requisitionimport?Client_Org_Id=1001',
      body,
      5000,
      note,
    );
    const seen = upstream.requests.at(-1);
    expect(seen?.path).toBe('/vms/requisitionimport');
    expect(seen?.query).toBe('?Client_Org_Id=1001');
    expect(seen?.body.equals(body)).toBe(true);
    expect(answer.outcome.status).toBe(202);
    const text = answer.outcome.body.toString('utf8');
    expect(text).toContain('"batchid":"b-1"');
    expect(text).not.toContain(testCredentials.apiSecret);
    expect(text).not.toContain(answer.signature);
    expect(answer.url).toBe(`${upstream.url}vms/requisitionimport?Client_Org_Id=1001`);
    expect(note.signature).toBe(String(seen?.headers['x-signature']));
    expect(note.answerRedacted).toBe(true);
    expect(note.upstreamHeaders).toMatchObject({
      'content-type': 'application/json',
      'x-request-id': 'r-1',
    });
    expect(note.upstreamHeaders).not.toHaveProperty('set-cookie');
    expect(note.firstByteAt).toBeGreaterThan(0);
  });
});

describe('forward', () => {
  it('is uncertain when the VMS took the call and never answered in time', async () => {
    upstream.respondWith(() => ({ hang: true }));
    const result = await forward(
      steps,
      channel,
      request('POST'),
      'requisitionimport',
      '',
      Buffer.from('[{}]'),
      200,
      undefined,
    );
    expect(result.kind).toBe('uncertain');
    if (result.kind !== 'answered') expect(result.failure.code).toBe('upstream_timeout');
  });

  it('is not sent when no connection could be made', async () => {
    const closed = await freePort();
    const connection = testConfig(`http://127.0.0.1:${closed}/`).connections[0];
    if (!connection) throw new Error('testConfig has a connection');
    const nowhere = openChannel(connection, `http://127.0.0.1:${closed}/`);
    try {
      const result = await forward(
        steps,
        nowhere,
        request('POST'),
        'requisitionimport',
        '',
        Buffer.from('[{}]'),
        2000,
        undefined,
      );
      expect(result.kind).toBe('not_sent');
    } finally {
      await closeChannels(new Map([['nowhere', nowhere]]));
    }
  });
});

/** The parts of a request forward reads, for a call in the portal's own dialect. */
function request(method: string) {
  return { method, id: 'req-1', log: silentLog } as never;
}

/** A port nothing listens on: bound, then closed. */
function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}
