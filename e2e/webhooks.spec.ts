import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { simpleParser, type ParsedMail } from 'mailparser';
import { SMTPServer } from 'smtp-server';
import { sandboxDemo } from '@/sandbox/index';
import { loadConfig } from '@/server/config';
import { freePort } from '@/server/free-port';
import { startPortal } from '@/server/start';
import { addUser, TestBrowser } from '@/test-support/test-browser';
import { requisitionInsert } from '@/test-support/test-data';
import { adminEmail, adminPassword, newPage, signIn, test } from './support/auth-portal';
import { expect, expectNoAxeViolations } from './support/fixtures';

/*
 * Webhooks and e-mail choices in a browser (decision 056), against a real SMTP server and a real
 * webhook receiver on loopback (WEBHOOK_ALLOW_HOSTS lists 127.0.0.1): an admin adds a webhook and
 * is shown its secret once, is refused a private address with the setting named, a recruiter turns
 * one kind of e-mail off in Settings, sends a batch, and the admin's delivery log shows the e-mail
 * and the webhook delivered. The page passes axe in both themes.
 */
const recruiterEmail = 'rita.recruiter@example.com';
const recruiterPassword = 'a long and quiet afternoon';

test('an admin adds a webhook and sees a settled batch delivered by e-mail and webhook', async ({
  browser,
}) => {
  test.setTimeout(120_000);
  const mails: ParsedMail[] = [];
  const smtp = new SMTPServer({
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
  const hooks: string[] = [];
  const receiver = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      hooks.push(Buffer.concat(chunks).toString('utf8'));
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));

  const dir = mkdtempSync(join(tmpdir(), 'vms-portal-webhooks-'));
  const portalDb = join(dir, 'portal.db');
  await addUser(portalDb, adminEmail, adminPassword, 'admin');
  await addUser(portalDb, recruiterEmail, recruiterPassword, 'recruiter', [1001]);
  const port = await freePort();
  const portal = await startPortal(
    loadConfig({
      PORT: String(port),
      PORTAL_PUBLIC_URL: `http://127.0.0.1:${port}`,
      SANDBOX_PORT: '0',
      SANDBOX_DB: join(dir, 'sandbox.db'),
      PORTAL_DB: portalDb,
      AUTH: 'on',
      LOG_LEVEL: 'silent',
      SMTP_URL: `smtp://127.0.0.1:${(smtp.server.address() as AddressInfo).port}`,
      MAIL_FROM: 'VMS portal <portal@example.com>',
      WEBHOOK_ALLOW_HOSTS: '127.0.0.1',
    }),
    {
      sandbox: { processingDelayMs: 20 },
      watcher: { backoff: { firstMs: 50, maxMs: 300 } },
      deliveries: { pollMs: 100 },
    },
  );
  const url = `http://127.0.0.1:${port}`;
  try {
    const admin = await newPage(browser);
    await signIn(admin.page, `${url}/requisitions`, adminEmail, adminPassword);
    await admin.page
      .getByRole('navigation', { name: 'Main' })
      .getByRole('link', { name: 'Webhooks' })
      .click();
    await expect(
      admin.page.getByRole('heading', { name: 'Webhooks and deliveries', level: 1 }),
    ).toBeVisible();

    // A private address, not allowed: the server's message, naming the setting.
    await admin.page.getByLabel('Name').fill('Internal');
    await admin.page.getByLabel('Address').fill('http://10.20.30.40/hook');
    await admin.page.getByRole('button', { name: 'Add webhook' }).click();
    await expect(admin.page.getByRole('alert')).toContainText(
      '10.20.30.40 is a private network address',
    );
    await expect(admin.page.getByRole('alert')).toContainText('WEBHOOK_ALLOW_HOSTS');

    const receiverPort = (receiver.address() as AddressInfo).port;
    await admin.page.getByLabel('Name').fill('Recruiting channel');
    await admin.page
      .getByLabel('Address')
      .fill(`http://127.0.0.1:${receiverPort}/services/T0/B0/secretpart`);
    await admin.page.getByRole('button', { name: 'Add webhook' }).click();
    const secret = admin.page.getByRole('textbox', { name: 'Signing secret' });
    await expect(secret).toHaveValue(/^whsec_/);
    const row = admin.page.getByRole('row', { name: /Recruiting channel/ });
    await expect(row).toContainText(`http://127.0.0.1:${receiverPort}/…`);
    await expect(row).not.toContainText('secretpart');
    await row.getByRole('button', { name: 'Send a test' }).click();
    await expect(row.getByRole('status')).toHaveText('Delivered: the receiver answered 204.');
    await admin.page.getByRole('button', { name: 'Done, hide it' }).click();
    await expect(admin.page.getByRole('textbox', { name: 'Signing secret' })).toHaveCount(0);

    // The recruiter keeps e-mail for settled batches and turns the other kind off.
    const recruiter = await newPage(browser);
    await signIn(recruiter.page, `${url}/settings`, recruiterEmail, recruiterPassword);
    const settled = recruiter.page.getByLabel('E-mail me when a batch I sent settles at the VMS');
    const gaveUp = recruiter.page.getByLabel(/E-mail me when a batch I sent is still pending/);
    await expect(settled).toBeChecked();
    await expect(gaveUp).toBeChecked();
    await gaveUp.uncheck();
    await expect(recruiter.page.getByText('Saved.')).toBeVisible();
    await recruiter.page.reload();
    await expect(gaveUp).not.toBeChecked();
    await expect(settled).toBeChecked();
    await expectNoAxeViolations(recruiter.page);

    // A batch sent (through the API, as the recruiter) settles: one e-mail and one webhook.
    const api = new TestBrowser(url);
    expect((await api.signIn(recruiterEmail, recruiterPassword)).status).toBe(200);
    const sent = await api.call(
      'POST',
      `/api/vms/requisitionimport?Client_Org_Id=1001&Vendor_Org_Id=${sandboxDemo.vendorOrgId}`,
      { body: [requisitionInsert({ clientinternalreq: 'E2E-HOOK-1' })] },
    );
    expect(sent.status).toBe(202);
    const { batchid } = sent.json() as { batchid: string };
    await expect.poll(() => mails.length, { timeout: 30_000 }).toBe(1);
    await expect.poll(() => hooks.length, { timeout: 30_000 }).toBe(2);
    expect(mails[0]?.subject).toBe(`Batch ${batchid} settled: 1 Success`);

    await admin.page.reload();
    const log = admin.page.getByRole('region', { name: 'Delivery log' });
    await expect(log.getByRole('row', { name: /E-mail/ })).toContainText(recruiterEmail);
    await expect(log.getByRole('row', { name: /E-mail/ })).toContainText('sent');
    await expect(log.getByRole('row', { name: /Webhook/ })).toContainText('Recruiting channel');
    for (const colorScheme of ['light', 'dark'] as const) {
      await admin.page.emulateMedia({ colorScheme });
      await expectNoAxeViolations(admin.page);
    }
    await admin.context.close();
    await recruiter.context.close();
  } finally {
    await portal.close();
    await new Promise<void>((resolve) => smtp.close(() => resolve()));
    receiver.closeAllConnections();
    await new Promise((resolve) => receiver.close(resolve));
    rmSync(dir, { recursive: true, force: true });
  }
});
