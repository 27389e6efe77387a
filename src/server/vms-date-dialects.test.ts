import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { VmsProfile } from '@/domain/vms-profile';
import { signRequest } from '@/node/signature';
import { sandboxDemo } from '@/sandbox/index';
import { requisitionInsert } from '@/test-support/test-data';
import { loadConfig } from './config';
import { startPortal, type RunningPortal } from './start';

/*
 * The portal against VMSs that write dates their own way, each played by the embedded sandbox in
 * that profile: one that writes the day first, and one with a 12-hour clock in New York's local
 * time. The seeded requisition 40001 was created 2026-01-05 09:00 UTC and last updated
 * 2026-03-02 14:30 UTC, and starts 2027-01-11; the browser's API must see exactly those,
 * whatever the VMS wrote.
 */

const orgs = 'Client_Org_Id=1001&Vendor_Org_Id=9001';

interface Running {
  portal: RunningPortal;
  profile: VmsProfile;
  dir: string;
}

async function start(dates: Record<string, string>): Promise<Running> {
  const dir = mkdtempSync(join(tmpdir(), 'portal-dates-'));
  const profileFile = join(dir, 'profile.json');
  writeFileSync(profileFile, JSON.stringify({ preset: 'sandbox', dates }));
  const config = loadConfig({
    PORT: '0',
    SANDBOX_PORT: '0',
    SANDBOX_DB: join(dir, 'sandbox.db'),
    PORTAL_DB: join(dir, 'portal.db'),
    VMS_PROFILE: profileFile,
    LOG_LEVEL: 'silent',
  });
  const portal = await startPortal(config, { sandbox: { processingDelayMs: 0 } });
  return { portal, profile: config.profile, dir };
}

async function stop(running: Running | undefined): Promise<void> {
  if (!running) return;
  await running.portal.close();
  rmSync(running.dir, { recursive: true, force: true });
}

async function portalJson(running: Running, path: string): Promise<unknown> {
  const res = await request(`${running.portal.url}${path}`);
  const text = await res.body.text();
  expect(res.statusCode, text).toBe(200);
  return JSON.parse(text);
}

/** What the VMS itself answers, straight from the sandbox in its profile. */
async function upstreamJson(running: Running, path: string): Promise<unknown> {
  const { headers } = signRequest(running.profile.signature, {
    apiKey: sandboxDemo.apiKey,
    secret: sandboxDemo.apiSecret,
  });
  const res = await request(`${running.portal.upstreamUrl}/${path}`, { headers });
  return JSON.parse(await res.body.text());
}

type Records = Array<Record<string, string>>;
const seeded = (records: unknown) => (records as Records).find((r) => r.Req_Id === '40001');

async function settledRows(running: Running, batchId: string) {
  for (let attempt = 0; attempt < 100; attempt += 1) {
    const rows = (await portalJson(
      running,
      `/api/vms/requisitionresults?${orgs}&batchid=${batchId}`,
    )) as Array<Record<string, unknown>>;
    if (rows.length > 0 && rows.every((row) => row.Status !== 'Pending')) return rows;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error('results never settled');
}

async function send(running: Running, items: unknown[]) {
  const res = await request(`${running.portal.url}/api/vms/requisitionimport?${orgs}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'idempotency-key': `k-${Math.random()}` },
    body: JSON.stringify(items),
  });
  const { batchid } = JSON.parse(await res.body.text()) as { batchid: string };
  return settledRows(running, batchid);
}

/** The seeded records updated at or after `value`, through the portal's list filter. */
async function updatedSince(running: Running, value: string): Promise<string[]> {
  const records = await portalJson(
    running,
    `/api/vms/requisitions?${orgs}&filterfield=Req_Updated_Date_Time&filteroperator=%3E%3D&filtervalue=${encodeURIComponent(value)}`,
  );
  return (records as Records).map((record) => record.Req_Id ?? '');
}

describe('a VMS that writes the day first', () => {
  let running: Running | undefined;
  beforeAll(async () => {
    running = await start({
      outbound: 'DD/MM/YYYY',
      records: 'DD/MM/YYYY',
      dateTimes: 'DD/MM/YYYY HH:mm:ss',
    });
  });
  afterAll(() => stop(running));

  it('writes its records day first, and the portal reads them as the same dates', async () => {
    const vms = running as Running;
    expect(seeded(await upstreamJson(vms, `requisitions?${orgs}`))).toMatchObject({
      Req_Created_Date_Time: '05/01/2026 09:00:00',
      Req_Updated_Date_Time: '02/03/2026 14:30:00',
      StartDate: '11/01/2027',
    });
    expect(seeded(await portalJson(vms, `/api/vms/requisitions?${orgs}`))).toMatchObject({
      Req_Created_Date_Time: '2026-01-05T09:00:00Z',
      Req_Updated_Date_Time: '2026-03-02T14:30:00Z',
      StartDate: '11/01/2027',
    });
  });

  it('filters by a date-time written day first', async () => {
    const vms = running as Running;
    const since = await updatedSince(vms, '2026-03-02T14:30:00Z');
    expect(since).toContain('40001');
    // A minute later leaves 40001 out: the VMS compared 02/03/2026 14:31:00, not 3 February.
    expect(await updatedSince(vms, '2026-03-02T14:31:00Z')).not.toContain('40001');
  });

  it('takes a day-first DATE and refuses a month-first one', async () => {
    const vms = running as Running;
    const rows = await send(vms, [
      requisitionInsert({ startdate: '21/11/2026', enddate: '31/12/2026' }),
      requisitionInsert({ startdate: '11/21/2026', enddate: '12/31/2026' }),
    ]);
    expect(rows.map((row) => row.Status)).toEqual(['Success', 'Error']);
    expect(rows[1]?.ErrorMessage).toContain('startdate');
  });
});

describe('a VMS with a 12-hour clock in New York', () => {
  let running: Running | undefined;
  beforeAll(async () => {
    running = await start({
      outbound: 'M/D/YYYY',
      records: 'M/D/YYYY',
      dateTimes: 'M/D/YYYY h:mm A',
      timeZone: 'America/New_York',
    });
  });
  afterAll(() => stop(running));

  it('writes local times without an offset, and the portal reads the instants in UTC', async () => {
    const vms = running as Running;
    // New York is five hours behind UTC in winter (EST) until 8 March 2026.
    expect(seeded(await upstreamJson(vms, `requisitions?${orgs}`))).toMatchObject({
      Req_Created_Date_Time: '1/5/2026 4:00 AM',
      Req_Updated_Date_Time: '3/2/2026 9:30 AM',
      StartDate: '1/11/2027',
    });
    expect(seeded(await portalJson(vms, `/api/vms/requisitions?${orgs}`))).toMatchObject({
      Req_Created_Date_Time: '2026-01-05T09:00:00Z',
      Req_Updated_Date_Time: '2026-03-02T14:30:00Z',
      StartDate: '1/11/2027',
    });
  });

  it('filters by a UTC instant the VMS receives as its own local time', async () => {
    const vms = running as Running;
    expect(await updatedSince(vms, '2026-03-02T14:30:00Z')).toContain('40001');
    expect(await updatedSince(vms, '2026-03-02T14:31:00Z')).not.toContain('40001');
  });

  it('takes M/D/YYYY DATEs and refuses a zero-padded one', async () => {
    const vms = running as Running;
    const rows = await send(vms, [
      requisitionInsert({ startdate: '11/2/2026', enddate: '12/31/2026' }),
      requisitionInsert({ startdate: '11/02/2026', enddate: '12/31/2026' }),
    ]);
    expect(rows.map((row) => row.Status)).toEqual(['Success', 'Error']);
  });
});
