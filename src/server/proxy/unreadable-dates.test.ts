import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sandboxProfile } from '@/domain/vms-profile';
import { sandboxDemo, startSandbox, type RunningSandbox } from '@/sandbox/index';
import { startTestPortal, testConfig, type TestPortal } from '@/test-support/capture-upstream';
import { tempDbPath } from '@/test-support/sandbox-client';

/*
 * A VMS that writes its record times day first, read through a profile that says month first:
 * every time with a day above 12 cannot be read, and so every other time is in doubt. The portal
 * passes each on as the VMS wrote it (never as another date), counts the records in a metric, and
 * says so in the log once per connection and field, not once per record or per list.
 */

const metricsToken = 'metrics-token-unreadable-7d3e';
let dir: string;
let sandbox: RunningSandbox;
let removeDb: () => void;
let portal: TestPortal;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'portal-unreadable-dates-'));
  const own = sandboxProfile();
  const db = tempDbPath();
  removeDb = db.remove;
  sandbox = await startSandbox({
    port: 0,
    dbPath: db.dbPath,
    processingDelayMs: 0,
    profile: { ...own, dates: { ...own.dates, dateTimes: 'DD/MM/YYYY HH:mm:ss' } },
  });
  const profileFile = join(dir, 'profile.json');
  writeFileSync(
    profileFile,
    JSON.stringify({ preset: 'sandbox', dates: { dateTimes: 'MM/DD/YYYY HH:mm:ss' } }),
  );
  portal = await startTestPortal(
    testConfig(sandbox.url, {
      VMS_API_KEY: sandboxDemo.apiKey,
      VMS_API_SECRET: sandboxDemo.apiSecret,
      VMS_PROFILE: profileFile,
      METRICS_TOKEN: metricsToken,
    }),
  );
});

afterAll(async () => {
  await portal.close();
  await sandbox.close();
  removeDb();
  rmSync(dir, { recursive: true, force: true });
});

describe('record times the profile cannot read', () => {
  it('pass as written, are counted, and are logged once per connection and field', async () => {
    const list = '/api/vms/requisitions?Client_Org_Id=1001&Vendor_Org_Id=9001';
    const records = (await portal.call('GET', list)).json() as Array<Record<string, string>>;
    // 15 March 2026, written 15/03/2026 by the VMS: no month 15, so shown as written.
    const created = records.map((record) => record.Req_Created_Date_Time);
    expect(created).toContain('15/03/2026 07:00:00');
    // 5 January 2026 (05/01/2026) reads month first as 1 May, but the same list's 15/03/2026
    // shows the VMS writes the day first: it too is shown as written, not as 1 May.
    expect(created).toContain('05/01/2026 09:00:00');
    const unreadable = created.filter((value) => !/^\d{4}-/.test(value ?? '')).length;
    expect(unreadable).toBe(records.length);

    await portal.call('GET', list);
    const warnings = portal
      .logLines()
      .filter((line) => line.msg === 'vms record dates not in its profile');
    expect(warnings.map((line) => line.field).sort()).toEqual(['created', 'updated']);
    expect(warnings[0]).toMatchObject({
      connection: 'default',
      setting: 'dates.dateTimes',
      pattern: 'MM/DD/YYYY HH:mm:ss',
    });

    const scrape = await portal.call('GET', '/metrics', {
      headers: { authorization: `Bearer ${metricsToken}` },
    });
    const line = scrape.body
      .toString('utf8')
      .split('\n')
      .find((text) =>
        text.startsWith(
          'vms_portal_vms_unreadable_dates_total{connection="default",field="created"}',
        ),
      );
    // Two list reads, each counting every record whose created time was unreadable.
    expect(Number(line?.split(' ').at(-1))).toBe(2 * unreadable);
  });
});
