import {
  addCandidateToBatch,
  answerRequisition,
  candidateData,
  fillCandidate,
  openCandidateForm,
} from './support/candidates';
import { expect, expectNoAxeViolations, test } from './support/fixtures';
import { sendBatch } from './support/requisitions';

test('two complete candidates to an open requisition are New, one missing an answer is Incomplete', async ({
  page,
}) => {
  // From the requisition list, as a recruiter starts.
  await page.goto('/requisitions');
  await page.getByRole('link', { name: 'Submit candidate to requisition 40001' }).click();
  await expect(
    page.getByRole('heading', { level: 1, name: 'Submit a candidate to requisition 40001' }),
  ).toBeVisible();

  // The context and the form follow the requisition: 3 skills, 2 questions.
  const facts = page.getByRole('region', { name: /^Requisition 40001/ });
  await expect(facts).toContainText('Senior Java Developer');
  await expect(facts).toContainText('Open');
  await expect(facts).toContainText('95.00 / 75.00');
  await expect(facts).toContainText('2030-12-31');
  await expect(page.getByRole('group', { name: /^Skill \d+:/ })).toHaveCount(3);
  await expect(page.getByRole('group', { name: /^Question \d+$/ })).toHaveCount(2);
  await expect(page.getByLabel(/^Answer to question 3/)).toHaveCount(0);
  await expectNoAxeViolations(page);

  const complete = [candidateData('Ada'), candidateData('Grace')];
  for (const data of complete) {
    await fillCandidate(page, data);
    await answerRequisition(page, 3, 2);
    await addCandidateToBatch(page);
  }
  const partial = candidateData('Linus');
  await fillCandidate(page, partial);
  await answerRequisition(page, 3, 1);
  await addCandidateToBatch(page);

  const tray = page.getByRole('complementary', { name: 'Batch' });
  await expect(tray.getByRole('listitem')).toHaveCount(3);
  await expect(tray.getByText('JSON to be sent (3 candidates)')).toBeVisible();

  const results = await sendBatch(page);
  await expect(
    page
      .getByRole('region', { name: 'Batch just sent' })
      .getByText(/^All 3 candidates processed: 2 New · 1 Incomplete$/),
  ).toBeVisible();
  const rows = results.getByRole('row');
  for (const n of [1, 2]) {
    await expect(rows.nth(n).getByText('New', { exact: true })).toBeVisible();
    await expect(rows.nth(n).getByRole('cell').nth(3)).toHaveText(/^Candidate ID \d+$/);
  }
  await expect(rows.nth(3).getByText('Incomplete', { exact: true })).toBeVisible();
  // No Fix (the VMS has it), but what to do instead.
  await expect(rows.nth(3).getByRole('button', { name: /^Fix/ })).toHaveCount(0);
  await expect(rows.nth(3)).toContainText(
    'To complete it, answer the missing questions in the VMS itself: this interface cannot update a submitted candidate',
  );
  await expect(rows.nth(3)).toContainText(/answer2/);
  await expect(rows.nth(3).getByRole('cell').nth(3)).toHaveText(/^Candidate ID \d+$/);
  await expectNoAxeViolations(page);
});

test('an invalid e-mail is blocked in the browser and nothing is sent', async ({
  page,
  vmsPosts,
}) => {
  await openCandidateForm(page, '40001');
  await fillCandidate(page, { ...candidateData(), email: 'ada-at-example.com' });
  await page.getByRole('button', { name: 'Add to batch' }).click();

  const summary = page.getByRole('alert').filter({ hasText: 'There is a problem' });
  await expect(summary).toBeFocused();
  await expect(summary.getByRole('link')).toHaveCount(1);
  await expect(page.getByLabel(/^E-mail/)).toHaveAttribute('aria-invalid', 'true');
  await expect(page.getByRole('complementary', { name: 'Batch' })).toContainText(
    'No candidates yet',
  );
  await expectNoAxeViolations(page);

  await expect(page.getByRole('button', { name: /^Send batch/ })).toBeDisabled();
  expect(vmsPosts).toEqual([]);
});
