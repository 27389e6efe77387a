import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { main as doctor } from '@/cli/doctor';
import { profilePresets, readProfile } from '@/domain/vms-profile';
import { sandboxDemo, startSandbox, type RunningSandbox } from '@/sandbox/index';
import { loadConfig } from '@/server/config';
import { startPortal } from '@/server/start';
import { addToBatch, fillRequiredInsert, insertData, sendBatch } from './support/requisitions';
import { otherProfilePath } from './support/two-connections';

/*
 * A portal whose profile was drafted from the VMS itself: the sandbox speaks the documented other
 * VMS's dialect (docs/examples/profile-other-vms.json), `npm run doctor -- draft-profile` drafts
 * its profile in one command, and an administrator completes what a draft never sees (the POST
 * side: the import paths, the accepted answer, the results rows) from the VMS's API reference,
 * here the documented example. A recruiter then sends a requisition through that portal, reads
 * its result and finds it in the list.
 */

let dir: string;
let other: RunningSandbox;
let portal: Awaited<ReturnType<typeof startPortal>>;

const vmsEnv = (url: string) => ({
  VMS_BASE_URL: url,
  VMS_API_KEY: sandboxDemo.apiKey,
  VMS_API_SECRET: sandboxDemo.apiSecret,
  VMS_CLIENT_ORGS: '1001,1002',
  VMS_VENDOR_ORG_ID: '9001',
});

test.beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'vms-portal-drafted-'));
  const reference = JSON.parse(readFileSync(otherProfilePath, 'utf8')) as {
    paths: Record<string, string>;
    accepted: unknown;
    results: unknown;
  };
  const reading = readProfile(reference, profilePresets);
  if ('problems' in reading) throw new Error(reading.problems.join('; '));
  other = await startSandbox({
    host: '127.0.0.1',
    port: 0,
    dbPath: join(dir, 'vms.db'),
    profile: reading.profile,
    dateFormat: reading.profile.dates.outbound,
    processingDelayMs: 0,
  });
  const draftFile = join(dir, 'drafted.json');
  const drafted = await doctor(['draft-profile', '--out', draftFile], {
    env: vmsEnv(other.url),
    readStdin: () => Promise.resolve(''),
  });
  expect(drafted.stderr).toBe('');
  expect(drafted.code).toBe(0);
  const draft = JSON.parse(readFileSync(draftFile, 'utf8')) as {
    paths: Record<string, string>;
  };
  // The keys the draft leaves undecided because only a POST shows them, from the API reference.
  const completed = {
    ...draft,
    paths: {
      ...draft.paths,
      requisitionimport: reference.paths.requisitionimport,
      candidates: reference.paths.candidates,
    },
    accepted: reference.accepted,
    results: reference.results,
  };
  const profileFile = join(dir, 'profile.json');
  writeFileSync(profileFile, JSON.stringify(completed));
  portal = await startPortal(
    loadConfig({
      PORT: '0',
      PORTAL_DB: join(dir, 'portal.db'),
      ...vmsEnv(other.url),
      VMS_PRODUCTION: 'off',
      VMS_PROFILE: profileFile,
      LOG_LEVEL: 'silent',
    }),
  );
});

test.afterAll(async () => {
  await portal?.close();
  await other?.close();
  rmSync(dir, { recursive: true, force: true });
});

test('a requisition sent through the drafted profile is created, and its result and record read', async ({
  page,
}) => {
  const data = insertData('Drafted Profile Engineer');
  await page.goto(`${portal.url}/requisitions/new`);
  await expect(page.getByRole('heading', { name: 'New requisition', level: 1 })).toBeVisible();
  await fillRequiredInsert(page, data);
  await addToBatch(page);
  const results = await sendBatch(page);
  const row = results.getByRole('row').nth(1);
  await expect(row.getByText('Success', { exact: true })).toBeVisible();
  const reqId = (await row.getByRole('link', { name: /^\d+$/ }).textContent()) ?? '';
  expect(reqId).toMatch(/^\d+$/);
  // Found in the list by its id: the drafted filter, fields and paging, through the proxy.
  const listed = await page.request.get(
    `${portal.url}/api/vms/requisitions?Client_Org_Id=1001&Vendor_Org_Id=9001&filterfield=Req_Id&filteroperator=%3D&filtervalue=${reqId}`,
  );
  expect(listed.status()).toBe(200);
  expect(await listed.json()).toEqual([
    expect.objectContaining({
      Req_Id: reqId,
      TitleRole: data.title,
      ClientInternalReq: data.reference,
    }),
  ]);
});
