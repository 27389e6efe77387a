import { readFile } from 'node:fs/promises';
import type { Page } from '@playwright/test';
import Papa from 'papaparse';
import { expect, test } from './support/fixtures';
import { addToBatch, fillRequiredInsert, insertData, sendBatch } from './support/requisitions';

const refusedClass = /Req class ID \(reqclassid\): 999 is not a req class of org 1001/;

/** Adds a requisition to the batch; `reqClass` 999 passes the form but the VMS refuses it. */
async function addRequisition(page: Page, reqClass = '101') {
  const data = insertData('Fix failed');
  await fillRequiredInsert(page, data);
  await page.getByLabel(/^Req class ID/).fill(reqClass);
  await addToBatch(page);
  return data;
}

test('Fix shows what the VMS said and flags the field it named until the field is changed', async ({
  page,
}) => {
  await page.goto('/requisitions/new');
  await addRequisition(page, '999');
  const results = await sendBatch(page);
  const row = results.getByRole('rowgroup').nth(1).getByRole('row').first();
  await row.getByRole('button', { name: 'Fix row 1' }).click();

  const notice = page.getByText(/^Fixing row 1 of batch/).locator('..');
  await expect(notice).toContainText(refusedClass);
  const reqClass = page.getByLabel(/^Req class ID/);
  // Fix takes the user to what needs fixing: the named field, in view, with the VMS's words.
  await expect(reqClass).toBeFocused();
  await expect(reqClass).toBeInViewport();
  await expect(reqClass).toHaveAttribute('aria-invalid', 'true');
  await expect(reqClass).toHaveAccessibleDescription(
    /The VMS said: Req class ID \(reqclassid\): 999 is not/,
  );
  const summary = page.getByRole('alert').filter({ hasText: 'There is a problem' });
  await expect(
    summary.getByRole('link', { name: /^The VMS said: Req class ID \(reqclassid\): 999/ }),
  ).toBeVisible();

  // Another field changed: the flag stays. The named field changed: it goes, here and above.
  await page.getByLabel(/^Job title/).fill('Fixed title');
  await expect(reqClass).toHaveAttribute('aria-invalid', 'true');
  await reqClass.fill('101');
  await expect(reqClass).not.toHaveAttribute('aria-invalid');
  await expect(summary).toHaveCount(0);

  // Fixed stays fixed: the draft comes back after a reload with the flag gone for good.
  await page.reload();
  await expect(page.getByLabel(/^Req class ID/)).toHaveValue('101');
  await expect(page.getByLabel(/^Req class ID/)).not.toHaveAttribute('aria-invalid');
  await expect(page.getByLabel(/^Req class ID/)).not.toHaveAccessibleDescription(/The VMS said/);
  await expect(summary).toHaveCount(0);
  // Typed back to what the VMS refused, it is flagged again.
  await page.getByLabel(/^Req class ID/).fill('999');
  await expect(page.getByLabel(/^Req class ID/)).toHaveAttribute('aria-invalid', 'true');
});

test('Fix all failed puts every failed row in the batch; corrected and sent once, each is a Success and its row says where it went', async ({
  page,
}) => {
  await page.goto('/requisitions/new');
  await addRequisition(page);
  const refused = [await addRequisition(page, '999'), await addRequisition(page, '999')];
  const first = await sendBatch(page);
  await expect(first.getByRole('status').first()).toHaveText(/1 Success · 2 Error$/);
  const firstBatchId = (
    (await first.getByRole('heading').locator('code').textContent()) ?? ''
  ).trim();

  await first.getByRole('button', { name: 'Fix all failed (2)' }).click();
  const tray = page.getByRole('region', { name: 'Batch to send' });
  const items = tray.getByRole('listitem').filter({ hasText: /^.*Resends row/ });
  await expect(items).toHaveCount(2);
  await expect(items.first()).toContainText(`Resends row 2 of batch ${firstBatchId}`);
  await expect(items.first()).toContainText(refusedClass);
  // As the VMS refused them, they pass the portal's checks but are not ready.
  await expect(items.getByText('Needs your correction', { exact: true })).toHaveCount(2);
  await expect(items.getByText('Ready', { exact: true })).toHaveCount(0);
  // A second click adds nothing twice.
  await first.getByRole('button', { name: 'Fix all failed (2)' }).click();
  await expect(first.getByText(/already in the batch/)).toBeVisible();
  await expect(tray.getByRole('listitem')).toHaveCount(2);

  for (const [index, data] of refused.entries()) {
    await tray.getByRole('button', { name: `Edit item ${index + 1}, ${data.reference}` }).click();
    const reqClass = page.getByLabel(/^Req class ID/);
    await expect(reqClass).toHaveValue('999');
    await expect(reqClass).toHaveAccessibleDescription(
      /The VMS said: Req class ID \(reqclassid\): 999 is not/,
    );
    await reqClass.fill('102');
    await page.getByRole('button', { name: `Update item ${index + 1} in the batch` }).click();
  }
  await expect(items.getByText('Ready', { exact: true })).toHaveCount(2);
  await expect(items.getByText('Needs your correction', { exact: true })).toHaveCount(0);

  const second = await sendBatch(page);
  await expect(second.getByRole('status').first()).toHaveText(
    /^All 2 requisitions processed: 2 Success$/,
  );
  const secondBatchId = (
    (await second.getByRole('heading').locator('code').textContent()) ?? ''
  ).trim();

  // The first batch's failed rows now point at the batch that resent them, and offer no Fix.
  await page
    .getByRole('navigation', { name: 'Main' })
    .getByRole('link', { name: 'Submissions' })
    .click();
  const older = page.getByRole('article').filter({ hasText: firstBatchId });
  await older.getByRole('button', { name: 'Show results' }).click();
  // Its failures were all sent again and succeeded: it reads as done, and no filter calls it failed.
  await expect(
    older.getByText(`2 rows sent again in batch ${secondBatchId}: every item succeeded.`),
  ).toBeVisible();
  const rows = older.getByRole('rowgroup').nth(1).getByRole('row');
  for (const n of [2, 3]) {
    await expect(rows.nth(n - 1)).toContainText(`Resent in batch ${secondBatchId}`);
    await expect(rows.nth(n - 1).getByRole('button', { name: /^Fix/ })).toHaveCount(0);
  }
  await expect(older.getByRole('button', { name: /^Fix all failed/ })).toHaveCount(0);
  await rows.nth(1).getByRole('link', { name: secondBatchId }).click();
  await expect(page).toHaveURL(new RegExp(`/submissions\\?batch=${secondBatchId}$`));
  // The link finds that batch alone, open with its results.
  await expect(page.getByRole('article')).toHaveCount(1);
  await expect(
    page.getByRole('region', { name: `Results of batch ${secondBatchId}` }).getByText('Success', {
      exact: true,
    }),
  ).toHaveCount(2);

  // By outcome, then exported as CSV.
  await page.getByLabel('Batch ID contains').fill('');
  // The first batch's failures were all sent again, and succeeded: nothing needs attention.
  await page.getByLabel('Outcome').selectOption({ label: 'With errors or incomplete items' });
  await expect(page.getByRole('article')).toHaveCount(0);
  await page.getByLabel('Outcome').selectOption({ label: 'Every item succeeded' });
  await expect(page.getByRole('article')).toHaveCount(2);
  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Export these as CSV' }).click();
  const file = await (await download).path();
  // One line per item: its batch and row, what it is, and how the VMS answered it.
  const lines = Papa.parse<string[]>((await readFile(file, 'utf8')).trim()).data;
  expect(lines[0]).toEqual([
    'Batch ID',
    'Row',
    'Kind',
    'Reference',
    'Title',
    'Client org',
    'Sent at',
    'Status',
    'Message',
    'Created ID',
  ]);
  const exported = lines
    .slice(1)
    .map(([batch, row, , reference, , , , status, message, created]) => ({
      batch,
      row,
      reference,
      status,
      message,
      created,
    }));
  expect(exported.map(({ batch, row, status }) => [batch, row, status])).toEqual([
    [secondBatchId, '1', 'Success'],
    [secondBatchId, '2', 'Success'],
    [firstBatchId, '1', 'Success'],
    [firstBatchId, '2', 'Error'],
    [firstBatchId, '3', 'Error'],
  ]);
  expect(exported[1]?.reference).toBe(refused[1]?.reference);
  expect(exported[0]?.created).toMatch(/^\d+$/);
  expect(exported[3]?.message).toMatch(/^Req class ID \(reqclassid\): 999 is not/);
});
