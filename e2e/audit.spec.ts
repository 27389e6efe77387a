import { readFileSync } from 'node:fs';
import {
  adminEmail,
  adminPassword,
  fillSignIn,
  newPage,
  signIn,
  test,
} from './support/auth-portal';
import { expect, expectNoAxeViolations } from './support/fixtures';

/*
 * The audit trail (decision 036) in a browser: a sign-in fails, then an admin opens /audit from
 * the navigation, filters to failed sign-ins, sees that one with why, downloads the selection as
 * CSV, and the page passes axe in both themes. A recruiter is told the page is not theirs.
 */
const recruiterEmail = 'rita.recruiter@example.com';
const recruiterPassword = 'a long and quiet afternoon';

test('an admin filters the audit trail to failed sign-ins and downloads them as CSV', async ({
  browser,
  authPortal,
}) => {
  test.setTimeout(90_000);
  const url = authPortal.url;
  await authPortal.addUser(recruiterEmail, recruiterPassword);

  // A recruiter mistypes their password once, then signs in, and may not open the trail.
  const recruiter = await newPage(browser);
  await signIn(recruiter.page, `${url}/audit`, recruiterEmail, 'not my password');
  await expect(recruiter.page.getByRole('alert')).toContainText('is not right');
  await fillSignIn(recruiter.page, recruiterEmail, recruiterPassword);
  await expect(
    recruiter.page.getByRole('heading', { name: 'Not allowed', level: 1 }),
  ).toBeVisible();
  await expect(
    recruiter.page
      .getByRole('navigation', { name: 'Main' })
      .getByRole('link', { name: 'Audit trail' }),
  ).toHaveCount(0);

  const admin = await newPage(browser);
  await signIn(admin.page, `${url}/requisitions`, adminEmail, adminPassword);
  await admin.page
    .getByRole('navigation', { name: 'Main' })
    .getByRole('link', { name: 'Audit trail' })
    .click();
  await expect(admin.page.getByRole('heading', { name: 'Audit trail', level: 1 })).toBeVisible();
  const events = admin.page.getByRole('region', { name: 'Events' });
  await expect(events.getByRole('row', { name: /Sign-in failed/ })).toHaveCount(1);

  await admin.page.getByLabel('Event', { exact: true }).selectOption({ label: 'Sign-in failed' });
  await admin.page.getByRole('button', { name: 'Show events' }).click();
  await expect(admin.page).toHaveURL(/[?&]event=sign_in_failed/);
  await expect(events.getByRole('status')).toHaveText('1 event');
  const row = events.getByRole('row', { name: /Sign-in failed/ });
  await expect(row).toContainText(recruiterEmail);
  await expect(row).toContainText('reason: wrong_password');
  await expect(row).toContainText('failed 401');

  for (const colorScheme of ['light', 'dark'] as const) {
    await admin.page.emulateMedia({ colorScheme });
    await expectNoAxeViolations(admin.page);
  }

  const [download] = await Promise.all([
    admin.page.waitForEvent('download'),
    admin.page.getByRole('link', { name: 'Export CSV' }).click(),
  ]);
  expect(download.suggestedFilename()).toMatch(/^audit-.*\.csv$/);
  const csv = readFileSync(await download.path(), 'utf8')
    .trimEnd()
    .split('\r\n');
  expect(csv[0]).toBe('id,at,event,userId,email,connection,address,outcome,status,traceId,details');
  expect(csv).toHaveLength(2);
  expect(csv[1]).toContain(`,sign_in_failed,`);
  expect(csv[1]).toContain(recruiterEmail);
  expect(csv[1]).not.toContain('not my password');

  await recruiter.context.close();
  await admin.context.close();
});
