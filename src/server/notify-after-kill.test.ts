import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { simpleParser, type ParsedMail } from 'mailparser';
import { SMTPServer } from 'smtp-server';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { batchWatchSchema, type BatchWatch } from '@/domain/batch-watch';
import { createdWebhookSchema } from '@/domain/deliveries';
import { notificationListSchema } from '@/domain/notifications';
import { sandboxDemo } from '@/sandbox/index';
import { createTestDatabase, postgresEnvName } from '@/test-support/postgres-server';
import { startTestSandbox, type TestSandbox } from '@/test-support/sandbox-client';
import { addUser, TestBrowser } from '@/test-support/test-browser';
import { requisitionInsert } from '@/test-support/test-data';
import { buildServer } from '../../scripts/build-cli';

/*
 * Portal processes killed with SIGKILL while they watch batches (decisions 050, 054, 056): the
 * built server, each its own node, against the sandbox, a real SMTP server and a webhook receiver
 * on loopback. Alone on SQLite, the restarted process resumes the watch of a 200-item batch and
 * the bell, the e-mail and the webhook each tell of it once. Two processes on one PostgreSQL: one
 * killed, the other finishes every watch, one notice per batch on each channel.
 */
const root = fileURLToPath(new URL('../..', import.meta.url));
mkdirSync(join(root, 'build'), { recursive: true });
const dir = mkdtempSync(join(root, 'build', '.test-kill-'));
const recruiter = { email: 'kim.recruiter@example.com', password: 'killed and started again' };
const admin = { email: 'ada.admin@example.com', password: 'the admin of the killed ones' };
const orgs = `Client_Org_Id=1001&Vendor_Org_Id=${sandboxDemo.vendorOrgId}`;

let main: string;
let sandbox: TestSandbox;
let smtp: SMTPServer;
let receiver: Server;
const mails: ParsedMail[] = [];
const hooks: string[] = [];
const children: ChildProcess[] = [];

beforeAll(async () => {
  main = await buildServer(join(dir, 'server'));
  // 200 items at 20 ms each: the batch stays pending for about 4 s.
  sandbox = await startTestSandbox({ processingDelayMs: 20 });
  smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, _session, callback) {
      void simpleParser(stream).then((mail) => {
        mails.push(mail);
        callback();
      }, callback);
    },
  });
  await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
  receiver = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      hooks.push(Buffer.concat(chunks).toString('utf8'));
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
}, 60_000);

afterEach(() => {
  for (const child of children.splice(0)) child.kill('SIGKILL');
  mails.length = 0;
  hooks.length = 0;
});

afterAll(async () => {
  await sandbox?.close();
  await new Promise<void>((resolve) => smtp.close(() => resolve()));
  receiver.closeAllConnections();
  await new Promise((resolve) => receiver.close(resolve));
  rmSync(dir, { recursive: true, force: true });
});

/** The built server on a free port, with e-mail and webhooks on; its URL once it listens. */
function startProcess(
  store: Record<string, string>,
): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(process.execPath, [main], {
    env: {
      PATH: process.env.PATH,
      PORT: '0',
      HOST: '127.0.0.1',
      VMS_BASE_URL: sandbox.url,
      VMS_API_KEY: sandboxDemo.apiKey,
      VMS_API_SECRET: sandboxDemo.apiSecret,
      VMS_CLIENT_ORGS: '1001',
      VMS_VENDOR_ORG_ID: String(sandboxDemo.vendorOrgId),
      VMS_PRODUCTION: 'off',
      VMS_TIMEOUT_MS: '5000',
      AUTH: 'on',
      PORTAL_RATE_LIMIT_PER_MINUTE: '0',
      LOG_LEVEL: 'warn',
      SMTP_URL: `smtp://127.0.0.1:${(smtp.server.address() as AddressInfo).port}`,
      MAIL_FROM: 'VMS portal <portal@example.com>',
      WEBHOOK_ALLOW_HOSTS: '127.0.0.1',
      ...store,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  return new Promise((resolve, reject) => {
    let output = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const match = /VMS submission portal: (http:\/\/\S+)/.exec(output);
      if (match?.[1]) resolve({ child, url: match[1] });
    });
    child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.once('exit', (code) => reject(new Error(`exited ${code}: ${output}`)));
  });
}

/** Kills a process as a power cut would, and waits until it is gone. */
async function killNine(child: ChildProcess): Promise<void> {
  const gone = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGKILL');
  await gone;
}

async function signedIn(url: string, who: { email: string; password: string }) {
  const browser = new TestBrowser(url);
  expect((await browser.signIn(who.email, who.password)).status).toBe(200);
  return browser;
}

async function addWebhook(url: string): Promise<void> {
  const asAdmin = await signedIn(url, admin);
  const added = await asAdmin.call('POST', '/api/admin/webhooks', {
    body: {
      name: 'Team channel',
      url: `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`,
      connection: null,
      events: ['batch.settled', 'batch.gave_up'],
    },
  });
  expect(added.status).toBe(201);
  createdWebhookSchema.parse(added.json());
}

async function send(browser: TestBrowser, items: number, tag: string): Promise<string> {
  const sent = await browser.call('POST', `/api/vms/requisitionimport?${orgs}`, {
    body: Array.from({ length: items }, (_, index) =>
      requisitionInsert({ clientinternalreq: `${tag}-${index}` }),
    ),
  });
  expect(sent.status).toBe(202);
  return (sent.json() as { batchid: string }).batchid;
}

async function watchOf(browser: TestBrowser, batchId: string): Promise<BatchWatch | null> {
  const answer = await browser.call('GET', `/api/watches/${batchId}`);
  return answer.status === 200 ? batchWatchSchema.parse(answer.json()) : null;
}

async function until(done: () => Promise<boolean> | boolean, timeoutMs: number, what: string) {
  const deadline = Date.now() + timeoutMs;
  while (!(await done())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

async function bell(browser: TestBrowser) {
  return notificationListSchema.parse((await browser.call('GET', '/api/notifications')).json());
}

describe('portal processes killed with SIGKILL while they watch', () => {
  it('alone on SQLite: the restarted process resumes a 200-item batch and tells of it once on each channel', async () => {
    const portalDb = join(dir, 'alone.db');
    await addUser(portalDb, admin.email, admin.password, 'admin');
    await addUser(portalDb, recruiter.email, recruiter.password, 'recruiter', [1001]);
    const first = await startProcess({ PORTAL_DB: portalDb });
    await addWebhook(first.url);
    const batchId = await send(await signedIn(first.url, recruiter), 200, 'KILL-ALONE');
    const before = await signedIn(first.url, recruiter);
    // Killed once the watch has asked the VMS and found the batch still pending.
    await until(
      async () => ((await watchOf(before, batchId))?.checks ?? 0) >= 1,
      20_000,
      'the first check',
    );
    expect((await watchOf(before, batchId))?.state).toBe('watching');
    await killNine(first.child);
    expect(mails).toHaveLength(0);
    expect(hooks).toHaveLength(0);

    const second = await startProcess({ PORTAL_DB: portalDb });
    const after = await signedIn(second.url, recruiter);
    await until(() => mails.length >= 1 && hooks.length >= 1, 60_000, 'the e-mail and webhook');
    const watch = await watchOf(after, batchId);
    expect(watch?.state).toBe('settled');
    expect(watch?.results?.rows).toHaveLength(200);
    // A moment more: nothing is told twice.
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(mails.map((mail) => mail.subject)).toEqual([`Batch ${batchId} settled: 200 Success`]);
    expect(hooks.map((hook) => (JSON.parse(hook) as { text: string }).text)).toEqual([
      expect.stringMatching(new RegExp(`^Batch ${batchId} settled: 200 Success: http`)),
    ]);
    const notices = await bell(after);
    expect(notices.unread).toBe(1);
    expect(notices.items.map((item) => item.title)).toEqual([
      `Batch ${batchId} settled: 200 Success`,
    ]);
  }, 120_000);

  it('two on one PostgreSQL: with one killed, the other finishes every watch, one notice per batch on each channel', async () => {
    const adminUrl = process.env[postgresEnvName];
    if (!adminUrl) throw new Error(`${postgresEnvName} is unset: the global setup starts it`);
    const databaseUrl = createTestDatabase(adminUrl);
    const store = { DATABASE_URL: databaseUrl, PORTAL_DB: join(dir, 'unused.db') };
    const [one, two] = await Promise.all([startProcess(store), startProcess(store)]);
    await addUser({ databaseUrl }, admin.email, admin.password, 'admin');
    await addUser({ databaseUrl }, recruiter.email, recruiter.password, 'recruiter', [1001]);
    await addWebhook(one.url);
    const viaOne = await signedIn(one.url, recruiter);
    const viaTwo = await signedIn(two.url, recruiter);
    const sent: string[] = [];
    // 200 items each, as alone: every batch is still pending when the process is killed, so the
    // kill lands in the watch, which is what this proves. (A batch the killed process had already
    // finished would have its notices' deliveries leased by it, taken over once the lease runs
    // out, two minutes later: delivery-worker.test.ts proves that.)
    for (let index = 0; index < 6; index += 1) {
      sent.push(await send(index % 2 ? viaTwo : viaOne, 200, `KILL-PG-${index}`));
    }
    await until(
      async () => ((await watchOf(viaTwo, sent[0] ?? ''))?.checks ?? 0) >= 1,
      20_000,
      'a first check',
    );
    const atKill = await Promise.all(sent.map((batchId) => watchOf(viaTwo, batchId)));
    expect(atKill.map((watch) => watch?.state)).toEqual(Array(6).fill('watching'));
    await killNine(one.child);

    // A check the killed process held when it died waits for its lease (the timeout and a minute)
    // and for pg-boss to find its job expired (it looks every minute): up to about two minutes.
    await until(
      async () => {
        const watches = await Promise.all(sent.map((batchId) => watchOf(viaTwo, batchId)));
        return watches.every((watch) => watch?.state === 'settled');
      },
      150_000,
      'every batch settled',
    );
    await until(() => mails.length >= 6 && hooks.length >= 6, 30_000, 'six e-mails and webhooks');
    await new Promise((resolve) => setTimeout(resolve, 1500));
    const titles = sent.map((batchId) => `Batch ${batchId} settled: 200 Success`).sort();
    expect(mails.map((mail) => mail.subject).sort()).toEqual(titles);
    expect(
      hooks.map((hook) => (JSON.parse(hook) as { portal: { title: string } }).portal.title).sort(),
    ).toEqual(titles);
    expect((await bell(viaTwo)).items.map((item) => item.title).sort()).toEqual(titles);
  }, 240_000);
});
