import { probeIds, probeTitles } from '@/domain/connection-check';
import { expect, expectNoAxeViolations, test } from './support/fixtures';

/*
 * The admin's check of a connection against the embedded sandbox, in a real browser: every
 * probe listed with its verdict in words (not colour only), and the page axe-clean before and
 * after the check.
 */

test('an admin checks the connection and sees every probe passed', async ({ page }) => {
  await page.goto('/requisitions');
  // The list's page, prerendered or the app's: a link followed before the app has taken over
  // goes where it leads.
  await expect(page.getByRole('heading', { level: 1, name: 'Requisitions' })).toBeVisible();
  await page
    .getByRole('navigation', { name: 'Main' })
    .getByRole('link', { name: 'Connections' })
    .click();
  await expect(page.getByRole('heading', { level: 1, name: 'Connections' })).toBeVisible();
  await expect(page.getByText('The embedded sandbox VMS, named "sandbox".')).toBeVisible();
  await expectNoAxeViolations(page);

  await page.getByRole('button', { name: 'Check Sandbox' }).click();
  const report = page.getByRole('region', { name: /^Checked / });
  await expect(report.getByText(/^Every check passed \(9\)\.$/)).toBeVisible();
  const probes = report.getByRole('listitem');
  const titles = probeIds.filter((id) => id !== 'sendTest').map((id) => probeTitles[id]);
  await expect(probes).toHaveCount(titles.length);
  for (const [index, title] of titles.entries()) {
    const probe = probes.nth(index);
    await expect(probe.getByText(title, { exact: true })).toBeVisible();
    await expect(probe.getByText('Passed', { exact: true })).toBeVisible();
  }
  await expect(report.getByText('Failed', { exact: true })).toHaveCount(0);
  await expect(report.getByText(/What to change/)).toHaveCount(0);
  await expectNoAxeViolations(page);
});
