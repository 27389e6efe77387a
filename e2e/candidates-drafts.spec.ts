import * as steps from './support/candidates';
import { expect, test } from './support/fixtures';

test('a candidate draft and the candidate batch survive a reload', async ({ page }) => {
  await steps.openCandidateForm(page, '40001');
  const data = steps.candidateData('Ada');
  await steps.fillCandidate(page, data);
  await page.getByLabel(/^Answer to question 2/).fill('From March.');
  await page.reload();

  await expect(page.getByText('Draft restored.')).toBeVisible();
  await expect(page.getByLabel(/^E-mail/)).toHaveValue(data.email);
  await expect(page.getByLabel(/^Answer to question 2/)).toHaveValue('From March.');

  await steps.addCandidateToBatch(page);
  await page.reload();
  const tray = page.getByRole('complementary', { name: 'Batch' });
  await expect(tray.getByRole('listitem')).toHaveCount(1);
  await expect(tray).toContainText(data.email);
  await expect(page.getByText('Draft restored.')).toHaveCount(0);

  // Edit brings the item back into its requisition's form.
  await tray.getByRole('button', { name: /^Edit item 1/ }).click();
  await expect(page.getByLabel(/^E-mail/)).toHaveValue(data.email);
  await expect(page.getByRole('button', { name: 'Update item 1 in the batch' })).toBeVisible();
});
