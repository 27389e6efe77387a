import Database from 'better-sqlite3';
import { request } from 'undici';
import { afterEach, describe, expect, it } from 'vitest';
import { computeSignature, unixSeconds } from '@/node/signature';
import { sandboxDemo, startSandbox } from '@/sandbox/index';
import { portalSchemaVersion } from '@/server/portal-schema';
import { tempDbPath } from '@/test-support/sandbox-client';
import { requisitionInsert } from '@/test-support/test-data';
import { loadConfig } from './config';
import { startPortal, type RunningPortal } from './start';

// Under `npm start` the sandbox runs inside the portal's process. A full disk
// in its batch worker must leave the portal up, say "degraded" in /api/health, and lose nothing.

const temp = tempDbPath();
let portal: RunningPortal | undefined;

afterEach(async () => {
  await portal?.close();
  temp.remove();
});

const orgs = 'Client_Org_Id=1001&Vendor_Org_Id=9001';

async function json(url: string): Promise<unknown> {
  const res = await request(url);
  return res.body.json();
}

describe('the embedded sandbox on a full disk', () => {
  it('keeps the portal up, says degraded, and keeps the items Pending', async () => {
    // Store a batch whose items are still Pending (the first sandbox never gets to them).
    const first = await startSandbox({ port: 0, dbPath: temp.dbPath, processingDelayMs: 60_000 });
    const long = 'Maintains and extends the billing platform. '.repeat(90);
    const items = Array.from({ length: 6 }, () => requisitionInsert({ completedescription: long }));
    const posted = await request(`${first.url}/requisitionimport?${orgs}`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'x-api-key': sandboxDemo.apiKey,
        'x-signature': computeSignature(sandboxDemo.apiKey, sandboxDemo.apiSecret, unixSeconds()),
      },
      body: JSON.stringify(items),
    });
    const { batchid } = (await posted.body.json()) as { batchid: string };
    await first.close();
    const file = new Database(temp.dbPath);
    const pages = Number(file.pragma('page_count', { simple: true }));
    file.close();

    // The portal's own sandbox resumes the batch with no room left to write its records.
    portal = await startPortal(
      loadConfig({
        PORT: '0',
        SANDBOX_PORT: '0',
        SANDBOX_DB: temp.dbPath,
        PORTAL_DB: ':memory:',
        LOG_LEVEL: 'silent',
      }),
      { sandbox: { processingDelayMs: 0, maxDatabasePages: pages, retryDelayMs: 20 } },
    );
    let health: unknown;
    for (let i = 0; i < 200; i += 1) {
      health = await json(`${portal.url}/api/health`);
      if ((health as { status: string }).status === 'degraded') break;
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    expect(health).toEqual({
      status: 'degraded',
      database: { kind: 'sqlite', schemaVersion: portalSchemaVersion },
      reasons: [expect.stringMatching(/^sandbox batch worker: storage failed \(.*full/)],
    });

    // Still answering, and the items wait rather than fail.
    await new Promise((resolve) => setTimeout(resolve, 200));
    const rows = (await json(
      `${portal.url}/api/vms/requisitionresults?${orgs}&batchid=${batchid}`,
    )) as Array<{ Status: string }>;
    expect(rows).toHaveLength(6);
    expect(rows.map((row) => row.Status)).not.toContain('Error');
    expect(rows.map((row) => row.Status)).toContain('Pending');
  });
});
