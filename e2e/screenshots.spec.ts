import type { Page, TestInfo } from '@playwright/test';
import { expect, test } from './support/fixtures';
import { requisitionsCsv } from './support/import-files';
import { addToBatch, fillRequiredInsert, insertData, sendBatch } from './support/requisitions';

/**
 * The pictures in docs/ui.md, drawn by this run: written to docs/screenshots with SCREENSHOTS=1
 * (`SCREENSHOTS=1 npx playwright test e2e/screenshots.spec.ts`), otherwise to the test's output
 * folder, so a plain run checks the same pages without touching the tree.
 */
const shot = async (page: Page, info: TestInfo, name: string) =>
  page.screenshot({
    path:
      process.env.SCREENSHOTS === '1'
        ? `docs/screenshots/${name}.png`
        : info.outputPath(`${name}.png`),
    animations: 'disabled',
  });

test('the pages docs/ui.md shows', async ({ page }, info) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto('/requisitions?status=4,5');
  await expect(
    page.getByRole('group', { name: 'Status' }).getByRole('button', { name: /^Open/ }),
  ).toHaveAttribute('aria-pressed', 'true');
  // The picture shows the list, not its loading line: the sandbox's 40001 is Open.
  await expect(
    page
      .getByRole('region', { name: 'Requisitions' })
      .getByRole('row')
      .filter({ has: page.getByRole('cell', { name: '40001', exact: true }) }),
  ).toBeVisible();
  await shot(page, info, 'list');

  await page.goto('/requisitions/new');
  await fillRequiredInsert(page, insertData('Screens'));
  await addToBatch(page);
  const refused = insertData('Screens refused');
  await fillRequiredInsert(page, refused);
  await page.getByLabel(/^Req class ID/).fill('999');
  await addToBatch(page);
  await page.getByLabel(/^Job title/).fill('Half done');
  await page.getByRole('button', { name: 'Add to batch' }).click();
  await expect(page.getByRole('heading', { name: 'There is a problem' })).toBeVisible();
  await shot(page, info, 'form-problems');

  const results = await sendBatch(page);
  await expect(results.getByText('Error', { exact: true })).toBeVisible();
  await results.scrollIntoViewIfNeeded();
  await shot(page, info, 'results');

  await page.goto('/candidates?reqId=40005');
  await expect(page.getByRole('region', { name: /^Check this before adding/ })).toBeVisible();
  await shot(page, info, 'candidate-warnings');

  await page.goto('/submissions');
  await expect(page.getByRole('article')).toHaveCount(1);
  await shot(page, info, 'submissions');

  await page.goto('/requisitions/import');
  await page.getByLabel('Choose a file').setInputFiles({
    name: 'northwind-requisitions.csv',
    mimeType: 'text/csv',
    buffer: Buffer.from(requisitionsCsv('SHOTS').bytes),
  });
  await page.getByRole('checkbox', { name: /^Only rows with errors/ }).check();
  await expect(page.getByRole('status').filter({ hasText: /^50 rows/ })).toHaveText(
    '50 rows · 45 ready · 5 with errors',
  );
  await page
    .getByRole('heading', { name: 'northwind-requisitions.csv' })
    .evaluate((heading) => heading.scrollIntoView({ block: 'start' }));
  await shot(page, info, 'import');

  await page.setViewportSize({ width: 390, height: 844 });
  await page.emulateMedia({ colorScheme: 'dark' });
  await page.goto('/requisitions/new');
  await fillRequiredInsert(page, insertData('Phone'));
  await addToBatch(page);
  await page.evaluate(() => window.scrollTo(0, 0));
  await expect(page.getByRole('link', { name: 'Batch (1)' })).toBeInViewport();
  await shot(page, info, 'phone-dark');
});
