import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { simpleParser, type ParsedMail } from 'mailparser';
import { SMTPServer } from 'smtp-server';
import { createdWebhookSchema } from '@/domain/deliveries';
import { loadConfig } from '@/server/config';
import { freePort } from '@/server/free-port';
import { startPortal } from '@/server/start';
import { documentedWebhookCheck } from '@/test-support/documented-webhook-check';
import { addUser, TestBrowser } from '@/test-support/test-browser';
import { adminEmail, adminPassword, newPage, signIn, test } from './support/auth-portal';
import { expect, openPage } from './support/fixtures';
import { settlingSheet } from './support/import-files';
import { sendBatch, uniqueReference } from './support/requisitions';

/*
 * A batch's outcome reaches its sender everywhere at once, with no page open (decisions 050, 054,
 * 056): a recruiter sends 50 requisitions, two of which the VMS refuses, at a real VMS's pace
 * (200 ms per item), and closes the page. Later, a new page's bell says the batch settled with a
 * link to its results; one e-mail reached the real SMTP server for that recruiter, with the link
 * and none of the candidates' or requisitions' data; and the webhook receiver on loopback got one
 * signed JSON whose signature the guide's own snippet verifies.
 */
const recruiterEmail = 'rosa.recruiter@example.com';
const recruiterPassword = 'a batch of fifty on a wet monday';

test('a 50-item batch settling with its page closed rings the bell, e-mails its sender once and posts one signed webhook', async ({
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
  const hooks: Array<{ headers: IncomingHttpHeaders; body: string }> = [];
  const receiver = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      hooks.push({ headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));

  const dir = mkdtempSync(join(tmpdir(), 'vms-portal-notified-'));
  const portalDb = join(dir, 'portal.db');
  await addUser(portalDb, adminEmail, adminPassword, 'admin');
  await addUser(portalDb, recruiterEmail, recruiterPassword, 'recruiter', [1001]);
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const portal = await startPortal(
    loadConfig({
      PORT: String(port),
      PORTAL_PUBLIC_URL: url,
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
      sandbox: { processingDelayMs: 200 },
      // A check at most every second: the batch is noticed within a second of settling.
      watcher: { backoff: { firstMs: 200, maxMs: 1000 } },
      deliveries: { pollMs: 100 },
    },
  );
  try {
    // An admin adds the team's webhook; its secret is shown this once.
    const admin = new TestBrowser(url);
    expect((await admin.signIn(adminEmail, adminPassword)).status).toBe(200);
    const added = await admin.call('POST', '/api/admin/webhooks', {
      body: {
        name: 'Recruiting channel',
        url: `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks/recruiting`,
        connection: null,
        events: ['batch.settled', 'batch.gave_up'],
      },
    });
    expect(added.status).toBe(201);
    const { secret } = createdWebhookSchema.parse(added.json());

    // The recruiter imports and sends the sheet, then closes the page before the VMS is done.
    const run = uniqueReference('NOTIFY');
    const { csv, failing } = settlingSheet(run);
    const recruiter = await newPage(browser);
    const { page } = recruiter;
    await signIn(page, `${url}/requisitions/import`, recruiterEmail, recruiterPassword);
    await page
      .getByLabel('Choose a file')
      .setInputFiles({ name: 'monday.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) });
    await page.getByRole('button', { name: 'Add 50 valid rows to the batch' }).click();
    await expect(page.getByText('50 requisitions added to the batch.')).toBeVisible();
    await page.getByRole('link', { name: 'Open the batch', exact: true }).click();
    const results = await sendBatch(page);
    const batchId = ((await results.getByRole('heading').first().textContent()) ?? '').replace(
      /^Results of batch /,
      '',
    );
    expect(batchId).toMatch(/^rb_/);
    await expect(results.getByText(/^All 50 requisitions processed/)).toHaveCount(0);
    await page.close();

    // Later: the e-mail and the webhook arrive, with nobody's page open.
    await expect.poll(() => mails.length, { timeout: 60_000, intervals: [500] }).toBe(1);
    await expect.poll(() => hooks.length, { timeout: 30_000, intervals: [200] }).toBe(1);
    const title = `Batch ${batchId} settled: 48 Success, 2 Error`;
    const link = `${url}/submissions?batch=${encodeURIComponent(batchId)}`;

    const [mail] = mails;
    expect(mail?.to && 'text' in mail.to ? mail.to.text : '').toBe(recruiterEmail);
    expect(mail?.subject).toBe(title);
    expect(mail?.text).toContain(link);
    expect(String(mail?.html)).toContain(link);
    // Counts, the batch id and the link; no reference, title or VMS message of any row.
    const whole = `${mail?.subject}\n${mail?.text}\n${String(mail?.html)}`;
    for (const leak of [run, 'Role 1', 'req class', 'mreyes', 'Description']) {
      expect(whole).not.toContain(leak);
    }

    const [hook] = hooks;
    const signature = hook?.headers['x-portal-signature'];
    expect(typeof signature).toBe('string');
    const fromPortal = documentedWebhookCheck();
    expect(fromPortal(secret, String(signature), hook?.body ?? '')).toBe(true);
    expect(fromPortal(secret, String(signature), `${hook?.body ?? ''} `)).toBe(false);
    expect(JSON.parse(hook?.body ?? '{}')).toMatchObject({
      text: `${title}: ${link}`,
      // The embedded sandbox is the connection named sandbox.
      portal: { event: 'batch.settled', title, link, connection: 'sandbox' },
    });
    expect(hook?.body).not.toContain(run);

    // A new page: the bell says it too, and its link opens the results with the two errors.
    const later = await openPage(recruiter.context);
    await later.goto(`${url}/submissions`);
    const bell = later.getByRole('button', { name: '1 unread notification' });
    await bell.click();
    const entry = later
      .getByRole('region', { name: 'Notifications' })
      .getByRole('link', { name: /settled/ });
    await expect(entry).toHaveText(`Unread: ${title}`);
    await entry.click();
    await expect(later).toHaveURL(link);
    const shown = later.getByRole('region', { name: `Results of batch ${batchId}` });
    await expect(shown.getByRole('status').first()).toHaveText(
      /^All 50 requisitions processed: 48 Success · 2 Error$/,
    );
    for (const reference of failing) await expect(shown).toContainText(reference);

    // Nothing was told twice: still one e-mail and one webhook a moment later.
    await later.waitForTimeout(1500);
    expect(mails).toHaveLength(1);
    expect(hooks).toHaveLength(1);
    await recruiter.context.close();
  } finally {
    await portal.close();
    await new Promise<void>((resolve) => smtp.close(() => resolve()));
    receiver.closeAllConnections();
    await new Promise((resolve) => receiver.close(resolve));
    rmSync(dir, { recursive: true, force: true });
  }
});
