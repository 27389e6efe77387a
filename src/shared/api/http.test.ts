import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { RequestFailure, failureFromResponse, requestJson, requestText } from './http';

/**
 * requestJson against a real HTTP server on a free port: each route answers the way a VMS or the
 * proxy might, and each failure must reach the user as a RequestFailure with a useful message.
 */
let server: Server;
let base = '';
const received: Array<{ method: string; headers: Record<string, unknown>; body: string }> = [];

beforeAll(async () => {
  server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString()));
    request.on('end', () => {
      received.push({ method: request.method ?? '', headers: request.headers, body });
      const json = (status: number, value: unknown) => {
        response.writeHead(status, { 'content-type': 'application/json' });
        response.end(JSON.stringify(value));
      };
      switch (request.url) {
        case '/accepted':
          return json(202, { batchid: 'rb_1', received: 2 });
        case '/refused':
          return json(403, {
            error: {
              code: 'org_not_permitted',
              message: 'Client org 7 is not one this portal may act for.',
              details: [],
            },
          });
        case '/plain-500':
          response.writeHead(500, { 'content-type': 'text/plain' });
          return response.end('upstream exploded');
        case '/not-json':
          response.writeHead(200, { 'content-type': 'text/html' });
          return response.end('<html>login</html>');
        case '/wrong-shape':
          return json(200, { batch: 'x' });
        case '/silent':
          return; // never answers
        default:
          return json(404, {});
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

const accepted = z.object({ batchid: z.string(), received: z.number() });

async function failure(promise: Promise<unknown>): Promise<RequestFailure> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof RequestFailure) return error;
    throw error;
  }
  throw new Error('expected a failure');
}

describe('requestJson', () => {
  it('sends JSON with its headers and parses the answer', async () => {
    const answer = await requestJson(`${base}/accepted`, accepted, 'Sending', {
      method: 'POST',
      body: [{ a: '1' }],
      headers: { 'Idempotency-Key': 'k-1' },
    });
    expect(answer).toMatchObject({ status: 202, data: { batchid: 'rb_1', received: 2 } });
    const last = received[received.length - 1];
    expect(last?.body).toBe('[{"a":"1"}]');
    expect(last?.headers['idempotency-key']).toBe('k-1');
    expect(last?.headers['content-type']).toBe('application/json');
  });

  it('gives the server’s own message for an error body', async () => {
    const error = await failure(requestJson(`${base}/refused`, accepted, 'Sending'));
    expect(error).toMatchObject({ kind: 'http', status: 403, code: 'org_not_permitted' });
    expect(error.message).toBe('Client org 7 is not one this portal may act for.');
  });

  it('describes an error without our body, with what to do', async () => {
    const error = await failure(requestJson(`${base}/plain-500`, accepted, 'Sending the batch'));
    expect(error.status).toBe(500);
    expect(error.message).toMatch(
      /^Sending the batch failed: the server answered 500 Internal Server Error saying “upstream exploded”\. .*try again/,
    );
  });

  it('says when the answer is not JSON or not the expected shape', async () => {
    const notJson = await failure(requestJson(`${base}/not-json`, accepted, 'Loading'));
    expect(notJson.kind).toBe('shape');
    expect(notJson.message).toMatch(/not JSON/);
    const wrong = await failure(requestJson(`${base}/wrong-shape`, accepted, 'Loading'));
    expect(wrong.kind).toBe('shape');
    expect(wrong.message).toMatch(/at batchid/);
  });

  it('times out with a message', async () => {
    const error = await failure(
      requestJson(`${base}/silent`, accepted, 'Sending', { timeoutMs: 200 }),
    );
    expect(error.kind).toBe('timeout');
    expect(error.message).toBe(
      'Sending got no answer within 1 second. The VMS may be slow or unreachable; try again in a minute.',
    );
  });

  it('reports an unreachable server as such', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    const error = await failure(requestJson(`http://127.0.0.1:${port}/`, accepted, 'Sending'));
    expect(error.kind).toBe('offline');
    expect(error.message).toMatch(/could not be reached/);
  });

  it('takes the answer of the same call sent already, and gives it this call’s deadline', async () => {
    const before = received.length;
    const sent = fetch(`${base}/accepted`, { method: 'POST', body: '[]' });
    const answer = await requestJson(`${base}/accepted`, accepted, 'Sending', {
      started: { response: sent, abort: () => undefined },
    });
    expect(answer.data).toEqual({ batchid: 'rb_1', received: 2 });
    expect(received.length - before).toBe(1);

    const controller = new AbortController();
    let aborted = 0;
    const silent = fetch(`${base}/silent`, { signal: controller.signal });
    const error = await failure(
      requestJson(`${base}/silent`, accepted, 'Loading', {
        timeoutMs: 100,
        started: {
          response: silent,
          abort: () => {
            aborted += 1;
            controller.abort();
          },
        },
      }),
    );
    expect(error.kind).toBe('timeout');
    expect(aborted).toBe(1);
  });

  it('lets a cancelled request go without calling it a failure', async () => {
    const controller = new AbortController();
    const pending = requestJson(`${base}/silent`, accepted, 'Loading', {
      signal: controller.signal,
    });
    controller.abort();
    await expect(pending).rejects.not.toBeInstanceOf(RequestFailure);
  });
});

describe('requestText', () => {
  it('sends the text byte for byte as JSON, and gives a refusal as it came', async () => {
    const text = '[ {"a": "1"}, ]';
    const answer = await requestText(`${base}/refused`, 'Sending', { method: 'POST', text });
    expect(answer.status).toBe(403);
    expect(JSON.parse(answer.text)).toMatchObject({ error: { code: 'org_not_permitted' } });
    const last = received[received.length - 1];
    expect(last?.body).toBe(text);
    expect(last?.headers['content-type']).toBe('application/json');
    const plain = await requestText(`${base}/plain-500`, 'Reading');
    expect(plain).toMatchObject({ status: 500, text: 'upstream exploded' });
  });

  it('still fails when no answer comes', async () => {
    const error = await failure(requestText(`${base}/silent`, 'Reading', { timeoutMs: 50 }));
    expect(error.kind).toBe('timeout');
  });
});

describe('failureFromResponse', () => {
  it('reads our error body from any Response', async () => {
    const response = new Response(
      JSON.stringify({
        error: { code: 'upstream_unreachable', message: 'The VMS could not be reached.' },
      }),
      { status: 502 },
    );
    const error = await failureFromResponse(response, 'Sending');
    expect(error).toMatchObject({ status: 502, code: 'upstream_unreachable', details: [] });
  });
});
