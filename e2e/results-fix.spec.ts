import { expect, test } from './support/fixtures';
import { addToBatch, fillRequiredInsert, insertData, sendBatch } from './support/requisitions';

test('an item the VMS refuses shows its error, and Fix loads it back into the form', async ({
  page,
}) => {
  const data = insertData('Refused');
  await page.goto('/requisitions/new');
  await fillRequiredInsert(page, data);
  // Valid locally, but not a req class of org 1001: only the VMS can tell.
  await page.getByLabel(/^Req class ID/).fill('999');
  await addToBatch(page);
  const results = await sendBatch(page);

  const row = results.getByRole('row').nth(1);
  await expect(row.getByText('Error', { exact: true })).toBeVisible();
  await expect(row).toContainText(
    /Req class ID \(reqclassid\): 999 is not a req class of org 1001/,
  );

  await row.getByRole('button', { name: 'Fix row 1' }).click();
  await expect(page.getByText(/^Fixing row 1 of batch/)).toBeVisible();
  await expect(page.getByLabel(/^Job title/)).toHaveValue(data.title);
  await expect(page.getByLabel(/^Req class ID/)).toHaveValue('999');
  await page.getByLabel(/^Req class ID/).fill('101');
  await addToBatch(page);
  const again = await sendBatch(page);
  await expect(again.getByRole('row').nth(1).getByText('Success', { exact: true })).toBeVisible();

  // Both batches are in the history, the refused one with its outcome.
  await page
    .getByRole('navigation', { name: 'Main' })
    .getByRole('link', { name: 'Submissions' })
    .click();
  await expect(page.getByRole('article')).toHaveCount(2);
  await expect(page.getByRole('article').nth(1)).toContainText('1 Error');
});
