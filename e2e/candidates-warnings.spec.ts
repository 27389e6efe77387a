import type { Locator } from '@playwright/test';
import * as steps from './support/candidates';
import { expect, expectNoAxeViolations, test } from './support/fixtures';
import { sendBatch } from './support/requisitions';

test('a closed requisition is warned about, must be acknowledged, and the VMS answers Error', async ({
  page,
}) => {
  await steps.openCandidateForm(page, '40005');
  // Said at once, at the top, before anything is typed.
  const facts = page.getByRole('region', { name: /^Requisition 40005/ });
  await expect(facts).toContainText(
    'Takes no candidates now: Closed/Cancelled: only Open or Interview occurring requisitions take candidates.',
  );
  const top = async (locator: Locator) =>
    (await locator.boundingBox())?.y ?? Number.POSITIVE_INFINITY;
  expect(await top(facts.getByText(/^Takes no candidates now/))).toBeLessThan(
    await top(page.getByLabel(/^First name/)),
  );
  const data = steps.candidateData();
  await steps.fillCandidate(page, data);
  const warnings = page.getByRole('region', { name: /^Check this before adding/ });
  await expect(warnings).toContainText('Requisition 40005 is Closed/Cancelled');
  await expectNoAxeViolations(page);

  // Not acknowledged: not added.
  await page.getByRole('button', { name: 'Add to batch' }).click();
  // The summary says what the warning is, not just where to look.
  await expect(
    page
      .getByRole('alert')
      .filter({ hasText: 'There is a problem' })
      .getByRole('link', { name: /^Requisition 40005 is Closed\/Cancelled/ }),
  ).toContainText('To add the candidate anyway, tick the box under the warning.');
  await expect(page.getByRole('complementary', { name: 'Batch' })).toContainText(
    'No candidates yet',
  );
  await expectNoAxeViolations(page);

  await steps.acknowledgeWarnings(page);
  await steps.addCandidateToBatch(page);
  const results = await sendBatch(page);
  const row = results.getByRole('row').nth(1);
  await expect(row.getByText('Error', { exact: true })).toBeVisible();
  await expect(row).toContainText(/requisition 40005 is Closed\/Cancelled/);

  // Fix loads it back into the form of its requisition.
  await row.getByRole('button', { name: 'Fix row 1' }).click();
  await expect(page.getByText(/^Fixing row 1 of batch/)).toBeVisible();
  await expect(page).toHaveURL(/reqId=40005/);
  await expect(page.getByLabel(/^E-mail/)).toHaveValue(data.email);
});

test('the same e-mail twice to one requisition is warned about, in the batch and once sent', async ({
  page,
}) => {
  // Chosen by searching the list on the Candidates page.
  await page.goto('/candidates');
  await page.getByLabel('Search by Req ID, title or client internal req').fill('NW-REQ-0001');
  await expect(page.getByText('1 requisition matches.')).toBeVisible();
  await expectNoAxeViolations(page);
  await page.getByRole('link', { name: /^Submit a candidate to requisition 40001/ }).click();

  const data = steps.candidateData('Ada');
  await steps.fillCandidate(page, data);
  await steps.answerRequisition(page, 3, 2);
  await steps.addCandidateToBatch(page);

  await steps.fillCandidate(page, {
    ...steps.candidateData('Ada'),
    email: data.email.toUpperCase(),
  });
  const warnings = page.getByRole('region', { name: /^Check this before adding/ });
  await expect(warnings).toContainText(`is already in the batch for requisition 40001`);

  await sendBatch(page);
  await expect(
    page.getByRole('region', { name: 'Batch just sent' }).getByText(/^All 1 candidate processed: /),
  ).toBeVisible();
  await expect(warnings).toContainText('was already sent to requisition 40001');
  await expect(warnings).not.toContainText('already in the batch');
});

test('a Req ID the list does not know may be used, with generic rows', async ({ page }) => {
  await page.goto('/candidates');
  await page.getByLabel('Search by Req ID, title or client internal req').fill('49999');
  await expect(page.getByText(/Requisition 49999 is not in the list/)).toBeVisible();
  await page.getByRole('link', { name: 'Use Req ID 49999' }).click();
  await expect(page.getByText(/its skills and questions cannot be checked here/)).toBeVisible();
  await expect(page.getByRole('button', { name: 'Add a skill response' })).toBeEnabled();
  await expect(page.getByRole('button', { name: 'Add a question answer' })).toBeEnabled();
  await expectNoAxeViolations(page);
});

test('a bill rate above a capped hourly high, and a passed submittals date, are warned about', async ({
  page,
}) => {
  await steps.openCandidateForm(page, '40002');
  await expect(page.getByRole('region', { name: /^Requisition 40002/ })).toContainText(
    'No: not above the hourly high',
  );
  await expect(page.getByRole('region', { name: /^Requisition 40002/ })).toContainText(
    'Rate cap: This requisition’s band: 50.00 to 65.00 an hour; no candidate above 65.00.',
  );
  // The field itself gives the band, and warns as the rate is typed.
  const rate = page.getByLabel(/^Bill rate/);
  await expect(rate).toHaveAccessibleDescription(/band: 50\.00 to 65\.00 an hour/);
  await rate.pressSequentially('70');
  await expect(rate).toHaveAccessibleDescription(
    /Warning: 70 is above the hourly high of 65\.00, which this requisition does not allow/,
  );
  const warnings = page.getByRole('region', { name: /^Check this before adding/ });
  await expect(warnings).toContainText('The bill rate 70 is above the hourly high of 65.00');
  await rate.fill('65');
  await expect(rate).not.toHaveAccessibleDescription(/Warning/);
  await expect(warnings).toHaveCount(0);

  await steps.openCandidateForm(page, '40007');
  await expect(warnings).toContainText('took no new submittals after 2026-06-30');
});
