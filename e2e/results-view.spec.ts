import type { Locator, Page } from '@playwright/test';
import { expect, test } from './support/fixtures';
import { addToBatch, fillRequiredInsert, insertData, sendBatch } from './support/requisitions';

/** Every part of the element lies inside the viewport's width: nothing needs a sideways scroll. */
async function expectWithinWidth(page: Page, element: Locator, what: string) {
  await element.scrollIntoViewIfNeeded();
  const box = await element.boundingBox();
  const width = page.viewportSize()?.width ?? 0;
  expect(box, `${what} has a box`).not.toBeNull();
  expect(box?.x ?? -1, `${what} starts inside the viewport`).toBeGreaterThanOrEqual(0);
  expect((box?.x ?? 0) + (box?.width ?? 0), `${what} ends inside the viewport`).toBeLessThanOrEqual(
    width,
  );
}

for (const viewport of [
  { width: 1280, height: 800 },
  { width: 390, height: 844 },
]) {
  test(`at ${viewport.width} px a mixed batch's results show each row's status, id, message and Fix without sideways scrolling`, async ({
    page,
  }) => {
    await page.setViewportSize(viewport);
    await page.goto('/requisitions/new');
    const accepted = [insertData('Results view'), insertData('Results view')];
    for (const data of accepted) {
      await fillRequiredInsert(page, data);
      await addToBatch(page);
    }
    const refused = insertData('Refused class');
    await fillRequiredInsert(page, refused);
    // Valid locally, but not a req class of org 1001: only the VMS can tell.
    await page.getByLabel(/^Req class ID/).fill('999');
    await addToBatch(page);

    const results = await sendBatch(page);
    // The full view is in the main column; the batch panel sums it up and links to it.
    await expect(results.getByRole('status').first()).toHaveText(
      /^All 3 requisitions processed: 2 Success · 1 Error$/,
    );
    const panel = page.getByRole('region', { name: 'Batch to send' });
    await expect(panel.getByText(/2 Success/)).toBeVisible();
    await expect(panel.getByRole('link', { name: 'Each item’s result' })).toHaveAttribute(
      'href',
      /^#results-of-/,
    );
    await expect(panel.getByRole('row')).toHaveCount(0);

    const rows = results.getByRole('rowgroup').nth(1).getByRole('row');
    await expect(rows).toHaveCount(3);
    for (const n of [1, 2]) {
      const row = rows.nth(n - 1);
      await expect(row.getByText('Success', { exact: true })).toBeVisible();
      await expectWithinWidth(page, row.getByText('Success', { exact: true }), `row ${n} status`);
      const id = row.getByRole('cell').nth(3).getByRole('link');
      await expect(id).toHaveText(/^\d+$/);
      await expectWithinWidth(page, id, `row ${n} Req ID`);
    }
    const failed = rows.nth(2);
    await expect(failed.getByText('Error', { exact: true })).toBeVisible();
    await expectWithinWidth(page, failed.getByText('Error', { exact: true }), 'row 3 status');
    const message = failed.getByRole('cell').nth(4);
    await expect(message).toHaveText(
      /^Req class ID \(reqclassid\): 999 is not a req class of org 1001/,
    );
    await expectWithinWidth(page, message, 'row 3 message');
    await expectWithinWidth(page, failed.getByRole('button', { name: 'Fix row 3' }), 'row 3 Fix');
    // And the page as a whole does not scroll sideways.
    expect(
      await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth),
    ).toBeLessThanOrEqual(0);

    // docs/ui.md shows these, as an e2e run drew them (SCREENSHOTS=1 npm run test:e2e).
    if (process.env.SCREENSHOTS === '1')
      await results.screenshot({
        path: `docs/screenshots/results-${viewport.width}.png`,
        animations: 'disabled',
      });

    await failed.getByRole('button', { name: 'Fix row 3' }).click();
    await expect(page.getByText(/^Fixing row 3 of batch/)).toBeVisible();
    // The field the VMS named has focus, in view, with the notice of which row it is in view too.
    const named = page.getByLabel(/^Req class ID/);
    await expect(named).toBeFocused();
    await expect(named).toBeInViewport();
    await expect(page.getByText(/^Fixing row 3 of batch/)).toBeInViewport();
    await expect(page.getByLabel(/^Client internal req/)).toHaveValue(refused.reference);
  });
}

test('on a phone a bar at the foot of the screen shows the batch and sends it', async ({
  page,
}) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto('/requisitions/new');
  await fillRequiredInsert(page, insertData('Phone bar'));
  await addToBatch(page);
  await page.evaluate(() => window.scrollTo(0, 0));
  const bar = page.getByRole('link', { name: 'Batch (1)' }).locator('..');
  await expect(bar).toBeInViewport();
  const box = await bar.boundingBox();
  expect((box?.y ?? 0) + (box?.height ?? 0)).toBeCloseTo(844, -1);
  await bar.getByRole('button', { name: 'Send', exact: true }).click();
  await expect(page.getByRole('heading', { name: 'Batch accepted' })).toBeVisible();
  await expect(
    page.getByRole('region', { name: /^Results of batch/ }).getByText('Success', { exact: true }),
  ).toBeVisible();
  await expect(page.getByRole('link', { name: 'Batch (0)' })).toBeVisible();
});

test('where the batch panel is beside the form there is no bar', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto('/requisitions/new');
  await expect(page.getByRole('region', { name: 'Batch to send' })).toBeVisible();
  await expect(page.getByRole('link', { name: /^Batch \(\d+\)$/ })).toBeHidden();
});
