import { expect, expectNoAxeViolations, test } from './support/fixtures';
import { addToBatch, fillRequiredInsert, insertData } from './support/requisitions';

test('a form with errors shows inline messages and the summary, and sends nothing', async ({
  page,
  vmsPosts,
}) => {
  await page.goto('/requisitions/new');
  await expect(page.getByLabel(/^Job title/)).toBeVisible();
  await expectNoAxeViolations(page);

  // A valid item already waits in the tray, so a send would have something to send.
  await fillRequiredInsert(page, insertData());
  await addToBatch(page);

  await page.getByLabel(/^Job title/).fill('Half-filled requisition');
  await page.getByLabel(/^Days per week/).fill('9');
  await page.getByLabel(/^End date/).fill('2026-01-01');
  await page.getByLabel(/^Start date/).fill('2026-02-01');
  await page.getByRole('button', { name: 'Add to batch' }).click();

  const summary = page.getByRole('alert').filter({ hasText: 'There is a problem' });
  await expect(summary).toBeFocused();
  await expect(summary.getByRole('heading', { name: 'There is a problem' })).toBeVisible();
  await expect(
    summary.getByRole('link', { name: 'Number of openings is required for Insert' }),
  ).toBeVisible();
  await expect(
    summary.getByRole('link', { name: /^Days per week must be between 0 and 7/ }),
  ).toBeVisible();
  await expect(
    summary.getByRole('link', { name: /^End date .* is before the start date/ }),
  ).toBeVisible();

  const days = page.getByLabel(/^Days per week/);
  await expect(days).toHaveAttribute('aria-invalid', 'true');
  await expect(days).toHaveAccessibleDescription(/Error: Days per week must be between 0 and 7/);
  await expectNoAxeViolations(page);

  // A summary link takes the user to the field.
  await summary.getByRole('link', { name: /^Days per week/ }).click();
  await expect(days).toBeFocused();

  // Correcting a field while typing does not move the fields below it.
  const below = page.getByLabel(/^Client internal req/);
  const top = () =>
    below.evaluate((element) => element.getBoundingClientRect().top + window.scrollY);
  const before = await top();
  const openings = page.getByLabel(/^Number of openings/);
  await expect(openings).toHaveAccessibleDescription(
    /Error: Number of openings is required for Insert/,
  );
  await openings.fill('3');
  await expect(openings).not.toHaveAttribute('aria-invalid');
  expect(await top()).toBe(before);
  // The corrected message's kept space says nothing: only the hint describes the field now.
  await expect(openings).toHaveAccessibleDescription('Number of openings/positions');

  // The invalid form was not added: the tray still holds one item, and nothing was sent.
  await expect(
    page.getByRole('region', { name: 'Batch to send' }).getByRole('listitem'),
  ).toHaveCount(1);
  expect(vmsPosts).toEqual([]);
});
