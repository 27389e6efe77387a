import type { Page } from '@playwright/test';
import type { Browser } from '@playwright/test';
import { signIn } from './support/auth-portal';
import {
  addCandidateToBatch,
  answerRequisition,
  candidateData,
  fillCandidate,
  openCandidateForm,
} from './support/candidates';
import { expect, expectNoAxeViolations, openPage } from './support/fixtures';
import { addToBatch, fillRequiredInsert, insertData } from './support/requisitions';
import { adminEmail, adminPassword, test } from './support/two-connections';

/*
 * One portal, two VMS connections side by side: the sandbox and "Acme live", a production VMS
 * that answers in another profile. Each connection's tray, drafts and lists are its own; a batch
 * crosses only by "Copy this batch"; production's first send asks; a user granted one connection
 * sees only it, and a hand-made call to the other is refused.
 */

/** A browser of its own, whose relative addresses are the portal's. */
async function newPage(browser: Browser, baseURL: string) {
  const context = await browser.newContext({ baseURL });
  return { context, page: await openPage(context) };
}

const connectionSelect = (page: Page) => page.getByLabel('VMS connection');
const tray = (page: Page) => page.getByRole('region', { name: 'Batch to send' });

/** Switches the page to `name`: it reloads into the other connection. */
async function switchTo(page: Page, name: string) {
  await Promise.all([page.waitForEvent('load'), connectionSelect(page).selectOption(name)]);
  await expect(connectionSelect(page)).toHaveValue(name);
}

/** Sends the tray (answering production's question when asked) and returns the results' rows. */
async function send(page: Page, expectQuestion: string | null) {
  await page.getByRole('button', { name: /^Send batch/ }).click();
  const question = page.getByRole('dialog');
  if (expectQuestion !== null) {
    await expect(question.getByRole('heading')).toHaveText(expectQuestion);
    await question.getByRole('button', { name: /^Send \d+ \w+ to / }).click();
  }
  await expect(page.getByRole('heading', { name: 'Batch accepted' })).toBeVisible();
  await expect(question).toBeHidden();
  return page.getByRole('region', { name: /^Results of batch/ }).getByRole('row');
}

test('requisitions and candidates go to the connection chosen, each with its own tray, drafts and list; production asks first; a batch crosses only when copied', async ({
  browser,
  twoConnections,
}) => {
  test.setTimeout(180_000);
  const { context, page } = await newPage(browser, twoConnections.url);
  await signIn(page, `${twoConnections.url}/requisitions/new`, adminEmail, adminPassword);
  await expect(connectionSelect(page)).toHaveValue('sandbox');
  await expect(connectionSelect(page).locator('option')).toHaveText([
    'Sandbox',
    'Acme live (production)',
  ]);
  await expect(page.getByText(/^Production:/)).toHaveCount(0);

  // On the sandbox: one requisition sent, one left in the batch, a draft left in the form.
  const sentHere = insertData('Sandbox sent');
  await fillRequiredInsert(page, sentHere);
  await addToBatch(page);
  let rows = await send(page, null);
  await expect(rows.nth(1).getByText('Success', { exact: true })).toBeVisible({ timeout: 15_000 });
  const keptHere = insertData('Kept on sandbox');
  await fillRequiredInsert(page, keptHere);
  await addToBatch(page);
  await page.getByLabel(/^Job title/).fill('Draft on the sandbox');
  await expect(tray(page)).toContainText(keptHere.title);

  // The kept one copied to Acme live: the sandbox's batch keeps it.
  await page.getByRole('button', { name: 'Copy this batch to Acme live…' }).click();
  const copyDialog = page.getByRole('dialog');
  await expect(copyDialog).toContainText('a production VMS');
  await expect(copyDialog.getByLabel('Client org there')).toHaveValue('1001');
  await copyDialog.getByRole('button', { name: 'Copy 1 requisition' }).click();
  await expect(page.getByRole('status').filter({ hasText: /^Copied/ })).toContainText(
    'Copied 1 requisition to the batch of Acme live (client org 1001).',
  );
  await expect(tray(page)).toContainText(keptHere.title);

  // On Acme live: marked production in words, its own batch (the copy only), no sandbox draft.
  await switchTo(page, 'live');
  await expect(page.getByText(/^Production: Acme live\./)).toBeVisible();
  await expect(page.getByText('Sandbox.', { exact: true })).toHaveCount(0);
  await expect(tray(page)).toContainText(keptHere.title);
  await expect(tray(page)).not.toContainText(sentHere.title);
  await expect(page.getByLabel(/^Job title/)).toHaveValue('');
  // The marking passes the accessibility checks in light and in dark.
  for (const colorScheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme });
    await expectNoAxeViolations(page);
  }

  // Its first send asks, naming the connection and the count; the VMS's own words read right.
  rows = await send(page, 'Send to Acme live, a production VMS?');
  await expect(rows.nth(1).getByText('Success', { exact: true })).toBeVisible({ timeout: 15_000 });
  await expect(rows.nth(1).getByRole('link', { name: /^\d+$/ })).toBeVisible();

  // A candidate batch on Acme live: no second question in this session.
  await openCandidateForm(page, '40001');
  const liveCandidate = candidateData('Lin');
  await fillCandidate(page, liveCandidate);
  await answerRequisition(page, 3, 2);
  await addCandidateToBatch(page);
  rows = await send(page, null);
  await expect(rows.nth(1).getByText('New', { exact: true })).toBeVisible({ timeout: 15_000 });

  // Its requisition list is its own: the copy sent there, not what the sandbox holds.
  await page.goto('/requisitions');
  await expect(page.getByText(keptHere.title)).toBeVisible();
  await expect(page.getByText(sentHere.title)).toHaveCount(0);

  // Back on the sandbox: its batch and draft as they were, its list without Acme live's.
  await switchTo(page, 'sandbox');
  await expect(page.getByText(/^Production:/)).toHaveCount(0);
  await expect(page.getByText(sentHere.title)).toBeVisible();
  await expect(page.getByText(keptHere.title)).toHaveCount(0);
  await page.goto('/requisitions/new');
  await expect(page.getByLabel(/^Job title/)).toHaveValue('Draft on the sandbox');
  await expect(tray(page)).toContainText(keptHere.title);

  // A candidate batch on the sandbox.
  await openCandidateForm(page, '40001');
  await fillCandidate(page, candidateData('Sam'));
  await answerRequisition(page, 3, 2);
  await addCandidateToBatch(page);
  rows = await send(page, null);
  await expect(rows.nth(1).getByText('New', { exact: true })).toBeVisible({ timeout: 15_000 });

  // Submissions lists each connection's batches only.
  await page.goto('/submissions');
  await expect(page.getByText(liveCandidate.lastName)).toHaveCount(0);
  await context.close();
});

test('a user granted only the sandbox sees only it, and a hand-made call to Acme live is refused', async ({
  browser,
  twoConnections,
}) => {
  test.setTimeout(120_000);
  const url = twoConnections.url;
  const admin = await newPage(browser, url);
  await signIn(admin.page, `${url}/users`, adminEmail, adminPassword);
  await expect(admin.page.getByRole('heading', { name: 'Users', level: 1 })).toBeVisible();
  await admin.page.getByLabel('E-mail').fill('sam.sandbox@example.com');
  await admin.page.getByRole('radio', { name: /^Recruiter/ }).check();
  await admin.page.getByRole('checkbox', { name: /^1001/ }).check();
  const connections = admin.page.getByRole('group', { name: 'VMS connections' });
  // Production is never granted by default.
  await expect(connections.getByRole('checkbox', { name: 'Sandbox' })).toBeChecked();
  await expect(
    connections.getByRole('checkbox', { name: 'Acme live (production)' }),
  ).not.toBeChecked();
  await admin.page.getByRole('button', { name: 'Invite' }).click();
  await expect(admin.page.getByRole('status').filter({ hasText: 'is invited' })).toBeVisible();
  const link =
    (await admin.page.locator('code').filter({ hasText: '/invite/' }).textContent()) ?? '';

  const recruiter = await newPage(browser, url);
  await recruiter.page.goto(link);
  const password = 'a quiet and careful recruiter';
  await recruiter.page.getByLabel('New password', { exact: true }).fill(password);
  await recruiter.page.getByLabel('The same password again').fill(password);
  await recruiter.page.getByRole('button', { name: 'Set password and sign in' }).click();
  await expect(recruiter.page.getByText('sam.sandbox@example.com (recruiter)')).toBeVisible();
  // No choice of connection: the one granted is named.
  await expect(connectionSelect(recruiter.page)).toHaveCount(0);
  await expect(recruiter.page.locator('.org-bar')).toContainText('VMS Sandbox');

  const orgs = 'Client_Org_Id=1001&Vendor_Org_Id=9001';
  const refused = await recruiter.page.request.get(`${url}/api/vms/requisitions?${orgs}`, {
    headers: { 'x-vms-connection': 'live' },
  });
  expect(refused.status()).toBe(403);
  expect(((await refused.json()) as { error: { code: string } }).error.code).toBe(
    'connection_not_permitted',
  );
  const allowed = await recruiter.page.request.get(`${url}/api/vms/requisitions?${orgs}`);
  expect(allowed.status()).toBe(200);

  // Granted Acme live later, they may use it.
  const grant = admin.page.getByRole('checkbox', {
    name: 'sam.sandbox@example.com may use Acme live (production)',
  });
  await grant.click();
  await expect(grant).toBeChecked();
  await expect
    .poll(async () =>
      (
        await recruiter.page.request.get(`${url}/api/vms/requisitions?${orgs}`, {
          headers: { 'x-vms-connection': 'live' },
        })
      ).status(),
    )
    .toBe(200);

  // The admin checks each connection: Acme live, read with its own profile, passes too.
  await admin.page.goto('/connections');
  await admin.page.getByRole('button', { name: 'Check Acme live' }).click();
  const report = admin.page.getByRole('region', { name: /^Checked / });
  await expect(report.getByText(/^Every check passed \(\d+\)\.$/)).toBeVisible({ timeout: 15_000 });
  await admin.context.close();
  await recruiter.context.close();
});
