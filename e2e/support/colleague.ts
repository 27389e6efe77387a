import type { Page } from '@playwright/test';
import { expect } from '@playwright/test';
import { blankRequisitionWire } from '@/domain';

const orgs = 'Client_Org_Id=1001&Vendor_Org_Id=9001';
/** A batch taken: the sandbox's own 202, or 200 from a VMS whose profile says so (accepted.statuses). */
const accepted = [200, 202];

/**
 * Another user of the VMS amends a requisition while our user has it open: a real Amend through
 * the portal's proxy to the sandbox, waited for until the VMS has processed it.
 */
export async function colleagueAmends(
  page: Page,
  clientInternalReq: string,
  changes: Record<string, string>,
): Promise<void> {
  const item = {
    ...blankRequisitionWire(),
    requesttype: 'A',
    orgid: '1001',
    clientinternalreq: clientInternalReq,
    ...changes,
  };
  const posted = await page.request.post(`/api/vms/requisitionimport?${orgs}`, {
    data: [item],
    headers: { 'content-type': 'application/json' },
  });
  expect(accepted).toContain(posted.status());
  const { batchid } = (await posted.json()) as { batchid: string };
  await expect
    .poll(async () => {
      const rows = (await (
        await page.request.get(`/api/vms/requisitionresults?${orgs}&batchid=${batchid}`)
      ).json()) as Array<{ Status: string }>;
      return rows[0]?.Status;
    })
    .toBe('Success');
}

/** Inserts requisitions straight through the proxy (another user's work), waiting for Success. */
export async function insertRequisitions(
  page: Page,
  items: ReadonlyArray<Record<string, string>>,
): Promise<string[]> {
  const posted = await page.request.post(`/api/vms/requisitionimport?${orgs}`, {
    data: items,
    headers: { 'content-type': 'application/json' },
  });
  expect(accepted).toContain(posted.status());
  const { batchid } = (await posted.json()) as { batchid: string };
  let rows: Array<{ Status: string; Req_Id: string }> = [];
  await expect
    .poll(async () => {
      rows = (await (
        await page.request.get(`/api/vms/requisitionresults?${orgs}&batchid=${batchid}`)
      ).json()) as Array<{ Status: string; Req_Id: string }>;
      return rows.map((row) => row.Status);
    })
    .toEqual(items.map(() => 'Success'));
  return rows.map((row) => row.Req_Id);
}
