import { expect, test } from './support/fixtures';
import {
  addSkill,
  addToBatch,
  fillRequiredInsert,
  insertData,
  threeSkills,
} from './support/requisitions';

test('a reload in the middle of a form restores it, with a note and a way to discard it', async ({
  page,
}) => {
  const queued = insertData('Queued');
  await page.goto('/requisitions/new');
  await fillRequiredInsert(page, queued);
  await addToBatch(page);

  await page.getByLabel(/^Job title/).fill('Half-typed title');
  await page.getByLabel(/^Client internal req/).fill('DRAFT-1');
  await page.getByRole('radio', { name: 'By first and last name' }).nth(1).check();
  await page.getByLabel(/^Requisition owner first name/).fill('Maria');
  await addSkill(page, 1, threeSkills[0]!);
  await page.reload();

  await expect(page.getByText('Draft restored.')).toBeVisible();
  await expect(page.getByLabel(/^Job title/)).toHaveValue('Half-typed title');
  await expect(page.getByLabel(/^Client internal req/)).toHaveValue('DRAFT-1');
  await expect(page.getByLabel(/^Requisition owner first name/)).toHaveValue('Maria');
  await expect(
    page.getByRole('group', { name: 'Skill 1', exact: true }).getByLabel(/description/),
  ).toHaveValue('Java 17 and Spring Boot');
  // The tray survived too.
  const tray = page.getByRole('region', { name: 'Batch to send' });
  await expect(tray.getByRole('listitem')).toContainText(queued.reference);

  await page.getByRole('button', { name: 'Discard draft' }).click();
  const dialog = page.getByRole('dialog', { name: 'Discard this draft?' });
  await dialog.getByRole('button', { name: 'Discard draft' }).click();
  await expect(page.getByLabel(/^Job title/)).toHaveValue('');
  await expect(page.getByText('Draft restored.')).toHaveCount(0);
  await page.reload();
  await expect(page.getByLabel(/^Job title/)).toHaveValue('');
  await expect(tray.getByRole('listitem')).toHaveCount(1);
});

test('Edit loads a tray item into the form, and Update replaces it in place', async ({ page }) => {
  const first = insertData('First');
  const second = insertData('Second');
  await page.goto('/requisitions/new');
  await fillRequiredInsert(page, first);
  await addToBatch(page);
  await fillRequiredInsert(page, second);
  await addToBatch(page);

  const tray = page.getByRole('region', { name: 'Batch to send' });
  await tray.getByRole('button', { name: `Edit item 1, ${first.reference}` }).click();
  await expect(page.getByRole('heading', { name: 'Edit requisition', level: 1 })).toBeVisible();
  await expect(page.getByLabel(/^Job title/)).toHaveValue(first.title);
  await page.getByLabel(/^Job title/).fill(`${first.title} (changed)`);
  await page.getByRole('button', { name: 'Update item 1 in the batch' }).click();

  const items = tray.getByRole('listitem');
  await expect(items).toHaveCount(2);
  await expect(items.nth(0)).toContainText(`${first.title} (changed)`);
  await expect(items.nth(1)).toContainText(second.title);

  // Duplicate makes a copy that cannot be sent as is: the same client internal req twice.
  await tray.getByRole('button', { name: `Duplicate item 2, ${second.reference}` }).click();
  await expect(items).toHaveCount(3);
  await expect(items.nth(2)).toContainText('Needs fixing');
  await expect(items.nth(2)).toContainText(
    `Item 2 already inserts client internal req “${second.reference}”`,
  );
  await expect(tray.getByRole('button', { name: /^Send batch/ })).toBeDisabled();
  await tray.getByRole('button', { name: `Remove item 3, ${second.reference}` }).click();
  await expect(items).toHaveCount(2);
  await expect(tray.getByRole('button', { name: /^Send batch/ })).toBeEnabled();
});
