import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from '@playwright/test';
import { profilePresets, readProfile } from '@/domain/vms-profile';
import { sandboxDemo, startSandbox, type RunningSandbox } from '@/sandbox/index';
import { loadConfig } from '@/server/config';
import { startPortal } from '@/server/start';
import { journeyTest as test } from './support/fixtures';
import { otherProfilePath } from './support/two-connections';

/*
 * A VMS that ignores the list's filter names (the documented example VMS, which filters by
 * "field", "op" and "value"), reached through a profile that names them as the sandbox does.
 * The list's refresh asks for what changed since the newest update it holds; this VMS answers
 * with everything. The page must not take that for "these changed" and carry on: it reads the
 * whole list from then on, and says why where the list is.
 */

let dir: string;
let other: RunningSandbox;
let portal: Awaited<ReturnType<typeof startPortal>>;

test.beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'vms-portal-refresh-guard-'));
  const example = JSON.parse(readFileSync(otherProfilePath, 'utf8')) as {
    list: { filter: Record<string, string> };
  };
  const reading = readProfile(example, profilePresets);
  if ('problems' in reading) throw new Error(reading.problems.join('; '));
  other = await startSandbox({
    host: '127.0.0.1',
    port: 0,
    dbPath: join(dir, 'vms.db'),
    profile: reading.profile,
    dateFormat: reading.profile.dates.outbound,
    processingDelayMs: 0,
  });
  // The profile as an administrator might write it, right but for the filter's names.
  example.list.filter = { field: 'filterfield', operator: 'filteroperator', value: 'filtervalue' };
  const wrongFilter = join(dir, 'profile.json');
  writeFileSync(wrongFilter, JSON.stringify(example));
  portal = await startPortal(
    loadConfig({
      PORT: '0',
      PORTAL_DB: join(dir, 'portal.db'),
      VMS_BASE_URL: other.url,
      VMS_API_KEY: sandboxDemo.apiKey,
      VMS_API_SECRET: sandboxDemo.apiSecret,
      VMS_CLIENT_ORGS: '1001,1002',
      VMS_VENDOR_ORG_ID: '9001',
      VMS_PRODUCTION: 'off',
      VMS_PROFILE: wrongFilter,
      LOG_LEVEL: 'silent',
    }),
  );
});

test.afterAll(async () => {
  await portal?.close();
  await other?.close();
  rmSync(dir, { recursive: true, force: true });
});

test('a refresh the VMS did not filter is read whole, and the list says why', async ({ page }) => {
  const asked: string[] = [];
  page.on('request', (request) => {
    if (request.url().includes('/api/vms/requisitions')) asked.push(request.url());
  });
  await page.goto(`${portal.url}/requisitions`);
  const status = page.getByRole('status').filter({ hasText: /shown/ });
  await expect(status).toContainText(/\d+ requisitions shown/);
  const shown = (await status.textContent()) ?? '';
  await expect(page.getByText("This VMS's list refresh cannot be trusted")).toHaveCount(0);

  await page.getByRole('button', { name: 'Refresh', exact: true }).click();
  const warning = page.getByRole('alert').filter({ hasText: 'cannot be trusted' });
  await expect(warning).toContainText("it did not apply the list's filter");
  await expect(warning).toContainText('list.filter');
  // Nothing lost or doubled: the same requisitions as the whole first read.
  await expect(status).toHaveText(shown);
  // The refresh asked with a filter, then read the whole list; the next refresh reads it whole.
  await page.getByRole('button', { name: 'Refresh', exact: true }).click();
  await expect(page.getByRole('button', { name: 'Refresh', exact: true })).toBeEnabled();
  await expect(status).toHaveText(shown);
  expect(asked.map((url) => url.includes('filtervalue'))).toEqual([false, true, false, false]);
  await expect(warning).toBeVisible();
});
