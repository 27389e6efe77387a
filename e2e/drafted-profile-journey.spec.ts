import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from '@playwright/test';
import { main as doctor } from '@/cli/doctor';
import { profilePresets, readProfile, sandboxProfile, type VmsProfile } from '@/domain/vms-profile';
import { sandboxDemo, startSandbox, type RunningSandbox } from '@/sandbox/index';
import { loadConfig } from '@/server/config';
import { startPortal } from '@/server/start';
import { addCandidateToBatch, candidateData, fillCandidate } from './support/candidates';
import { journeyTest as test } from './support/fixtures';
import { addToBatch, fillRequiredInsert, insertData, sendBatch } from './support/requisitions';
import { otherProfilePath } from './support/two-connections';

/*
 * A portal whose profile was drafted from the VMS itself, in one command, and used as drafted:
 * `npm run doctor -- draft-profile --send-test-requisition --yes` against a sandbox speaking the
 * documented other VMS's dialect (docs/examples/profile-other-vms.json), and against one writing
 * its dates day first. Nothing is completed by hand: the POST side (import paths, the accepted
 * answer, the results rows) comes from the draft's own test requisition and test candidate. A
 * recruiter then sends a requisition through that portal, reads its result, finds it in the
 * list, and submits a candidate to it and reads that result too.
 */

const vmsEnv = (url: string) => ({
  VMS_BASE_URL: url,
  VMS_API_KEY: sandboxDemo.apiKey,
  VMS_API_SECRET: sandboxDemo.apiSecret,
  VMS_CLIENT_ORGS: '1001,1002',
  VMS_VENDOR_ORG_ID: '9001',
  VMS_PRODUCTION: 'off',
});

function otherVms(): VmsProfile {
  const reading = readProfile(JSON.parse(readFileSync(otherProfilePath, 'utf8')), profilePresets);
  if ('problems' in reading) throw new Error(reading.problems.join('; '));
  return reading.profile;
}

function dayFirstVms(): VmsProfile {
  const own = sandboxProfile('DD/MM/YYYY');
  return { ...own, dates: { ...own.dates, dateTimes: 'DD/MM/YYYY HH:mm:ss' } };
}

for (const [name, speaks] of [
  ['the documented other VMS', otherVms],
  ['a VMS writing dates day first', dayFirstVms],
] as const) {
  test.describe(`a profile drafted from ${name}`, () => {
    let dir: string;
    let vms: RunningSandbox;
    let portal: Awaited<ReturnType<typeof startPortal>>;

    test.beforeAll(async () => {
      dir = mkdtempSync(join(tmpdir(), 'vms-portal-drafted-'));
      const profile = speaks();
      vms = await startSandbox({
        host: '127.0.0.1',
        port: 0,
        dbPath: join(dir, 'vms.db'),
        profile,
        dateFormat: profile.dates.outbound,
        // A little wait per item, as a real VMS's queue: the draft sees the pending word.
        processingDelayMs: 100,
      });
      const draftFile = join(dir, 'drafted.json');
      const drafted = await doctor(
        ['draft-profile', '--send-test-requisition', '--yes', '--out', draftFile],
        { env: vmsEnv(vms.url), readStdin: () => Promise.resolve('') },
      );
      expect(drafted.stderr).toBe('');
      expect(drafted.code).toBe(0);
      // Used as drafted: the POST side was proved by the draft's own test batches.
      const { $evidence: evidence } = JSON.parse(readFileSync(draftFile, 'utf8')) as {
        $evidence: Record<string, string>;
      };
      for (const key of [
        'paths.requisitionimport',
        'paths.candidates',
        'accepted',
        'results.requisition',
        'results.candidate',
      ]) {
        expect(evidence[key], key).toMatch(/^proved: /);
      }
      portal = await startPortal(
        loadConfig({
          PORT: '0',
          PORTAL_DB: join(dir, 'portal.db'),
          ...vmsEnv(vms.url),
          VMS_PROFILE: draftFile,
          LOG_LEVEL: 'silent',
        }),
      );
    });

    test.afterAll(async () => {
      await portal?.close();
      await vms?.close();
      rmSync(dir, { recursive: true, force: true });
    });

    test('a requisition and a candidate to it are created, and their results and record read', async ({
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

      // A candidate to it: the drafted candidate import path and its results rows.
      await page.goto(`${portal.url}/candidates?reqId=${reqId}`);
      await expect(
        page.getByRole('heading', { level: 1, name: `Submit a candidate to requisition ${reqId}` }),
      ).toBeVisible();
      await fillCandidate(page, candidateData('Ada'));
      await addCandidateToBatch(page);
      const candidates = await sendBatch(page);
      const candidate = candidates.getByRole('row').nth(1);
      await expect(candidate.getByText('New', { exact: true })).toBeVisible();
      await expect(candidate.getByRole('cell').nth(3)).toHaveText(/^Candidate ID \d+$/);
    });
  });
}
