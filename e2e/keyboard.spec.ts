import type { Page } from '@playwright/test';
import { expect, test } from './support/fixtures';
import { insertData } from './support/requisitions';

/** Presses Tab until the focused element's accessible name matches (keyboard only). */
async function tabTo(page: Page, name: RegExp, limit = 200): Promise<void> {
  for (let i = 0; i < limit; i += 1) {
    await page.keyboard.press('Tab');
    const focused = await page.evaluate(() => {
      const element = document.activeElement as HTMLElement | null;
      if (!element) return '';
      const labelled = (element as HTMLInputElement).labels?.[0]?.textContent;
      return element.getAttribute('aria-label') ?? labelled ?? element.textContent ?? '';
    });
    if (name.test(focused.trim())) return;
  }
  throw new Error(`Tab never reached ${String(name)}`);
}

test('a recruiter completes and sends a requisition with the keyboard alone', async ({ page }) => {
  const data = insertData('Keyboard');
  await page.goto('/requisitions/new');
  await expect(page.getByLabel(/^Job title/)).toBeVisible();

  await tabTo(page, /^Job title/);
  await page.keyboard.type(data.title);
  await tabTo(page, /^Number of openings/);
  await page.keyboard.type('1');
  await tabTo(page, /^Client internal req/);
  await page.keyboard.type(data.reference);
  await tabTo(page, /^Engagement type/);
  await page.keyboard.press('ArrowDown'); // Contract
  await tabTo(page, /^Req class ID/);
  await page.keyboard.type('102');
  await tabTo(page, /^Hours per day/);
  await page.keyboard.type('7.5');
  await tabTo(page, /^Days per week/);
  await page.keyboard.type('5');
  await tabTo(page, /^Short description/);
  await page.keyboard.type('Tests the patient portal.');
  // Owner by name: arrow keys move within the radio group.
  await tabTo(page, /^By user ID$/);
  await tabTo(page, /^By user ID$/); // the owner's group comes after the client contact's
  await page.keyboard.press('ArrowRight');
  await tabTo(page, /^Requisition owner first name/);
  await page.keyboard.type('Maria');
  await tabTo(page, /^Requisition owner last name/);
  await page.keyboard.type('Reyes');
  await tabTo(page, /^Add a skill$/);
  await page.keyboard.press('Enter');
  // Focus is in the new row's description.
  await page.keyboard.type('Selenium');
  await tabTo(page, /^Add to batch$/);
  await page.keyboard.press('Enter');
  await expect(
    page.getByRole('status').filter({ hasText: /^Added .* to the batch/ }),
  ).toBeFocused();

  await tabTo(page, /^Send batch/);
  await page.keyboard.press('Enter');
  const results = page.getByRole('region', { name: /^Results of batch/ });
  await expect(results.getByText('Success', { exact: true })).toBeVisible();
});
