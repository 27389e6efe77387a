import Fastify from 'fastify';
import { adminEmail, adminPassword, newPage, signIn, test } from './support/auth-portal';
import { expect, openPage } from './support/fixtures';
import { addToBatch, fillRequiredInsert, insertData, sendBatch } from './support/requisitions';

/*
 * With sign-in on: an admin invites a recruiter for one client org; the
 * recruiter cannot see or send for the other (403 even by hand), sends a batch, signs in on a
 * second browser and finds the draft and the submission; idle expiry (the test moves the
 * portal's clock) signs them out; a cross-site form or fetch cannot send; five wrong passwords
 * slow further attempts.
 */
const recruiterEmail = 'rita.recruiter@example.com';
const recruiterPassword = 'a long and quiet afternoon';
/** A recruiter made with the admin, for the journeys that need one already there. */
const rexEmail = 'rex.recruiter@example.com';

test('with sign-in on, a recruiter works only for their org, continues on another browser, and is signed out when idle', async ({
  browser,
  authPortal,
}) => {
  test.setTimeout(120_000);
  const url = authPortal.url;

  // The admin invites a recruiter for Northwind Health (1001) only.
  const admin = await newPage(browser);
  await signIn(admin.page, `${url}/users`, adminEmail, adminPassword);
  await expect(admin.page.getByRole('heading', { name: 'Users', level: 1 })).toBeVisible();
  await admin.page.getByLabel('E-mail').fill(recruiterEmail);
  await admin.page.getByRole('radio', { name: /^Recruiter/ }).check();
  await admin.page.getByRole('checkbox', { name: /^1001/ }).check();
  await admin.page.getByRole('button', { name: 'Invite' }).click();
  const link =
    (await admin.page.locator('code').filter({ hasText: '/invite/' }).textContent()) ?? '';
  expect(link).toMatch(/\/invite\/\S+$/);

  // The recruiter sets a password from the link and is signed in.
  const first = await newPage(browser);
  await first.page.goto(link);
  await first.page.getByLabel('New password', { exact: true }).fill(recruiterPassword);
  await first.page.getByLabel('The same password again').fill(recruiterPassword);
  await first.page.getByRole('button', { name: 'Set password and sign in' }).click();
  await expect(first.page.getByText(`${recruiterEmail} (recruiter)`)).toBeVisible();
  // Only the granted org is offered; the inspector and the users page are not.
  await expect(first.page.getByLabel('Client org').locator('option')).toHaveText([/^1001/]);
  const nav = first.page.getByRole('navigation', { name: 'Main' });
  await expect(nav.getByRole('link', { name: 'Inspector' })).toHaveCount(0);
  await expect(nav.getByRole('link', { name: 'Users' })).toHaveCount(0);
  // A hand-made call for the other org: 403, nothing asked of the VMS.
  const other = await first.page.request.get(
    `${url}/api/vms/requisitions?Client_Org_Id=1002&Vendor_Org_Id=9001`,
  );
  expect(other.status()).toBe(403);
  expect(((await other.json()) as { error: { code: string } }).error.code).toBe('forbidden');

  // A batch sent, and a draft left in the form.
  await first.page.goto(`${url}/requisitions/new`);
  const sent = insertData('Signed-in send');
  await fillRequiredInsert(first.page, sent);
  await addToBatch(first.page);
  const results = await sendBatch(first.page);
  await expect(results.getByRole('status').first()).toHaveText(
    'All 1 requisition processed: 1 Success',
    { timeout: 30_000 },
  );
  const draftTitle = `Draft kept for later ${Date.now().toString(36)}`;
  await first.page.getByLabel(/^Job title/).fill(draftTitle);
  // Saved (debounced), then synced: a sync runs when the window gets focus.
  await first.page.waitForTimeout(800);
  await first.page.evaluate(() => dispatchEvent(new Event('focus')));
  await expect(
    first.page.getByText(/^Drafts, batches and submissions saved on the server at/),
  ).toBeVisible();
  await first.page.waitForTimeout(1500);

  // Another browser: the submission and the draft are there.
  const second = await newPage(browser);
  await signIn(second.page, `${url}/submissions`, recruiterEmail, recruiterPassword);
  await expect(
    second.page.getByText(/^Drafts, batches and submissions saved on the server at/),
  ).toBeVisible();
  await expect(second.page.getByRole('article')).toHaveCount(1);
  await second.page.goto(`${url}/requisitions/new`);
  await expect(second.page.getByLabel(/^Job title/)).toHaveValue(draftTitle);

  // 31 minutes without use: the next call is refused and the sign-in page comes back.
  authPortal.advance(31 * 60_000);
  await second.page.goto(`${url}/submissions`);
  await expect(
    second.page.getByRole('heading', { name: 'Sign in to the VMS submission portal' }),
  ).toBeVisible();

  for (const opened of [admin, first, second]) await opened.context.close();
});

test('a recruiter who opens /users is told it is for administrators; an admin ends their sessions', async ({
  browser,
  authPortal,
}) => {
  const url = authPortal.url;
  await authPortal.addUser(rexEmail, recruiterPassword);
  const rex = await newPage(browser);
  await signIn(rex.page, `${url}/users`, rexEmail, recruiterPassword);
  await expect(rex.page.getByRole('heading', { name: 'Not allowed', level: 1 })).toBeVisible();
  await expect(rex.page.getByText(/^This page is for administrators/)).toBeVisible();
  await expect(rex.page.getByRole('heading', { name: 'Users', level: 1 })).toHaveCount(0);
  await expect(rex.page.getByRole('button', { name: 'Invite' })).toHaveCount(0);

  const admin = await newPage(browser);
  await signIn(admin.page, `${url}/users`, adminEmail, adminPassword);
  await admin.page.getByRole('button', { name: `End sessions of ${rexEmail}` }).click();
  await expect(admin.page.getByRole('status').filter({ hasText: 'Ended 1 session of' })).toHaveText(
    `Ended 1 session of ${rexEmail}. They can sign in again.`,
  );

  // Signed out wherever they were, not disabled.
  await rex.page.goto(`${url}/requisitions`);
  await expect(
    rex.page.getByRole('heading', { name: 'Sign in to the VMS submission portal' }),
  ).toBeVisible();
  await signIn(rex.page, `${url}/requisitions`, rexEmail, recruiterPassword);
  await expect(rex.page.getByText(`${rexEmail} (recruiter)`)).toBeVisible();
  for (const opened of [admin, rex]) await opened.context.close();
});

test('a page on another site cannot make the portal send, by form or by fetch', async ({
  browser,
  authPortal,
}) => {
  const url = authPortal.url;
  const admin = await newPage(browser);
  await signIn(admin.page, `${url}/inspector`, adminEmail, adminPassword);
  await expect(admin.page.getByRole('heading', { name: 'Inspector' })).toBeVisible();

  // Another site, in the same browser (the admin's cookies are there).
  const attacker = Fastify();
  const sendUrl = `${url}/api/vms/requisitionimport?Client_Org_Id=1001&Vendor_Org_Id=9001`;
  attacker.get('/', async (_request, reply) =>
    reply
      .type('text/html')
      .send(
        `<form id="f" method="POST" action="${sendUrl}" enctype="text/plain"><input name='[{"a":"' value='"}]'></form>`,
      ),
  );
  const attackerUrl = await attacker.listen({ host: '127.0.0.1', port: 0 });
  try {
    const evil = await openPage(admin.context);
    await evil.goto(attackerUrl.replace('127.0.0.1', 'localhost'));
    // Whatever the browser lets through, the journal below must show nothing forwarded.
    await evil.evaluate(async (target) => {
      await fetch(target, {
        method: 'POST',
        mode: 'no-cors',
        credentials: 'include',
        headers: { 'content-type': 'text/plain' },
        body: '[{"titlerole":"sent by another site"}]',
      }).catch(() => undefined);
    }, sendUrl);
    await Promise.all([
      evil.waitForNavigation(),
      evil.evaluate(() => {
        (document.getElementById('f') as HTMLFormElement).submit();
      }),
    ]);
    expect(await evil.textContent('body')).toMatch(
      /csrf_failed|another site|forbidden|415|not allowed/i,
    );
  } finally {
    await attacker.close();
  }

  // Nothing reached the VMS: no POST in the journal was forwarded.
  const journal = await admin.page.request.get(`${url}/api/journal?method=POST&status=2xx`);
  expect(((await journal.json()) as { entries: unknown[] }).entries).toHaveLength(0);
  await admin.context.close();
});

test('five wrong passwords slow further attempts, and the message never says which part was wrong', async ({
  page,
  authPortal,
}) => {
  await page.goto(authPortal.url);
  const refusal = 'The e-mail address or the password is not right. Check both and try again.';
  // An account that does not exist gets the same answer as a wrong password.
  await page.getByLabel('E-mail').fill('nobody@example.com');
  await page.getByLabel('Password').fill('whatever it may be');
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByRole('alert')).toHaveText(refusal);
  for (let attempt = 1; attempt <= 5; attempt += 1) {
    await page.getByLabel('E-mail').fill(adminEmail);
    await page.getByLabel('Password').fill(`wrong password ${attempt}`);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect(page.getByRole('alert')).toHaveText(refusal);
  }
  // The sixth is refused even with the right password, saying how long to wait.
  await page.getByLabel('Password').fill(adminPassword);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByRole('alert')).toHaveText(
    /^Too many failed sign-ins .* Wait \d+ seconds? and try again\.$/,
  );
  await expect(
    page.getByRole('heading', { name: 'Sign in to the VMS submission portal' }),
  ).toBeVisible();
});
