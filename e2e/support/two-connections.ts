import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { test as base } from '@playwright/test';
import { profilePresets, readProfile } from '@/domain/vms-profile';
import { sandboxDemo, startSandbox } from '@/sandbox/index';
import { loadConfig } from '@/server/config';
import { startPortal } from '@/server/start';
import { addUser } from '@/test-support/test-browser';

/** The documented example of a VMS unlike the sandbox in every group a profile describes. */
export const otherProfilePath = resolve('docs/examples/profile-other-vms.json');

export const adminEmail = 'ada.admin@example.com';
export const adminPassword = 'correct horse battery staple';

export interface TwoConnections {
  url: string;
}

/**
 * Sign-in on, and two VMS connections: the embedded sandbox, the default, in the portal's own
 * dialect; and "Acme live", flagged production, a second sandbox answering in the other profile
 * (other paths, answer and row shapes, status words, a paged list, MM/DD/YYYY, an HMAC signature
 * with a timestamp header). Both seed the same requisitions, so the same journeys run on each.
 */
export const test = base.extend<{ twoConnections: TwoConnections }>({
  twoConnections: async ({}, use) => {
    const dir = mkdtempSync(join(tmpdir(), 'vms-portal-two-'));
    const reading = readProfile(JSON.parse(readFileSync(otherProfilePath, 'utf8')), profilePresets);
    if ('problems' in reading) throw new Error(reading.problems.join('; '));
    const other = await startSandbox({
      host: '127.0.0.1',
      port: 0,
      dbPath: join(dir, 'live.db'),
      profile: reading.profile,
      dateFormat: reading.profile.dates.outbound,
      processingDelayMs: 50,
    });
    writeFileSync(
      join(dir, 'connections.json'),
      JSON.stringify({
        connections: [
          { name: 'sandbox', label: 'Sandbox', sandbox: true, processingDelayMs: 50 },
          {
            name: 'live',
            label: 'Acme live',
            baseUrl: other.url,
            apiKeyEnv: 'ACME_LIVE_KEY',
            apiSecretEnv: 'ACME_LIVE_SECRET',
            clientOrgs: [
              { id: 1001, name: 'Northwind Health' },
              { id: 1002, name: 'Contoso Retail' },
            ],
            vendorOrgId: 9001,
            profile: otherProfilePath,
            production: true,
          },
        ],
        default: 'sandbox',
      }),
    );
    const portalDb = join(dir, 'portal.db');
    await addUser(portalDb, adminEmail, adminPassword, 'admin');
    const portal = await startPortal(
      loadConfig({
        PORT: '0',
        SANDBOX_PORT: '0',
        SANDBOX_DB: join(dir, 'sandbox.db'),
        PORTAL_DB: portalDb,
        VMS_CONNECTIONS: join(dir, 'connections.json'),
        ACME_LIVE_KEY: sandboxDemo.apiKey,
        ACME_LIVE_SECRET: sandboxDemo.apiSecret,
        AUTH: 'on',
        LOG_LEVEL: 'silent',
      }),
    );
    await use({ url: portal.url });
    await portal.close();
    await other.close();
    rmSync(dir, { recursive: true, force: true });
  },
});
