import type { Page } from '@playwright/test';
import { fillSignIn, newPage, signIn, test, type AuthPortal } from './support/auth-portal';
import { expect, expectNoAxeViolations, openPage } from './support/fixtures';
import { addToBatch, fillRequiredInsert, insertData } from './support/requisitions';

/*
 * A browser shared by two recruiters, with sign-in on: one's unsent work (a draft, a batch) is
 * never shown to the other nor saved into the other's records, whether the first signed out or
 * their session simply ended; it is theirs again when they sign in. "Sign out everywhere" ends
 * the user's other sessions and says how many.
 */
const rita = { email: 'rita.recruiter@example.com', password: 'a long and quiet afternoon' };
const sam = { email: 'sam.recruiter@example.com', password: 'an early and noisy morning' };
const signInHeading = { name: 'Sign in to the VMS submission portal' };
const syncedNote = /^Drafts, batches and submissions saved on the server at/;

async function addUsers(portal: AuthPortal) {
  await portal.addUser(rita.email, rita.password);
  await portal.addUser(sam.email, sam.password);
}

/** A batch item and a draft left in the form, unsent; returns the titles of both. */
async function leaveUnsentWork(page: Page, url: string) {
  await page.goto(`${url}/requisitions/new`);
  const batched = insertData('Batched not sent');
  await fillRequiredInsert(page, batched);
  await addToBatch(page);
  const draftTitle = `Draft not sent ${Date.now().toString(36)}`;
  await page.getByLabel(/^Job title/).fill(draftTitle);
  await expect(page.getByText(batched.title, { exact: true })).toBeVisible();
  return { batchedTitle: batched.title, draftTitle };
}

/** What the portal keeps for the signed-in user, every collection, as the API gives it. */
async function serverRecords(page: Page, url: string): Promise<string> {
  const texts: string[] = [];
  for (const collection of ['drafts', 'tray', 'submissions']) {
    const answer = await page.request.get(`${url}/api/me/${collection}`);
    expect(answer.status()).toBe(200);
    texts.push(await answer.text());
  }
  return texts.join('\n');
}

/** The user's own work keys in this browser's localStorage and its batch database. */
async function workInBrowser(page: Page): Promise<string[]> {
  return page.evaluate(async () => {
    const keys = Object.keys(localStorage).filter((key) =>
      /^vms-portal:v1:(draft|tray|submissions):/.test(`${key}:`),
    );
    const db = await new Promise<IDBDatabase>((resolve, reject) => {
      const request = indexedDB.open('vms-portal-lists');
      request.onsuccess = () => resolve(request.result);
      request.onerror = () => reject(request.error ?? new Error('no database'));
    });
    const lists = db.objectStoreNames.contains('lists')
      ? await new Promise<string[]>((resolve) => {
          const request = db.transaction('lists').objectStore('lists').getAllKeys();
          request.onsuccess = () => resolve(request.result.map(String));
        })
      : [];
    db.close();
    return [...keys, ...lists.filter((key) => key.startsWith('vms-portal:v1:tray:'))];
  });
}

/** Signed in on a page of the app, once the first sync with the server has run. */
async function signedInAndSynced(page: Page, email: string) {
  await expect(page.getByText(`${email} (recruiter)`)).toBeVisible();
  await expect(page.getByText(syncedNote)).toBeVisible({ timeout: 15_000 });
}

test('signing out clears the app and the browser of one recruiter’s unsent work, and it is theirs again on signing in', async ({
  browser,
  authPortal,
}) => {
  test.setTimeout(120_000);
  const url = authPortal.url;
  await addUsers(authPortal);
  const { context, page } = await newPage(browser);

  await signIn(page, `${url}/requisitions/new`, rita.email, rita.password);
  await expect(page.getByText(`${rita.email} (recruiter)`)).toBeVisible();
  const work = await leaveUnsentWork(page, url);

  // Sign out: the sign-in form replaces the app at once, with nothing of Rita's on it.
  await page.getByRole('button', { name: 'Sign out' }).click();
  await expect(page.getByText(rita.email)).toHaveCount(0);
  await expect(page.getByRole('heading', signInHeading)).toBeVisible();
  await expect(page.getByRole('status')).toContainText('You have signed out.');
  await expect(page.getByRole('status')).toContainText('saved on the server');
  await expect(page.locator('body')).not.toContainText(rita.email);
  await expectNoAxeViolations(page);
  expect(await workInBrowser(page)).toEqual([]);

  // Sam on the same browser: none of Rita's work, here or in his records on the server.
  await fillSignIn(page, sam.email, sam.password);
  await signedInAndSynced(page, sam.email);
  await page.goto(`${url}/requisitions/new`);
  await signedInAndSynced(page, sam.email);
  await expect(page.getByLabel(/^Job title/)).toHaveValue('');
  await expect(page.locator('body')).not.toContainText(work.batchedTitle);
  await expect(page.locator('body')).not.toContainText(work.draftTitle);
  const samsRecords = await serverRecords(page, url);
  expect(samsRecords).not.toContain(work.batchedTitle);
  expect(samsRecords).not.toContain(work.draftTitle);

  // Rita again, on the same browser: her draft and her batch are back, from the server.
  await page.getByRole('button', { name: 'Sign out' }).click();
  await expect(page.getByRole('heading', signInHeading)).toBeVisible();
  await fillSignIn(page, rita.email, rita.password);
  await signedInAndSynced(page, rita.email);
  await page.goto(`${url}/requisitions/new`);
  await expect(page.getByLabel(/^Job title/)).toHaveValue(work.draftTitle);
  await expect(page.getByText(work.batchedTitle, { exact: true })).toBeVisible();
  await context.close();
});

test('when a recruiter’s session ends without signing out, the next one on the browser gets none of their work', async ({
  browser,
  authPortal,
}) => {
  test.setTimeout(120_000);
  const url = authPortal.url;
  await addUsers(authPortal);
  const { context, page } = await newPage(browser);

  await signIn(page, `${url}/requisitions/new`, rita.email, rita.password);
  await expect(page.getByText(`${rita.email} (recruiter)`)).toBeVisible();
  const work = await leaveUnsentWork(page, url);
  // Saved in the browser (debounced) before she walks away.
  await page.waitForTimeout(800);

  // Her session ends (the cookie is gone, as after expiry): the page, still holding her work in
  // memory, notices at its next call and asks who is there.
  await context.clearCookies();
  await page.evaluate(() => dispatchEvent(new Event('focus')));
  await expect(page.getByRole('heading', signInHeading)).toBeVisible({ timeout: 20_000 });

  // Sam signs in on that very page.
  await fillSignIn(page, sam.email, sam.password);
  await signedInAndSynced(page, sam.email);
  await expect(page.getByLabel(/^Job title/)).toHaveValue('');
  await expect(page.locator('body')).not.toContainText(work.batchedTitle);
  await expect(page.locator('body')).not.toContainText(work.draftTitle);
  // A later sync too sends nothing of hers into his records.
  await page.evaluate(() => dispatchEvent(new Event('focus')));
  await page.waitForTimeout(1000);
  const samsRecords = await serverRecords(page, url);
  expect(samsRecords).not.toContain(work.batchedTitle);
  expect(samsRecords).not.toContain(work.draftTitle);

  // Her work was kept aside for her: she finds it when she signs in here again.
  await page.getByRole('button', { name: 'Sign out' }).click();
  await expect(page.getByRole('heading', signInHeading)).toBeVisible();
  await fillSignIn(page, rita.email, rita.password);
  await signedInAndSynced(page, rita.email);
  await page.goto(`${url}/requisitions/new`);
  await expect(page.getByLabel(/^Job title/)).toHaveValue(work.draftTitle);
  await expect(page.getByText(work.batchedTitle, { exact: true })).toBeVisible();
  await context.close();
});

test('signing out everywhere ends the recruiter’s other sessions and says how many', async ({
  browser,
  authPortal,
}) => {
  test.setTimeout(90_000);
  const url = authPortal.url;
  await addUsers(authPortal);
  const laptop = await newPage(browser);
  const desktop = await newPage(browser);
  await signIn(desktop.page, `${url}/requisitions`, rita.email, rita.password);
  await expect(desktop.page.getByText(`${rita.email} (recruiter)`)).toBeVisible();
  await signIn(laptop.page, `${url}/settings`, rita.email, rita.password);
  await expect(laptop.page.getByRole('heading', { name: 'Your account' })).toBeVisible();
  await expectNoAxeViolations(laptop.page);

  await laptop.page.getByRole('button', { name: 'Sign out everywhere' }).click();
  const dialog = laptop.page.getByRole('dialog', { name: 'Sign out everywhere?' });
  await dialog.getByRole('button', { name: 'Sign out everywhere' }).click();
  await expect(laptop.page.getByRole('heading', signInHeading)).toBeVisible();
  await expect(laptop.page.getByRole('status')).toContainText(
    'You have signed out. You were also signed out on 1 other browser or device.',
  );
  await expect(laptop.page.locator('body')).not.toContainText(rita.email);

  // The other browser's session has ended: its next call is refused, its next page asks again.
  expect((await desktop.page.request.get(`${url}/api/me/drafts`)).status()).toBe(401);
  await desktop.page.reload();
  await expect(desktop.page.getByRole('heading', signInHeading)).toBeVisible();
  for (const opened of [laptop, desktop]) await opened.context.close();
});

test('signing out in one tab takes the recruiter’s pages out of the browser’s other tabs too', async ({
  browser,
  authPortal,
}) => {
  test.setTimeout(90_000);
  const url = authPortal.url;
  await addUsers(authPortal);
  const { context, page } = await newPage(browser);
  await signIn(page, `${url}/requisitions/new`, rita.email, rita.password);
  await expect(page.getByText(`${rita.email} (recruiter)`)).toBeVisible();
  const work = await leaveUnsentWork(page, url);
  const other = await openPage(context);
  await other.goto(`${url}/requisitions/new`);
  await expect(other.getByText(work.batchedTitle, { exact: true })).toBeVisible();

  await page.getByRole('button', { name: 'Sign out' }).click();
  await expect(page.getByRole('status')).toContainText('You have signed out.');
  // The other tab, left alone, no longer shows her pages or her work.
  await expect(other.getByRole('heading', signInHeading)).toBeVisible();
  await expect(other.locator('body')).not.toContainText(rita.email);
  await expect(other.locator('body')).not.toContainText(work.batchedTitle);

  // Sam signs in there: nothing of hers.
  await fillSignIn(other, sam.email, sam.password);
  await signedInAndSynced(other, sam.email);
  await other.goto(`${url}/requisitions/new`);
  await expect(other.getByLabel(/^Job title/)).toHaveValue('');
  await expect(other.locator('body')).not.toContainText(work.batchedTitle);
  await context.close();
});
