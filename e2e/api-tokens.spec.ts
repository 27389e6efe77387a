import { request } from 'undici';
import { adminEmail, adminPassword, newPage, signIn, test } from './support/auth-portal';
import { expect, expectNoAxeViolations } from './support/fixtures';

/*
 * Personal API tokens (decision 037) in a browser: a QA engineer opens Account from the
 * header (beside who is signed in), makes a token, sees it once with a Copy button and the warning that it will not be
 * shown again, copies it (a CI job's call with it works), and revokes it after confirming (the
 * job's next call is refused, saying so). An admin sees it among everyone's. Both pages pass axe.
 */
const qaEmail = 'quinn.qa@example.com';
const qaPassword = 'a long and quiet afternoon';

async function sessionWith(url: string, token: string) {
  const answer = await request(`${url}/api/session`, {
    headers: { authorization: `Bearer ${token}` },
  });
  return { status: answer.statusCode, body: await answer.body.text() };
}

test('a QA engineer makes an API token, sees it once, copies it and revokes it', async ({
  browser,
  authPortal,
}) => {
  test.setTimeout(90_000);
  const url = authPortal.url;
  await authPortal.addUser(qaEmail, qaPassword, [1001], 'qa');

  const qa = await newPage(browser);
  await qa.context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: url });
  await signIn(qa.page, `${url}/requisitions`, qaEmail, qaPassword);
  // Beside who is signed in, in the header.
  await qa.page.getByRole('banner').getByRole('link', { name: 'Account' }).click();
  await expect(qa.page.getByRole('heading', { name: 'Account', level: 1 })).toBeVisible();
  await expect(qa.page.getByText('You have no API token yet.')).toBeVisible();

  await qa.page.getByLabel('Name').fill('nightly regression');
  await qa.page.getByLabel(/^Suites and sends/).check();
  await qa.page.getByLabel('Expires after').selectOption({ label: '90 days' });
  await qa.page.getByRole('button', { name: 'Make token' }).click();

  const reveal = qa.page.getByRole('region', { name: /Copy your new token/ });
  await expect(reveal).toContainText('it will not be shown again');
  const secret = await reveal.getByLabel('Your new token').inputValue();
  expect(secret).toMatch(/^vmsp_[A-Za-z0-9_-]{43}$/);
  await reveal.getByRole('button', { name: 'Copy' }).click();
  await expect(reveal.getByRole('status')).toHaveText('Copied.');
  expect(await qa.page.evaluate(() => navigator.clipboard.readText())).toBe(secret);

  const yours = qa.page.getByRole('table', { name: 'Your tokens' });
  const row = yours.getByRole('row', { name: /nightly regression/ });
  await expect(row).toContainText('suites-and-sends');
  await expect(row).toContainText('Active');
  await expect(row).toContainText('never');

  for (const colorScheme of ['light', 'dark'] as const) {
    await qa.page.emulateMedia({ colorScheme });
    await expectNoAxeViolations(qa.page);
  }

  // A CI job uses it.
  const used = await sessionWith(url, secret);
  expect(used.status).toBe(200);
  expect(used.body).toContain(qaEmail);

  // Hidden, and never shown again: not after a reload either.
  await reveal.getByRole('button', { name: 'Done, hide it' }).click();
  await expect(reveal).toHaveCount(0);
  await qa.page.reload();
  await expect(row).toContainText('Active');
  expect(await qa.page.content()).not.toContain(secret.slice(5));

  // Revoking asks first; keeping it changes nothing.
  await row.getByRole('button', { name: 'Revoke nightly regression' }).click();
  const dialog = qa.page.getByRole('dialog', { name: /Revoke the token/ });
  await expect(dialog).toContainText('This cannot be undone');
  await dialog.getByRole('button', { name: 'Keep it' }).click();
  await expect(row).toContainText('Active');
  expect((await sessionWith(url, secret)).status).toBe(200);
  await row.getByRole('button', { name: 'Revoke nightly regression' }).click();
  await dialog.getByRole('button', { name: 'Revoke token' }).click();
  await expect(row).toContainText('Revoked');
  await expect(row.getByRole('button', { name: /Revoke/ })).toHaveCount(0);
  const refused = await sessionWith(url, secret);
  expect(refused.status).toBe(401);
  expect(refused.body).toContain('was revoked on');

  // An admin sees it among everyone's, with whose it is.
  const admin = await newPage(browser);
  await signIn(admin.page, `${url}/account`, adminEmail, adminPassword);
  const everyone = admin.page.getByRole('table', { name: 'Everyone’s API tokens' });
  const theirs = everyone.getByRole('row', { name: /nightly regression/ });
  await expect(theirs).toContainText(qaEmail);
  await expect(theirs).toContainText('Revoked');
  await expectNoAxeViolations(admin.page);

  await qa.context.close();
  await admin.context.close();
});
