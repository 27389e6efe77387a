import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { simpleParser, type ParsedMail } from 'mailparser';
import { SMTPServer } from 'smtp-server';
import { request } from 'undici';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { auditPageSchema } from '@/domain/audit';
import {
  createdWebhookSchema,
  deliveryLogSchema,
  mailPreferencesSchema,
  webhookSchema,
} from '@/domain/deliveries';
import { notificationListSchema } from '@/domain/notifications';
import { sandboxDemo } from '@/sandbox/index';
import { buildPortal } from '@/server/app';
import { loadConfig } from '@/server/config';
import { freePort } from '@/server/free-port';
import type { Notice } from '@/server/notifications/notifier';
import { documentedWebhookCheck } from '@/test-support/documented-webhook-check';
import { testStoreEnv } from '@/test-support/postgres-server';
import { startTestSandbox, type TestSandbox } from '@/test-support/sandbox-client';
import { addUser, TestBrowser } from '@/test-support/test-browser';
import { requisitionInsert } from '@/test-support/test-data';

/*
 * Notifications by e-mail and webhook, end to end on a real database (PostgreSQL in the postgres
 * project): a real SMTP server (smtp-server, read back with mailparser) and a real webhook
 * receiver, both on loopback, which the portal reaches because WEBHOOK_ALLOW_HOSTS lists
 * 127.0.0.1. A notice told twice is delivered once on each channel; an SMTP server that refuses
 * is retried, then shown failed to admins, and nothing crashes.
 */

const password = 'correct horse battery staple';

interface Received {
  headers: IncomingMessage['headers'];
  body: string;
}

let dir: string;
let sandbox: TestSandbox;
let app: FastifyInstance;
let portalUrl: string;
/** PORTAL_PUBLIC_URL: the portal's own address here, as the links in messages must say. */
let publicUrl: string;
let admin: TestBrowser;
let rita: TestBrowser;
let ritaId: string;
let smtp: SMTPServer;
let mails: { to: string[]; mail: ParsedMail }[];
/** What the SMTP server says to RCPT TO: accept, or refuse for now (452). */
let smtpRefuses = false;
let smtpRefusals = 0;
let receiver: Server;
let receiverPort: number;
let hooks: Received[];
/** Everything the portal logged. */
let logged = '';
const metricsToken = 'deliveries-test-metrics-token';

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'deliveries-'));
  const dbPath = join(dir, 'portal.db');
  mails = [];
  smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onRcptTo(_address, _session, callback) {
      if (!smtpRefuses) return callback();
      smtpRefusals += 1;
      return callback(Object.assign(new Error('Mailbox busy, try later'), { responseCode: 452 }));
    },
    onData(stream, session, callback) {
      void simpleParser(stream).then((mail) => {
        mails.push({ to: session.envelope.rcptTo.map(({ address }) => address), mail });
        callback();
      }, callback);
    },
  });
  await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
  const smtpPort = (smtp.server.address() as AddressInfo).port;

  hooks = [];
  receiver = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      hooks.push({ headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
      res.writeHead(200).end('ok');
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  receiverPort = (receiver.address() as AddressInfo).port;

  sandbox = await startTestSandbox({ processingDelayMs: 10 });
  const port = await freePort();
  publicUrl = `http://127.0.0.1:${port}`;
  const config = loadConfig(
    testStoreEnv({
      VMS_BASE_URL: sandbox.url,
      VMS_API_KEY: sandboxDemo.apiKey,
      VMS_API_SECRET: sandboxDemo.apiSecret,
      VMS_CLIENT_ORGS: '1001',
      VMS_VENDOR_ORG_ID: String(sandboxDemo.vendorOrgId),
      VMS_PRODUCTION: 'off',
      AUTH: 'on',
      PORTAL_DB: dbPath,
      PORTAL_PUBLIC_URL: publicUrl,
      SMTP_URL: `smtp://127.0.0.1:${smtpPort}`,
      MAIL_FROM: 'VMS portal <portal@example.com>',
      WEBHOOK_ALLOW_HOSTS: '127.0.0.1',
      LOG_LEVEL: 'info',
      METRICS_TOKEN: metricsToken,
    }),
  );
  app = buildPortal(config, {
    watcher: { backoff: { firstMs: 30, maxMs: 200 } },
    deliveries: { retry: { firstMs: 40, maxMs: 80, giveUpMs: 600 }, pollMs: 50 },
    logStream: new Writable({
      write(chunk: Buffer, _encoding, done) {
        logged += chunk.toString('utf8');
        done();
      },
    }),
  });
  portalUrl = await app.listen({ port, host: '127.0.0.1' });
  expect(portalUrl).toBe(publicUrl);
  // The portal's PostgreSQL database (postgres project) or its file, as the users CLI reaches it.
  const database = config.databaseUrl ? { databaseUrl: config.databaseUrl } : dbPath;
  await addUser(database, 'ada@example.com', password, 'admin');
  await addUser(database, 'rita@example.com', password, 'recruiter', [1001]);
  admin = new TestBrowser(portalUrl);
  rita = new TestBrowser(portalUrl);
  expect((await admin.signIn('ada@example.com', password)).status).toBe(200);
  expect((await rita.signIn('rita@example.com', password)).status).toBe(200);
  ritaId = (await app.accounts.users.byEmail('rita@example.com'))?.id ?? '';
  expect(ritaId).not.toBe('');
});

afterAll(async () => {
  await app.close();
  await sandbox.close();
  await new Promise<void>((resolve) => smtp.close(() => resolve()));
  receiver.closeAllConnections();
  await new Promise((resolve) => receiver.close(resolve));
  rmSync(dir, { recursive: true, force: true });
});

beforeEach(() => {
  smtpRefuses = false;
});

async function until<T>(look: () => Promise<T> | T, done: (value: T) => boolean): Promise<T> {
  const deadline = Date.now() + 15_000;
  let value = await look();
  while (!done(value) && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 25));
    value = await look();
  }
  return value;
}

/** A header as the message carried it, folded lines unfolded; empty when it has none. */
function headerLine(mail: ParsedMail | undefined, key: string): string {
  return mail?.headerLines.find((line) => line.key === key)?.line.replace(/\r?\n\s+/g, ' ') ?? '';
}

async function deliveryLog() {
  const answer = await admin.call('GET', '/api/admin/deliveries');
  expect(answer.status).toBe(200);
  return deliveryLogSchema.parse(answer.json()).items;
}

let webhookSecret = '';

describe('webhooks, as admins set them', () => {
  it('adds a webhook on an allowed loopback receiver, showing its secret once', async () => {
    const added = await admin.call('POST', '/api/admin/webhooks', {
      body: {
        name: 'Recruiting channel',
        url: `http://127.0.0.1:${receiverPort}/hooks/T000/B000/secretpart`,
        events: ['batch.settled'],
      },
    });
    expect(added.status).toBe(201);
    const created = createdWebhookSchema.parse(added.json());
    expect(created.secret).toMatch(/^whsec_[A-Za-z0-9_-]{32}$/);
    webhookSecret = created.secret;
    // Listed without its secret, and without the address's path (a chat's credential).
    const listed = await admin.call('GET', '/api/admin/webhooks');
    const items = webhookSchema.array().parse((listed.json() as { items: unknown }).items);
    expect(items).toEqual([
      {
        id: created.webhook.id,
        name: 'Recruiting channel',
        url: `http://127.0.0.1:${receiverPort}/…`,
        connection: null,
        events: ['batch.settled'],
        createdAt: expect.any(String),
        updatedAt: expect.any(String),
      },
    ]);
    expect(listed.text).not.toContain(webhookSecret);
    expect(listed.text).not.toContain('secretpart');
  });

  it('refuses a private address that WEBHOOK_ALLOW_HOSTS does not list, naming the setting', async () => {
    const refused = await admin.call('POST', '/api/admin/webhooks', {
      body: { name: 'Internal', url: 'http://10.20.30.40/hook', events: ['batch.settled'] },
    });
    expect(refused.status).toBe(400);
    expect(refused.json()).toMatchObject({
      error: {
        message:
          "The webhook's host 10.20.30.40 cannot be called: 10.20.30.40 is a private network address. Webhooks go to public addresses only; an administrator can allow this host with WEBHOOK_ALLOW_HOSTS.",
      },
    });
    const metadata = await admin.call('POST', '/api/admin/webhooks', {
      body: { name: 'Meta', url: 'http://169.254.169.254/latest', events: ['batch.settled'] },
    });
    expect(metadata.status).toBe(400);
    expect(JSON.stringify(metadata.json())).toContain('WEBHOOK_ALLOW_HOSTS');
  });

  it('is for admins only', async () => {
    expect((await rita.call('GET', '/api/admin/webhooks')).status).toBe(403);
    expect((await rita.call('GET', '/api/admin/deliveries')).status).toBe(403);
  });
});

describe('a batch that settles', () => {
  it('reaches its sender by one e-mail and the webhook by one signed delivery, told twice', async () => {
    const items = [
      requisitionInsert({ clientinternalreq: 'DELIVER-OK-1' }),
      requisitionInsert({ clientinternalreq: 'DELIVER-OK-2' }),
      { ...requisitionInsert({ clientinternalreq: 'DELIVER-BAD-1' }), nosuchfield: 'x' },
    ];
    const sent = await rita.call(
      'POST',
      `/api/vms/requisitionimport?Client_Org_Id=1001&Vendor_Org_Id=${sandboxDemo.vendorOrgId}`,
      { body: items },
    );
    expect(sent.status).toBe(202);
    const { batchid } = sent.json() as { batchid: string };
    const title = `Batch ${batchid} settled: 2 Success, 1 Error`;
    const link = `${publicUrl}/submissions?batch=${batchid}`;

    await until(
      () => mails.length + hooks.length,
      (count) => count >= 2,
    );
    // The bell has it too.
    const bell = notificationListSchema.parse(
      (await rita.call('GET', '/api/notifications')).json(),
    );
    expect(bell.items.map((item) => item.title)).toEqual([title]);

    // Told again (a check repeated after a crash): nothing more goes out.
    const notice: Notice = {
      connection: 'default',
      userId: ritaId,
      kind: 'batch.settled',
      title,
      link: `/submissions?batch=${batchid}`,
      about: `batch:default:${batchid}`,
      at: Date.now(),
    };
    await app.notifier.notify(notice);
    await app.notifier.notify(notice);
    await new Promise((resolve) => setTimeout(resolve, 400));

    expect(mails).toHaveLength(1);
    const [mail] = mails;
    expect(mail?.to).toEqual(['rita@example.com']);
    expect(mail?.mail.subject).toBe(title);
    expect(mail?.mail.text).toContain(`See it in the portal: ${link}`);
    // No candidate's data: the requisitions' own fields are not in the message.
    expect(mail?.mail.text).not.toContain('DELIVER-OK-1');
    expect(mail?.mail.html).not.toContain('DELIVER-BAD-1');
    const unsubscribe = headerLine(mail?.mail, 'list-unsubscribe');
    expect(unsubscribe).toMatch(
      new RegExp(`^List-Unsubscribe: <${publicUrl}/unsubscribe\\?token=[A-Za-z0-9_.-]+>$`),
    );
    expect(headerLine(mail?.mail, 'list-unsubscribe-post')).toBe(
      'List-Unsubscribe-Post: List-Unsubscribe=One-Click',
    );

    expect(hooks).toHaveLength(1);
    const [hook] = hooks;
    const body = JSON.parse(hook?.body ?? '{}') as {
      text: string;
      portal: { event: string; link: string; deliveryId: string };
    };
    expect(body.text).toBe(`${title}: ${link}`);
    expect(body.portal).toMatchObject({ event: 'batch.settled', link });
    expect(hook?.headers['x-portal-delivery']).toBe(body.portal.deliveryId);
    expect(
      documentedWebhookCheck()(
        webhookSecret,
        String(hook?.headers['x-portal-signature']),
        hook?.body ?? '',
      ),
    ).toBe(true);

    const log = await deliveryLog();
    expect(
      log
        .filter((entry) => entry.title === title)
        .map(({ channel, target, state, attempts }) => ({
          channel,
          target,
          state,
          attempts,
        })),
    ).toEqual(
      expect.arrayContaining([
        { channel: 'email', target: 'rita@example.com', state: 'sent', attempts: 1 },
        { channel: 'webhook', target: 'Recruiting channel', state: 'sent', attempts: 1 },
      ]),
    );
  });
});

describe('an SMTP server that refuses', () => {
  it('is tried again with backoff, then shown failed to admins, and the portal goes on', async () => {
    smtpRefuses = true;
    const refusalsBefore = smtpRefusals;
    const mailsBefore = mails.length;
    await app.notifier.notify({
      connection: 'default',
      userId: ritaId,
      kind: 'batch.gave_up',
      title: 'Batch rb_refused: still pending at the VMS after 72 h',
      link: '/submissions?batch=rb_refused',
      about: 'batch:default:rb_refused',
      at: Date.now(),
    });
    const failed = await until(deliveryLog, (log) =>
      log.some((entry) => entry.title.includes('rb_refused') && entry.state === 'failed'),
    );
    const [first] = failed;
    // Failures first.
    expect(first).toMatchObject({
      channel: 'email',
      target: 'rita@example.com',
      state: 'failed',
      title: 'Batch rb_refused: still pending at the VMS after 72 h',
    });
    expect(first?.attempts).toBeGreaterThanOrEqual(2);
    expect(smtpRefusals - refusalsBefore).toBe(first?.attempts);
    expect(first?.lastError).toMatch(
      /^The SMTP server 127\.0\.0\.1:\d+ refused the message: ".*Mailbox busy, try later"\. Gave up after \d+ attempts\.$/,
    );
    expect(mails).toHaveLength(mailsBefore);
    // Still answering, and the failure is in the audit trail.
    expect((await request(`${portalUrl}/api/health/live`)).statusCode).toBe(200);
    const audit = await admin.call('GET', '/api/audit?event=notification_failed');
    expect(audit.status).toBe(200);
    expect(audit.text).toContain('rb_refused');
  });
});

describe("each user's e-mail choices", () => {
  it('reads and changes one’s own, all on at first', async () => {
    const before = await rita.call('GET', '/api/me/email-notifications');
    expect(mailPreferencesSchema.parse(before.json())).toEqual({
      mailConfigured: true,
      kinds: { 'batch.settled': true, 'batch.gave_up': true, 'suite.scheduled_run': true },
    });
    const changed = await rita.call('PUT', '/api/me/email-notifications', {
      body: { kinds: { 'batch.gave_up': false } },
    });
    expect(changed.json()).toEqual({
      mailConfigured: true,
      kinds: { 'batch.settled': true, 'batch.gave_up': false, 'suite.scheduled_run': true },
    });
    // Another user's choices are their own.
    expect((await admin.call('GET', '/api/me/email-notifications')).json()).toMatchObject({
      kinds: { 'batch.gave_up': true },
    });
    await rita.call('PUT', '/api/me/email-notifications', {
      body: { kinds: { 'batch.gave_up': true } },
    });
  });

  it('turns a kind off by the link in a message only once the page is submitted', async () => {
    const [mail] = mails;
    const url = new URL(/<([^>]+)>/.exec(headerLine(mail?.mail, 'list-unsubscribe'))?.[1] ?? '');
    const path = `${url.pathname}${url.search}`;
    // A mail scanner following the link changes nothing.
    const shown = await request(`${portalUrl}${path}`);
    expect(shown.statusCode).toBe(200);
    const page = await shown.body.text();
    expect(page).toContain('Stop these e-mails?');
    expect(page).toContain('<form method="post"');
    const still = mailPreferencesSchema.parse(
      (await rita.call('GET', '/api/me/email-notifications')).json(),
    );
    expect(still.kinds['batch.settled']).toBe(true);
    // The mail client's one-click POST (RFC 8058) turns it off.
    const posted = await request(`${portalUrl}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'List-Unsubscribe=One-Click',
    });
    expect(posted.statusCode).toBe(200);
    expect(await posted.body.text()).toContain('Unsubscribed');
    const after = mailPreferencesSchema.parse(
      (await rita.call('GET', '/api/me/email-notifications')).json(),
    );
    expect(after.kinds).toEqual({
      'batch.settled': false,
      'batch.gave_up': true,
      'suite.scheduled_run': true,
    });

    // A settled batch now reaches Rita in the app and the webhook, not by e-mail.
    const mailsBefore = mails.length;
    const hooksBefore = hooks.length;
    await app.notifier.notify({
      connection: 'default',
      userId: ritaId,
      kind: 'batch.settled',
      title: 'Batch rb_after settled: 1 Success',
      link: '/submissions?batch=rb_after',
      about: 'batch:default:rb_after',
      at: Date.now(),
    });
    await until(
      () => hooks.length,
      (count) => count > hooksBefore,
    );
    expect(hooks).toHaveLength(hooksBefore + 1);
    expect(mails).toHaveLength(mailsBefore);

    // A token that was tampered with turns nothing off.
    const forged = await request(
      `${portalUrl}/unsubscribe?token=${url.searchParams.get('token')}x`,
      {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: 'List-Unsubscribe=One-Click',
      },
    );
    expect(forged.statusCode).toBe(400);
  });
});

describe('what admins and operators see', () => {
  it('audits webhook changes, and sends a webhook only the notices of its connection', async () => {
    const made = createdWebhookSchema.parse(
      (
        await admin.call('POST', '/api/admin/webhooks', {
          body: {
            name: 'Scoped',
            url: `http://127.0.0.1:${receiverPort}/scoped`,
            connection: 'default',
            events: ['batch.gave_up'],
          },
        })
      ).json(),
    );
    const unknown = await admin.call('PATCH', `/api/admin/webhooks/${made.webhook.id}`, {
      body: { connection: 'nowhere' },
    });
    expect(unknown.status).toBe(400);
    expect(unknown.json()).toMatchObject({
      error: {
        message:
          'There is no connection "nowhere"; choose one of default, or none for every connection.',
      },
    });
    const changed = await admin.call('PATCH', `/api/admin/webhooks/${made.webhook.id}`, {
      body: { events: ['batch.settled'] },
    });
    expect(webhookSchema.parse(changed.json())).toMatchObject({
      connection: 'default',
      events: ['batch.settled'],
    });

    const before = hooks.length;
    // Another connection's notice: not this webhook's (the unscoped one still gets it).
    await app.notifier.notify({
      connection: 'other',
      userId: null,
      kind: 'batch.settled',
      title: 'Batch rb_other settled: 1 Success',
      link: '/submissions?batch=rb_other',
      about: 'batch:other:rb_other',
      at: Date.now(),
    });
    await until(
      () => hooks.length,
      (count) => count > before,
    );
    await new Promise((resolve) => setTimeout(resolve, 300));
    const others = hooks.slice(before);
    expect(others).toHaveLength(1);
    expect(others[0]?.headers['x-portal-delivery']).toMatch(/^dlv_[0-9a-f]{24}$/);

    const removed = await admin.call('DELETE', `/api/admin/webhooks/${made.webhook.id}`);
    expect(removed.status).toBe(200);
    expect((await admin.call('DELETE', `/api/admin/webhooks/${made.webhook.id}`)).status).toBe(404);

    const audit = await admin.call('GET', '/api/audit?email=ada@example.com');
    const events = auditPageSchema.parse(audit.json()).entries;
    expect(
      events
        .filter(({ details }) => details.webhookId === made.webhook.id)
        .map(({ event, details }) => [event, details.host]),
    ).toEqual([
      ['webhook_removed', '127.0.0.1'],
      ['webhook_changed', '127.0.0.1'],
      ['webhook_added', '127.0.0.1'],
    ]);
    expect(audit.text).not.toContain('/scoped');
  });

  it('counts deliveries by channel and outcome, and logs no secret or address path', async () => {
    const scrape = await request(`${portalUrl}/metrics`, {
      headers: { authorization: `Bearer ${metricsToken}` },
    });
    expect(scrape.statusCode).toBe(200);
    const text = await scrape.body.text();
    const count = (labels: string) =>
      Number(
        new RegExp(`^vms_portal_notification_deliveries_total\\{${labels}\\} (\\d+)$`, 'm').exec(
          text,
        )?.[1] ?? 0,
      );
    expect(count('channel="email",outcome="sent"')).toBe(1);
    expect(count('channel="email",outcome="failed"')).toBe(1);
    expect(count('channel="email",outcome="retry"')).toBeGreaterThanOrEqual(1);
    expect(count('channel="webhook",outcome="sent"')).toBeGreaterThanOrEqual(3);

    expect(logged).toContain('deliveries: email delivery');
    expect(logged).not.toContain(webhookSecret);
    expect(logged).not.toContain('secretpart');
    expect(logged).not.toContain('whsec_');
  });
});
