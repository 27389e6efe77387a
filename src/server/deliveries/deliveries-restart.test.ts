import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { simpleParser, type ParsedMail } from 'mailparser';
import { SMTPServer } from 'smtp-server';
import { afterAll, expect, it } from 'vitest';
import { sandboxDemo } from '@/sandbox/index';
import { buildPortal } from '@/server/app';
import { loadConfig } from '@/server/config';
import { freePort } from '@/server/free-port';
import { testStoreEnv } from '@/test-support/postgres-server';
import { addUser } from '@/test-support/test-browser';

/*
 * Nothing is lost across a restart: an e-mail whose SMTP server is down when the notice comes
 * stays in the outbox; the portal stops, starts again on the same database once the server is
 * up, and the message arrives, once. On PostgreSQL in the postgres project.
 */

const dir = mkdtempSync(join(tmpdir(), 'deliveries-restart-'));
const dbPath = join(dir, 'portal.db');
const opened: FastifyInstance[] = [];
let smtp: SMTPServer | undefined;

afterAll(async () => {
  for (const app of opened) await app.close();
  if (smtp) await new Promise<void>((resolve) => smtp?.close(() => resolve()));
  rmSync(dir, { recursive: true, force: true });
});

function portal(smtpPort: number): FastifyInstance {
  const config = loadConfig(
    testStoreEnv({
      VMS_BASE_URL: 'http://127.0.0.1:9',
      VMS_API_KEY: sandboxDemo.apiKey,
      VMS_API_SECRET: sandboxDemo.apiSecret,
      VMS_CLIENT_ORGS: '1001',
      VMS_VENDOR_ORG_ID: String(sandboxDemo.vendorOrgId),
      VMS_PRODUCTION: 'off',
      AUTH: 'on',
      PORTAL_DB: dbPath,
      PORTAL_PUBLIC_URL: 'https://portal.example.com',
      SMTP_URL: `smtp://127.0.0.1:${smtpPort}`,
      MAIL_FROM: 'portal@example.com',
      LOG_LEVEL: 'silent',
    }),
  );
  const app = buildPortal(config, {
    deliveries: { retry: { firstMs: 50, maxMs: 100, giveUpMs: 60_000 }, pollMs: 50 },
  });
  opened.push(app);
  return app;
}

it('keeps an e-mail the SMTP server could not take, and sends it once after a restart', async () => {
  const smtpPort = await freePort();
  const first = portal(smtpPort);
  await first.ready();
  const database =
    first.database.kind === 'postgres'
      ? { databaseUrl: String(testStoreEnv({ PORTAL_DB: dbPath }).DATABASE_URL) }
      : dbPath;
  await addUser(database, 'rita@example.com', 'correct horse battery staple', 'recruiter', [1001]);
  const rita = await first.accounts.users.byEmail('rita@example.com');
  await first.notifier.notify({
    connection: 'default',
    userId: rita?.id ?? '',
    kind: 'batch.settled',
    title: 'Batch rb_restart settled: 3 Success',
    link: '/submissions?batch=rb_restart',
    about: 'batch:default:rb_restart',
    at: Date.now(),
  });
  const deadline = Date.now() + 10_000;
  let [row] = await first.deliveries.store.log(10);
  while ((row?.attempts ?? 0) < 2 && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 20));
    [row] = await first.deliveries.store.log(10);
  }
  expect(row).toMatchObject({ channel: 'email', state: 'pending' });
  expect(row?.lastError).toMatch(/could not be reached \(ECONNREFUSED\)/);
  await first.close();

  const mails: ParsedMail[] = [];
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
  await new Promise<void>((resolve) => smtp?.listen(smtpPort, '127.0.0.1', resolve));

  const second = portal(smtpPort);
  await second.ready();
  const until = Date.now() + 10_000;
  while (mails.length === 0 && Date.now() < until) {
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  await new Promise((resolve) => setTimeout(resolve, 300));
  expect(mails.map((mail) => mail.subject)).toEqual(['Batch rb_restart settled: 3 Success']);
  const [after] = await second.deliveries.store.log(10);
  expect(after?.state).toBe('sent');
  expect(after?.attempts).toBe((row?.attempts ?? 0) + 1);
});
