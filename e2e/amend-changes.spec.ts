import type { Page } from '@playwright/test';
import { colleagueAmends } from './support/colleague';
import { expect, test } from './support/fixtures';
import { addToBatch, fetchRequisition, formJson, sendBatch } from './support/requisitions';

// An Amend sends what the user changed, and only that; it knows when the requisition
// moved since it was loaded. 40012 is seeded Open with 2 openings… see docs/sandbox.md.

async function openAmend(page: Page, reqId: string) {
  await page.goto(`/requisitions/amend/${reqId}`);
  await expect(page.getByRole('heading', { name: `Amend requisition ${reqId}` })).toBeVisible();
  await expect(page.getByLabel(/^Job title/)).not.toHaveValue('');
}

test('a colleague’s change to another field is kept beside the user’s own change', async ({
  page,
}) => {
  const before = await fetchRequisition(page, '40012');
  await openAmend(page, '40012');

  // Meanwhile a colleague changes the number of openings in the VMS.
  const openings = String(Number(before?.NoOfOpenings ?? '1') + 3);
  await colleagueAmends(page, 'NW-REQ-0012', { noofopenings: openings });

  await page.getByLabel(/^Job title/).fill('Senior Mobile Developer');
  await addToBatch(page);
  const tray = page.getByRole('region', { name: 'Batch to send' });
  await expect(tray.getByRole('list', { name: /^Changes in item 1/ })).toContainText(
    'Job title: “Mobile Developer” → “Senior Mobile Developer”',
  );
  await sendBatch(page);
  await expect(
    page.getByText(/Requisition 40012 was changed in the VMS since you loaded it/),
  ).toContainText(`Number of openings “${before?.NoOfOpenings}” → “${openings}”`);
  const results = page.getByRole('region', { name: /^Results of batch/ });
  await expect(results.getByRole('row').nth(1).getByText('Success', { exact: true })).toBeVisible();

  expect(await fetchRequisition(page, '40012')).toMatchObject({
    TitleRole: 'Senior Mobile Developer',
    NoOfOpenings: openings,
  });
});

test('an owner change on its own takes effect', async ({ page }) => {
  const before = await fetchRequisition(page, '40012');
  const newOwner = before?.ReqOwnerId === 'dchen' ? 'pokafor' : 'dchen';
  await openAmend(page, '40012');
  await page.getByLabel(/^Requisition owner ID/).fill(newOwner);
  await addToBatch(page);
  await sendBatch(page);
  const results = page.getByRole('region', { name: /^Results of batch/ });
  await expect(results.getByRole('row').nth(1).getByText('Success', { exact: true })).toBeVisible();
  const after = await fetchRequisition(page, '40012');
  expect(after?.ReqOwnerId).toBe(newOwner);
  // Nothing else moved.
  expect(after?.TitleRole).toBe(before?.TitleRole);
  expect(after?.ClientContactId).toBe(before?.ClientContactId);
});

test('the JSON of a one-field Amend has that field alone beside the three identifying keys', async ({
  page,
}) => {
  await openAmend(page, '40012');
  await page.getByLabel(/^Status/).selectOption({ label: 'On Hold (9)' });
  const json = await formJson(page);
  const filled = Object.fromEntries(Object.entries(json).filter(([, value]) => value !== ''));
  expect(filled).toEqual({
    requesttype: 'A',
    orgid: '1001',
    clientinternalreq: 'NW-REQ-0012',
    reqstatus: '9',
  });
  expect(Object.keys(json)).toHaveLength(129);
});

test('emptying a field on Amend is said not to clear it', async ({ page }) => {
  await openAmend(page, '40012');
  await page.getByLabel(/^Job title/).fill('');
  await expect(
    page.getByText(
      'An Amend cannot empty a field: left blank, it stays “Mobile Developer” in the VMS.',
    ),
  ).toBeVisible();
  // The note describes the field for assistive technology too.
  await expect(page.getByLabel(/^Job title/)).toHaveAccessibleDescription(
    /An Amend cannot empty a field: left blank, it stays “Mobile Developer”/,
  );
  const json = await formJson(page);
  expect(json.titlerole).toBe('');
});

test('a field both changed is held until the user picks a value', async ({ page }) => {
  await openAmend(page, '40012');
  await page.getByLabel(/^Job title/).fill('Lead Mobile Developer');
  await addToBatch(page);

  await colleagueAmends(page, 'NW-REQ-0012', { titlerole: 'Principal Mobile Engineer' });

  await page.getByRole('button', { name: /^Send batch/ }).click();
  const tray = page.getByRole('region', { name: 'Batch to send' });
  await expect(tray.getByText('The batch was not sent')).toBeVisible();
  const decision = tray.getByRole('group', { name: /^Decide changes for item 1/ });
  await expect(decision).toContainText('yours “Lead Mobile Developer”');
  await expect(decision).toContainText('now in the VMS “Principal Mobile Engineer”');
  await expect(decision).toContainText('was “Mobile Developer”');
  // Nothing left while it was held.
  expect((await fetchRequisition(page, '40012'))?.TitleRole).toBe('Principal Mobile Engineer');

  await decision.getByRole('button', { name: 'Keep mine' }).click();
  await expect(decision).toHaveCount(0);
  await sendBatch(page);
  const results = page.getByRole('region', { name: /^Results of batch/ });
  await expect(results.getByRole('row').nth(1).getByText('Success', { exact: true })).toBeVisible();
  expect((await fetchRequisition(page, '40012'))?.TitleRole).toBe('Lead Mobile Developer');
});

test('rule 6: an owner change sent with a contact change is split so both take effect', async ({
  page,
}) => {
  await openAmend(page, '40012');
  await page.getByLabel(/^Requisition owner ID/).fill('pokafor');
  await page.getByLabel(/^Client contact ID/).fill('mreyes');
  await addToBatch(page);
  const tray = page.getByRole('region', { name: 'Batch to send' });
  await expect(tray).toContainText('so this Amend would keep the old owner');
  await tray.getByRole('button', { name: 'Send the owner change as a second Amend' }).click();
  await expect(
    tray.getByRole('listitem').filter({ has: page.getByRole('button', { name: /^Edit/ }) }),
  ).toHaveCount(2);
  await sendBatch(page);
  const results = page.getByRole('region', { name: /^Results of batch/ });
  await expect(results.getByText('Success', { exact: true })).toHaveCount(2);
  expect(await fetchRequisition(page, '40012')).toMatchObject({
    ReqOwnerId: 'pokafor',
    ClientContactId: 'mreyes',
  });
});
