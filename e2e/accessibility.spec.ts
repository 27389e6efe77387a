import { expect, expectNoAxeViolations, test } from './support/fixtures';
import { addToBatch, fillRequiredInsert, insertData, sendBatch } from './support/requisitions';

test('axe finds no violations on the list, the form and the submissions page', async ({ page }) => {
  // axe on the 6,000 px form takes 5–10 s when the 2 cores are busy.
  test.setTimeout(90_000);
  await page.goto('/requisitions');
  await expect(page.getByRole('region', { name: 'Requisitions' }).getByRole('row')).not.toHaveCount(
    0,
  );
  await expectNoAxeViolations(page);

  await page.goto('/requisitions/amend/40001');
  await expect(page.getByLabel(/^Job title/)).toHaveValue('Senior Java Developer');
  await expectNoAxeViolations(page);

  await page.goto('/requisitions/new');
  await fillRequiredInsert(page, insertData());
  await addToBatch(page);
  await page.getByText(/^JSON to be sent/).click();
  await expectNoAxeViolations(page);
  const results = await sendBatch(page);
  await expect(results.getByText('Success', { exact: true })).toBeVisible();

  await page
    .getByRole('navigation', { name: 'Main' })
    .getByRole('link', { name: 'Submissions' })
    .click();
  await expect(page.getByRole('article').getByText('Success', { exact: true })).toBeVisible();
  await expectNoAxeViolations(page);

  await page
    .getByRole('navigation', { name: 'Main' })
    .getByRole('link', { name: 'Settings' })
    .click();
  await expect(page.getByRole('heading', { name: 'Settings', level: 1 })).toBeVisible();
  await expectNoAxeViolations(page);
});

test('works at 390 px wide: nothing overflows the page sideways', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  const fitsWidth = () =>
    page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth);

  await page.goto('/requisitions');
  await expect(page.getByRole('region', { name: 'Requisitions' })).toBeVisible();
  expect(await fitsWidth()).toBe(true);

  await page.goto('/requisitions/new');
  await page.getByRole('button', { name: 'Add a skill' }).click();
  await page.getByRole('button', { name: 'Add to batch' }).click();
  await expect(page.getByRole('heading', { name: 'There is a problem' })).toBeVisible();
  expect(await fitsWidth()).toBe(true);
  await expectNoAxeViolations(page);
});

test('on a phone, Send in the bar at the foot of the screen takes the view and focus to the batch’s results', async ({
  page,
}) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto('/requisitions/new');
  await fillRequiredInsert(page, insertData('Phone sender'));
  await addToBatch(page);
  await page.locator('.tray-bar').getByRole('button', { name: 'Send' }).click();
  const results = page.getByRole('region', { name: 'Batch just sent' });
  await expect(results).toBeFocused();
  await expect(results).toBeInViewport();
  await expect(results.getByRole('status').first()).toHaveText(
    'All 1 requisition processed: 1 Success',
    { timeout: 30_000 },
  );
});

test('the sandbox is announced, and the org context is always visible', async ({ page }) => {
  await page.goto('/submissions');
  await expect(
    page.getByText(/^Sandbox\. This portal talks to the embedded sandbox VMS/),
  ).toBeVisible();
  const header = page.getByRole('banner');
  await expect(header.getByLabel('Client org')).toHaveValue('1001');
  await expect(header).toContainText('Vendor org 9001');
  // Client orgs go by their names (the sandbox supplies them), not bare numbers.
  await expect(header.getByLabel('Client org').locator('option')).toHaveText([
    '1001 · Northwind Health',
    '1002 · Contoso Manufacturing',
  ]);

  // Another client org has its own requisitions (and its own batch and drafts).
  await header.getByLabel('Client org').selectOption('1002 · Contoso Manufacturing');
  await page
    .getByRole('navigation', { name: 'Main' })
    .getByRole('link', { name: 'Requisitions' })
    .click();
  await expect(page.getByRole('row', { name: /CM-2026-101/ })).toBeVisible();
  await expect(
    page.getByText(/^Requisitions of client org 1002 · Contoso Manufacturing/),
  ).toBeVisible();
  await expect(page.getByRole('row', { name: /NW-REQ-0001/ })).toHaveCount(0);
});
