import * as crypto from 'node:crypto';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { documentedWebhookCheck } from '@/test-support/documented-webhook-check';
import {
  checkWebhookUrl,
  hostNameProblem,
  parseAllowedHosts,
  type AllowedHosts,
} from './webhook-address';
import { WebhookSender } from './webhook-delivery';
import { signDelivery, verifyDelivery } from './webhook-signature';

interface Received {
  path: string;
  headers: IncomingMessage['headers'];
  body: string;
}

/** A real receiver on loopback: what it got, and how it answers (settable per test). */
let receiver: Server;
let port: number;
let received: Received[];
let answer: (path: string) => { status: number; headers?: Record<string, string> } | 'hang';

beforeEach(async () => {
  received = [];
  answer = () => ({ status: 200 });
  receiver = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      received.push({
        path: req.url ?? '',
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
      });
      const how = answer(req.url ?? '');
      if (how === 'hang') return;
      res.writeHead(how.status, how.headers).end('ok');
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  port = (receiver.address() as AddressInfo).port;
});

afterEach(async () => {
  receiver.closeAllConnections();
  await new Promise((resolve) => receiver.close(resolve));
});

function allow(raw: string): AllowedHosts {
  const parsed = parseAllowedHosts(raw);
  if ('problem' in parsed) throw new Error(parsed.problem);
  return parsed;
}

const secret = 'whsec-test-0123456789';
const body = JSON.stringify({
  text: 'Batch rb_1 settled: 48 Success, 2 Error',
  portal: { event: 'batch.settled' },
});

describe('a delivery to an allowed loopback receiver', () => {
  it('arrives once, as JSON, signed over the timestamp and the body exactly as sent', async () => {
    const now = Date.UTC(2026, 10, 29, 12, 0, 0);
    const sender = new WebhookSender({ allowed: allow('127.0.0.1'), now: () => now });
    const result = await sender.send(`http://127.0.0.1:${port}/hook`, secret, body);
    await sender.close();

    expect(result).toMatchObject({ delivered: true, status: 200 });
    expect(received).toHaveLength(1);
    const [got] = received;
    expect(got?.body).toBe(body);
    expect(got?.headers['content-type']).toBe('application/json');
    // Computed here from the documented scheme, not by the code under test.
    const timestamp = now / 1000;
    const expected = crypto
      .createHmac('sha256', secret)
      .update(`${timestamp}.${body}`)
      .digest('hex');
    expect(got?.headers['x-portal-signature']).toBe(`t=${timestamp},v1=${expected}`);
    expect(
      verifyDelivery(
        secret,
        got?.headers['x-portal-signature'] as string,
        got?.body ?? '',
        timestamp + 10,
      ),
    ).toBe(true);
  });

  it('does not follow a redirect: one request, a failed delivery that says so', async () => {
    answer = (path) =>
      path === '/hook'
        ? { status: 302, headers: { location: 'http://127.0.0.1:1/elsewhere' } }
        : { status: 200 };
    const sender = new WebhookSender({ allowed: allow('127.0.0.1') });
    const result = await sender.send(`http://127.0.0.1:${port}/hook`, secret, body);
    await sender.close();
    expect(result).toMatchObject({ delivered: false, status: 302, retry: false });
    expect(result.delivered ? '' : result.reason).toContain('redirects are not followed');
    expect(received.map(({ path }) => path)).toEqual(['/hook']);
  });

  it('fails a 5xx as worth retrying and a 4xx as not', async () => {
    const sender = new WebhookSender({ allowed: allow('127.0.0.1') });
    answer = () => ({ status: 503 });
    expect(await sender.send(`http://127.0.0.1:${port}/a`, secret, body)).toMatchObject({
      delivered: false,
      status: 503,
      retry: true,
    });
    answer = () => ({ status: 404 });
    expect(await sender.send(`http://127.0.0.1:${port}/b`, secret, body)).toMatchObject({
      delivered: false,
      status: 404,
      retry: false,
    });
    await sender.close();
  });

  it('gives up on a receiver that never answers after the timeout, to be retried', async () => {
    answer = () => 'hang';
    const sender = new WebhookSender({ allowed: allow('127.0.0.1'), timeoutMs: 300 });
    const result = await sender.send(`http://127.0.0.1:${port}/slow`, secret, body);
    await sender.close();
    expect(result).toMatchObject({ delivered: false, status: null, retry: true });
    expect(result.delivered ? '' : result.reason).toBe('The receiver did not answer within 0.3 s.');
  });
});

describe('addresses inside the network are refused unless allowed', () => {
  it('refuses the loopback receiver without the allow list, before connecting', async () => {
    const sender = new WebhookSender({ allowed: allow('') });
    const result = await sender.send(`http://127.0.0.1:${port}/hook`, secret, body);
    await sender.close();
    expect(result).toMatchObject({ delivered: false, status: null, retry: false });
    expect(result.delivered ? '' : result.reason).toContain('WEBHOOK_ALLOW_HOSTS');
    expect(received).toHaveLength(0);
  });

  it('refuses a name that resolves to loopback at connection time (localhost)', async () => {
    const sender = new WebhookSender({ allowed: allow('') });
    const result = await sender.send(`http://localhost:${port}/hook`, secret, body);
    await sender.close();
    expect(result).toMatchObject({ delivered: false, status: null, retry: false });
    expect(result.delivered ? '' : result.reason).toMatch(
      /localhost cannot be called: it resolves to .* loopback/,
    );
    expect(received).toHaveLength(0);
    expect(await hostNameProblem(new URL(`http://localhost:${port}/`), allow(''))).toContain(
      'WEBHOOK_ALLOW_HOSTS',
    );
    expect(
      await hostNameProblem(new URL(`http://localhost:${port}/`), allow('localhost')),
    ).toBeNull();
  });

  it.each([
    ['http://[::1]/', 'loopback'],
    ['http://[::ffff:127.0.0.1]/', 'loopback'],
    ['http://2130706433/', 'loopback'],
    ['http://0x7f.1/', 'loopback'],
    ['http://0.0.0.0/', 'unspecified'],
    ['http://10.20.30.40/', 'private network'],
    ['http://172.16.0.1/', 'private network'],
    ['http://192.168.1.1/', 'private network'],
    ['http://[fd00:ec2::254]/', 'private network'],
    ['http://169.254.169.254/latest/meta-data/', 'link-local (cloud metadata)'],
    ['http://100.100.100.200/', 'carrier-grade NAT'],
    ['http://224.0.0.1/', 'multicast'],
  ])('%s is refused as %s', (address, kind) => {
    const checked = checkWebhookUrl(address, allow(''));
    expect('problem' in checked ? checked.problem : '').toContain(kind);
    expect('problem' in checked ? checked.problem : '').toContain('WEBHOOK_ALLOW_HOSTS');
  });

  it('lets a public address through, and an internal one when its host is listed', () => {
    expect(checkWebhookUrl('https://93.184.215.14/hook', allow(''))).not.toHaveProperty('problem');
    expect(checkWebhookUrl('https://[2606:4700::1111]/hook', allow(''))).not.toHaveProperty(
      'problem',
    );
    expect(checkWebhookUrl('http://10.20.30.40/hook', allow('10.20.30.40'))).not.toHaveProperty(
      'problem',
    );
    expect(checkWebhookUrl('http://[::1]:8080/hook', allow('[::1]'))).not.toHaveProperty('problem');
  });

  it.each([
    ['not a url', 'is not a web address'],
    ['ftp://files.example.com/x', 'not ftp://'],
    ['https://user:pass@hooks.example.com/x', 'may not hold a user name or password'],
  ])('%s is refused: %s', (address, message) => {
    const checked = checkWebhookUrl(address, allow(''));
    expect('problem' in checked ? checked.problem : '').toContain(message);
  });
});

describe('WEBHOOK_ALLOW_HOSTS', () => {
  it('reads host names and addresses, and refuses an entry with a scheme, port or path', () => {
    expect([...allow(' 127.0.0.1 , Chat.Internal.example,[::1]')]).toEqual([
      '127.0.0.1',
      'chat.internal.example',
      '::1',
    ]);
    for (const bad of ['http://chat.example', 'chat.example:8080', 'chat.example/hooks']) {
      const parsed = parseAllowedHosts(bad);
      expect('problem' in parsed ? parsed.problem : '').toContain('WEBHOOK_ALLOW_HOSTS');
    }
  });
});

describe('the signature', () => {
  const at = 1_800_000_000;
  const header = signDelivery(secret, at, body);

  it('verifies only for the same secret, body and a recent time', () => {
    expect(verifyDelivery(secret, header, body, at + 299)).toBe(true);
    expect(verifyDelivery(secret, header, body, at + 301)).toBe(false);
    expect(verifyDelivery('another-secret', header, body, at)).toBe(false);
    expect(verifyDelivery(secret, header, body.replace('48', '49'), at)).toBe(false);
    expect(verifyDelivery(secret, header.replace(`t=${at}`, `t=${at + 1}`), body, at)).toBe(false);
    expect(verifyDelivery(secret, undefined, body, at)).toBe(false);
    expect(verifyDelivery(secret, 'v1=zz', body, at)).toBe(false);
  });
});

describe("docs/deployment.md's verification snippet", () => {
  /** The receiver's check as the guide prints it, run as printed. */
  const fromPortal = documentedWebhookCheck();

  it('accepts a real delivery and refuses a tampered or foreign one', async () => {
    const sender = new WebhookSender({ allowed: allow('127.0.0.1') });
    await sender.send(`http://127.0.0.1:${port}/hook`, secret, body);
    await sender.close();
    const [got] = received;
    const header = String(got?.headers['x-portal-signature']);
    expect(fromPortal(secret, header, got?.body ?? '')).toBe(true);
    expect(fromPortal(secret, header, `${got?.body ?? ''} `)).toBe(false);
    expect(fromPortal('not-the-secret', header, got?.body ?? '')).toBe(false);
    const old = signDelivery(secret, Math.floor(Date.now() / 1000) - 3600, body);
    expect(fromPortal(secret, old, body)).toBe(false);
  });
});
