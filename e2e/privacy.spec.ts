import { readFileSync } from 'node:fs';
import { subjectExportSchema } from '@/domain/personal-subject';
import { TestBrowser } from '@/test-support/test-browser';
import { candidateFor } from '@/test-support/test-data';
import { adminEmail, adminPassword, newPage, signIn, test } from './support/auth-portal';
import { expect } from './support/fixtures';

/*
 * One person's data in a browser (decision 059): a recruiter's draft names a candidate; an admin
 * opens Personal data from the navigation, finds the candidate by e-mail, sees where they are held
 * with counts, exports them as JSON, and erases them after a confirmation.
 */
const recruiterEmail = 'rita.recruiter@example.com';
const recruiterPassword = 'a long and quiet afternoon';
const candidateEmail = 'marisol.tennant@example.org';

test('an admin finds a candidate by e-mail, exports what is held and erases it', async ({
  browser,
  authPortal,
}) => {
  test.setTimeout(90_000);
  const url = authPortal.url;
  await authPortal.addUser(recruiterEmail, recruiterPassword);
  const rita = new TestBrowser(url);
  expect((await rita.signIn(recruiterEmail, recruiterPassword)).status).toBe(200);
  const draft = await rita.call('PUT', '/api/me/drafts/marisol', {
    body: {
      value: {
        items: [
          candidateFor(40008, {
            firstname: 'Marisol',
            lastname: 'Tennant',
            candemail: candidateEmail,
          }),
        ],
      },
      baseVersion: 0,
    },
  });
  expect(draft.status).toBe(200);

  const admin = await newPage(browser);
  await signIn(admin.page, `${url}/requisitions`, adminEmail, adminPassword);
  await admin.page
    .getByRole('navigation', { name: 'Main' })
    .getByRole('link', { name: 'Personal data' })
    .click();
  await expect(admin.page.getByRole('heading', { name: 'Personal data', level: 1 })).toBeVisible();
  await admin.page.getByLabel('E-mail').fill(candidateEmail.toUpperCase());
  await admin.page.getByRole('button', { name: 'Find' }).click();
  const stores = admin.page.getByRole('table', { name: 'Where they are held' });
  await expect(stores.getByRole('row', { name: 'Drafts 1' })).toBeVisible();

  await admin.page.getByLabel('Reason').fill('Their request by e-mail of 29 November');
  const [download] = await Promise.all([
    admin.page.waitForEvent('download'),
    admin.page.getByRole('button', { name: 'Export JSON' }).click(),
  ]);
  expect(download.suggestedFilename()).toMatch(/^personal-data-.*\.json$/);
  const held = subjectExportSchema.parse(JSON.parse(readFileSync(await download.path(), 'utf8')));
  expect(held.counts).toEqual({ drafts: 1 });
  expect(held.records[0]?.items).toEqual([
    expect.objectContaining({ candemail: candidateEmail, lastname: 'Tennant' }),
  ]);

  await admin.page.getByRole('button', { name: 'Erase…' }).click();
  const dialog = admin.page.getByRole('dialog', { name: 'Erase this person’s data?' });
  await dialog.getByRole('button', { name: 'Erase' }).click();
  await expect(admin.page.getByText(/^Erased 1 record\(s\) at /)).toBeVisible();
  await expect(admin.page.getByText('Nothing is held about this person.')).toBeVisible();

  const after = await rita.call('GET', '/api/me/drafts?since=0');
  expect(after.text).not.toContain('Tennant');
  expect(after.text).toContain('[erased ');
  await admin.context.close();
});
