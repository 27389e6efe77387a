import { expect, type Page } from '@playwright/test';
import { startSandbox } from '@/sandbox/index';
import { runBackupCli, runRestoreCli } from '@/server/cli/backup';
import { startPortal, type RunningPortal } from '@/server/start';
import { journeyTest as test, remotePortalConfig, tempDb } from './support/fixtures';
import { addToBatch, fillRequiredInsert, insertData } from './support/requisitions';

// A portal restored from a backup taken before a batch was sent: the restore lists the batch,
// Submissions marks it, and sending it again with its key is refused rather than reaching the
// VMS a second time.

async function requisitionsWithReference(
  page: Page,
  portalUrl: string,
  reference: string,
): Promise<number> {
  const response = await page.request.get(
    `${portalUrl}/api/vms/requisitions?Client_Org_Id=1001&Vendor_Org_Id=9001&filterfield=Req_Created_Date_Time&filteroperator=%3E%3D&filtervalue=2026-01-01T00:00:00Z`,
  );
  const records = (await response.json()) as Array<{ ClientInternalReq: string }>;
  return records.filter((record) => record.ClientInternalReq === reference).length;
}

function cli(env: NodeJS.ProcessEnv) {
  const out = { stdout: '', stderr: '' };
  return {
    out,
    io: {
      env,
      stdout: (text: string) => (out.stdout += text),
      stderr: (text: string) => (out.stderr += text),
    },
  };
}

test('a batch sent after the backup is listed by the restore, marked in Submissions and never sent again', async ({
  page,
}) => {
  test.setTimeout(90_000);
  const db = tempDb();
  const backupFile = `${db.portalPath}.backup`;
  const sandbox = await startSandbox({ port: 0, dbPath: db.path, processingDelayMs: 50 });
  let portal: RunningPortal | null = null;
  try {
    portal = await startPortal(remotePortalConfig(sandbox.url, db.portalPath));
    const port = new URL(portal.url).port;
    const backup = cli({ PORTAL_DB: db.portalPath });
    expect(await runBackupCli([backupFile], backup.io)).toBe(0);

    // Sent after the backup, through the page; its key and body as they left the browser.
    const sent = page.waitForRequest(
      (request) => request.method() === 'POST' && request.url().includes('/api/vms/'),
    );
    const data = insertData('Backup Administrator');
    await page.goto(`${portal.url}/requisitions/new`);
    await fillRequiredInsert(page, data);
    await addToBatch(page);
    await page.getByRole('button', { name: /^Send batch/ }).click();
    await expect(page.getByRole('heading', { name: 'Batch accepted' })).toBeVisible({
      timeout: 15_000,
    });
    const request = await sent;
    const key = request.headers()['idempotency-key'] ?? '';
    expect(key).not.toBe('');

    await portal.close();
    portal = null;
    const restore = cli({ PORTAL_DB: db.portalPath });
    expect(await runRestoreCli([backupFile], restore.io)).toBe(0);
    expect(restore.out.stderr).toBe('');
    expect(restore.out.stdout).toContain('Sent after the backup was taken (1 batch)');
    expect(restore.out.stdout).toContain(`1 item  key ${key}\n`);

    // The restored portal, at the same address: the browser keeps its Submissions.
    portal = await startPortal(remotePortalConfig(sandbox.url, db.portalPath, { PORT: port }));
    await page.goto(`${portal.url}/submissions`);
    const card = page.getByRole('article').filter({ hasText: '1 requisition' });
    await expect(card).toHaveCount(1);
    await expect(card.getByRole('note')).toContainText(
      'Sent after the backup was taken: check the VMS before sending again.',
    );

    // The same batch sent again with its key is refused, saying why; the VMS holds it once.
    const again = await page.request.post(request.url(), {
      headers: {
        'content-type': 'application/json',
        'idempotency-key': key,
      },
      data: request.postData() ?? '',
    });
    expect(again.status()).toBe(409);
    expect(await again.text()).toContain('sent after the backup was taken');
    expect(await requisitionsWithReference(page, portal.url, data.reference)).toBe(1);
  } finally {
    await portal?.close();
    await sandbox.close();
    db.cleanup();
  }
});
