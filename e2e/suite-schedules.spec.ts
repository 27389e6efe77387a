import { signIn, test } from './support/auth-portal';
import { expect, expectNoAxeViolations } from './support/fixtures';

/*
 * A suite's schedules in real Chromium (decision 057), against the real portal with sign-in on
 * and its embedded sandbox: a rule read as typed (the server's words for a bad one, the next
 * occurrences in the schedule's zone for a good one), a schedule added, shown and stopped.
 */

const qaEmail = 'quinn.qa@example.com';
const password = 'correct horse battery staple';

test('a QA engineer adds a schedule to a suite, seeing its next occurrences in its own zone, and stops it', async ({
  page,
  authPortal,
}) => {
  await authPortal.addUser(qaEmail, password, [1001], 'qa');
  const url = authPortal.url;
  await signIn(page, `${url}/suites`, qaEmail, password);
  await expect(page.getByRole('heading', { name: 'Suites', level: 1 })).toBeVisible();
  // A suite saved through the API, as the page's own calls are made (the session's CSRF token).
  const suiteId = await page.evaluate(async () => {
    const session = (await (await fetch('/api/session')).json()) as { csrfToken: string };
    const created = await fetch('/api/suites', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-csrf-token': session.csrfToken },
      body: JSON.stringify({
        suite: {
          name: 'UAT regression',
          cases: [
            {
              id: 'refused',
              kind: 'requisition',
              item: { titlerole: 'Nurse' },
              expect: { status: 'Error' },
            },
          ],
        },
      }),
    });
    return ((await created.json()) as { id: number }).id;
  });
  await page.goto(`${url}/suites/${suiteId}`);
  const schedules = page.getByRole('region', { name: 'Schedules' });
  await expect(schedules.getByText('No schedule yet')).toBeVisible();

  const when = schedules.getByLabel(/^When/);
  const zone = schedules.getByLabel('Time zone');
  await when.fill('61 * * * *');
  await expect(schedules.getByRole('status').first()).toContainText(
    'The schedule "61 * * * *" cannot be read',
  );
  await schedules.getByRole('button', { name: 'Add the schedule' }).click();
  await expect(schedules.getByRole('alert')).toContainText('cannot be read');

  await when.fill('0 6 * * 1-5');
  await zone.fill('Europe/Londn');
  await expect(schedules.getByRole('status').first()).toContainText(
    '"Europe/Londn" is not a time zone',
  );
  await zone.fill('Europe/London');
  await expect(schedules.getByRole('status').first()).toContainText(
    /^Next, in Europe\/London: \w{3}, \d{1,2} \w{3} \d{4}, 06:00;/,
  );
  await schedules.getByLabel('Skip it').check();
  await schedules.getByRole('button', { name: 'Add the schedule' }).click();
  await expect(schedules.getByText('Schedule added.')).toBeVisible();

  const item = schedules.getByRole('listitem').filter({ hasText: 'Europe/London' });
  await expect(item.getByRole('heading', { level: 3 })).toHaveText(
    /^0 6 \* \* 1-5 in Europe\/London on \S+$/,
  );
  await expect(item).toContainText(`Runs as${qaEmail}`);
  await expect(item).toContainText('Skip it');
  await expect(item.locator('time')).toHaveCount(3);
  for (const time of await item.locator('time').all()) await expect(time).toContainText('06:00');
  await expectNoAxeViolations(page);

  await item.getByRole('button', { name: 'Stop' }).click();
  await expect(item.getByRole('heading', { level: 3 })).toContainText('(stopped)');
  await expect(item.locator('time')).toHaveCount(0);
  await expect(item.getByRole('button', { name: 'Resume, running as you' })).toBeVisible();
});
