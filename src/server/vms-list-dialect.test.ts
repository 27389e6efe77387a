import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { portalConfigSchema } from '@/domain/portal-config';
import { listTotalHeader } from '@/domain/vms-contract';
import { exampleProfileFile } from '@/test-support/doctor-target';
import { loadConfig } from './config';
import { startPortal, type RunningPortal } from './start';

/*
 * The portal against a VMS whose list speaks another dialect in each way a profile's list keys
 * describe, played by the embedded sandbox in that profile: the documented example's paging and
 * filter names, with operator words (eq, ge…), camelCase record fields and the count of all
 * records at /meta/total. The browser's API must see the interface's own list, and the count.
 */

const orgs = 'Client_Org_Id=1001&Vendor_Org_Id=9001';
let portal: RunningPortal;
let dir: string;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'portal-list-dialect-'));
  const example = JSON.parse(readFileSync(exampleProfileFile, 'utf8')) as {
    list: Record<string, unknown> & { filter: Record<string, unknown> };
  };
  const profileFile = join(dir, 'profile.json');
  writeFileSync(
    profileFile,
    JSON.stringify({
      ...example,
      list: {
        ...example.list,
        fieldNames: 'camelCase',
        total: '/meta/total',
        fullReadEvery: { refreshes: 5, minutes: 120 },
        // Pages of 5: the portal reads several, and the count is of all of them.
        paging: { style: 'page', page: 'page', size: 'per_page', firstPage: 1, pageSize: 5 },
        filter: {
          ...example.list.filter,
          operators: { '=': 'eq', '>': 'gt', '>=': 'ge', '<': 'lt', '<=': 'le' },
        },
      },
    }),
  );
  const config = loadConfig({
    PORT: '0',
    SANDBOX_PORT: '0',
    SANDBOX_DB: join(dir, 'sandbox.db'),
    PORTAL_DB: join(dir, 'portal.db'),
    VMS_PROFILE: profileFile,
    LOG_LEVEL: 'silent',
  });
  portal = await startPortal(config, { sandbox: { processingDelayMs: 0 } });
});

afterAll(async () => {
  await portal.close();
  rmSync(dir, { recursive: true, force: true });
});

async function list(query: string) {
  const res = await request(`${portal.url}/api/vms/requisitions?${orgs}${query}`);
  const text = await res.body.text();
  expect(res.statusCode, text).toBe(200);
  return {
    records: JSON.parse(text) as Array<Record<string, string>>,
    total: res.headers[listTotalHeader],
  };
}

describe('a list in another dialect, through the proxy', () => {
  it('reads camelCase records in the interface’s names, and hands on the VMS’s count', async () => {
    const whole = await list('');
    expect(whole.records.length).toBeGreaterThan(5);
    expect(whole.total).toBe(String(whole.records.length));
    const seeded = whole.records.find((record) => record.Req_Id === '40001');
    expect(seeded?.TitleRole).toMatch(/\S/);
    expect(seeded?.NoOfOpenings).toMatch(/^\d+$/);
  });

  it('writes the filter’s operators as the VMS’s words, and the count stays that of all records', async () => {
    const whole = await list('');
    const ids = whole.records.map((record) => Number(record.Req_Id)).sort((a, b) => a - b);
    const from = ids[2] ?? 0;
    const filtered = await list(
      `&filterfield=Req_Id&filteroperator=${encodeURIComponent('>=')}&filtervalue=${from}`,
    );
    expect(filtered.records.map((record) => Number(record.Req_Id))).toEqual(
      ids.filter((id) => id >= from),
    );
    expect(filtered.total).toBe(String(ids.length));
  });

  it('tells the browser how often its copy is read whole', async () => {
    const res = await request(`${portal.url}/api/config`);
    const config = portalConfigSchema.parse(await res.body.json());
    expect(config.fullReadEvery).toEqual({ refreshes: 5, minutes: 120 });
    expect(config.connections[0]?.fullReadEvery).toEqual({ refreshes: 5, minutes: 120 });
  });
});
