import { readFile } from 'node:fs/promises';
import type { Page } from '@playwright/test';
import { journalPageSchema } from '@/domain/journal';
import { subjectExportSchema } from '@/domain/personal-subject';
import { personalTraces, tracesIn } from '@/test-support/personal-traces';
import { queryTestDatabase } from '@/test-support/test-database';
import { adminEmail, adminPassword, newPage, signIn, test } from './support/auth-portal';
import {
  addCandidateToBatch,
  answerRequisition,
  fillCandidate,
  type CandidateData,
} from './support/candidates';
import { expect } from './support/fixtures';
import { sendBatch } from './support/requisitions';

/*
 * One person's data from the moment a recruiter types it to the moment an admin erases it
 * (decisions 058 and 059), in a browser against the real portal with sign-in on, on SQLite and
 * (the chromium-postgres project) PostgreSQL: a recruiter submits the person beside someone else
 * and leaves a draft naming them; QA sees the call masked in the inspector, its HAR and its cURL
 * copy; an admin reveals it for a reason (in the audit trail, without the values) and saves it as
 * a suite's cases (which keep generated values); the admin finds the person in every store,
 * exports and erases them. Afterwards no form of their name or e-mail is in the database's bytes
 * or its inflated journal bodies, the journal's search finds nothing, every page still reads the
 * erased batch, and the portal's log of the whole journey never held them.
 */
const recruiterEmail = 'rita.recruiter@example.com';
const qaEmail = 'quinn.qa@example.com';
const password = 'a long and quiet afternoon';

// Written nowhere else in the journey: every trace of these is theirs.
const subject: CandidateData = {
  firstName: 'Philomena',
  lastName: 'Quarrington',
  email: 'philomena.quarrington@example.net',
};
const someoneElse: CandidateData = {
  firstName: 'Omar',
  lastName: 'Reyes',
  email: 'omar.reyes@example.com',
};
const theirValues = [subject.email, subject.firstName, subject.lastName];

// As maskPersonal shows them: the first letter of each word, the rest bullets; the mailbox's first
// letter and the domain.
const maskedFirst = 'P••••••••';
const maskedLast = 'Q••••••••••';
const maskedEmail = 'p•••@example.net';

test.use({ portalLogLevel: 'debug' });

const syncing = { timeout: 20_000 };

/**
 * A POST sent by the page itself as its own scripts send one: same origin, its session's cookie
 * and CSRF token.
 */
function postFrom(page: Page, path: string, body: unknown) {
  return page.evaluate(
    async ({ path, body }) => {
      const session = (await (await fetch('/api/session')).json()) as { csrfToken: string };
      const answer = await fetch(path, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-csrf-token': session.csrfToken },
        body: JSON.stringify(body),
      });
      return { status: answer.status, text: await answer.text() };
    },
    { path, body },
  );
}

async function openSubmittedCall(page: Page) {
  const rows = page.locator('.inspector__list tbody tr');
  await expect(rows).toHaveCount(1);
  await rows.first().getByRole('button', { name: 'POST candidates' }).click();
  const detail = page.locator('.inspector__detail');
  await expect(detail.getByRole('region', { name: 'Request body' })).toBeVisible();
  return detail;
}

test('one candidate’s data masked, revealed for a reason, found in every store, exported and erased without a trace', async ({
  browser,
  authPortal,
}) => {
  test.setTimeout(120_000);
  const url = authPortal.url;
  await authPortal.addUser(recruiterEmail, password);
  await authPortal.addUser(qaEmail, password, [1001], 'qa');

  // 1. The recruiter submits them beside someone else, and the batch settles.
  const recruiter = await newPage(browser);
  const rita = recruiter.page;
  await signIn(rita, `${url}/candidates?reqId=40001`, recruiterEmail, password);
  await expect(
    rita.getByRole('heading', { level: 1, name: 'Submit a candidate to requisition 40001' }),
  ).toBeVisible();
  for (const candidate of [subject, someoneElse]) {
    await fillCandidate(rita, candidate);
    await answerRequisition(rita, 3, 2);
    await addCandidateToBatch(rita);
  }
  const results = await sendBatch(rita);
  await expect(results.getByRole('status').first()).toHaveText(
    'All 2 candidates processed: 2 New',
    { timeout: 30_000 },
  );

  // A draft naming them, and the batch as a submission, synced to the server: a sync runs when
  // the window gets focus, so each look gives it one (a sync still running lets it pass: on a
  // busy machine it takes a few looks).
  await rita.goto(`${url}/candidates?reqId=40001`);
  await fillCandidate(rita, subject);
  for (const collection of ['drafts', 'submissions']) {
    await expect
      .poll(async () => {
        await rita.evaluate(() => dispatchEvent(new Event('focus')));
        return (await rita.request.get(`${url}/api/me/${collection}?since=0`)).text();
      }, syncing)
      .toContain(subject.email);
  }
  // The tray the batch was sent from is empty on the server too, once its sync has caught up.
  await expect
    .poll(async () => {
      await rita.evaluate(() => dispatchEvent(new Event('focus')));
      return (await rita.request.get(`${url}/api/me/tray?since=0`)).text();
    }, syncing)
    .not.toContain(subject.email);

  // 2. QA finds the call by their e-mail and sees it masked, in the page and in every copy.
  const qa = await newPage(browser);
  const quinn = qa.page;
  const byEmail = `${url}/inspector?q=${encodeURIComponent(subject.email)}&method=POST`;
  await signIn(quinn, byEmail, qaEmail, password);
  const detail = await openSubmittedCall(quinn);
  const requestBody = detail.getByRole('region', { name: 'Request body' });
  for (const mask of [maskedFirst, maskedLast, maskedEmail])
    await expect(requestBody).toContainText(`"${mask}"`);
  await expect(requestBody).toContainText(`"${someoneElse.firstName[0] ?? ''}•••"`);
  expect(tracesIn('masked call', (await requestBody.textContent()) ?? '', theirValues)).toEqual([]);

  const harDownload = quinn.waitForEvent('download');
  await quinn.getByRole('link', { name: 'Export HAR' }).click();
  const har = await readFile(await (await harDownload).path(), 'utf8');
  expect(har).toContain('candemail');
  expect(tracesIn('HAR', har, theirValues)).toEqual([]);

  await detail.getByRole('button', { name: 'Copy as cURL' }).click();
  const curl = detail.getByRole('region', { name: 'cURL command' });
  await expect(curl).toContainText('Personal values are masked');
  await expect(curl).toContainText(maskedEmail);
  expect(tracesIn('cURL', (await curl.textContent()) ?? '', theirValues)).toEqual([]);

  // No reveal without a reason, in the form or at the server; a recruiter may not reveal at all.
  await detail.getByRole('button', { name: 'Reveal personal data' }).click();
  await detail.getByRole('button', { name: 'Reveal', exact: true }).click();
  await expect(detail.getByRole('alert')).toHaveText(
    'Give a reason to reveal personal data: it is kept in the audit trail.',
  );
  const listed = journalPageSchema.parse(
    await (await quinn.request.get(`${url}/api/journal?method=POST&q=${subject.email}`)).json(),
  );
  const callId = listed.entries[0]?.id;
  expect(listed.entries).toHaveLength(1);
  const reasonless = await postFrom(quinn, `/api/journal/${callId}/reveal`, { reason: '' });
  expect(reasonless.status).toBe(400);
  expect(reasonless.text).toContain('Give a reason to reveal personal data');
  const byRecruiter = await postFrom(rita, `/api/journal/${callId}/reveal`, {
    reason: 'I sent it',
  });
  expect(byRecruiter.status).toBe(403);
  await expect(requestBody).toContainText(maskedEmail);

  // 3. An admin reveals the call for a reason, and saves it as a suite's cases.
  const admin = await newPage(browser);
  const ada = admin.page;
  await signIn(ada, byEmail, adminEmail, adminPassword);
  const adminDetail = await openSubmittedCall(ada);
  await adminDetail.getByRole('button', { name: 'Reveal personal data' }).click();
  const why = 'Recruiter asked which e-mail address reached the VMS';
  await adminDetail.getByRole('textbox', { name: /^Reason for revealing/ }).fill(why);
  await adminDetail.getByRole('button', { name: 'Reveal', exact: true }).click();
  const fullBody = adminDetail.getByRole('region', { name: 'Request body' });
  await expect(fullBody).toContainText(subject.email);
  await expect(fullBody).toContainText(subject.lastName);

  await adminDetail.getByRole('button', { name: 'Save as cases…' }).click();
  const dialog = ada.getByRole('dialog', { name: /^Save 2 candidates as cases$/ });
  await dialog.getByLabel('A new suite').check();
  await dialog.getByLabel('Name of the new suite').fill('Privacy journey');
  await expect(dialog.getByLabel(/Keep the real personal data/)).not.toBeChecked();
  await dialog.getByRole('button', { name: 'Save the cases' }).click();
  await expect(dialog).toBeHidden();
  await expect(
    adminDetail.getByRole('status').filter({ hasText: /^Saved 2 cases to/ }),
  ).toBeVisible();

  await ada.goto(`${url}/audit?event=personal_data_revealed`);
  const reveals = ada
    .getByRole('region', { name: 'Events' })
    .getByRole('row', { name: /Personal data revealed/ });
  await expect(reveals).toHaveCount(1);
  await expect(reveals).toContainText(adminEmail);
  await expect(reveals).toContainText(why);
  await expect(reveals).toContainText(`call: ${callId}`);
  expect(tracesIn('audit trail', (await reveals.textContent()) ?? '', theirValues)).toEqual([]);

  // The suite's cases hold values each run makes, not theirs.
  await ada.goto(`${url}/suites`);
  await ada.getByRole('link', { name: 'Privacy journey' }).click();
  const cases = ada.locator('.suite-case');
  await expect(cases).toHaveCount(2);
  for (const index of [0, 1]) {
    await cases.nth(index).locator('summary').click();
    const item = cases.nth(index).getByLabel(/^Item as JSON/);
    await expect(item).toHaveValue(/"candemail": ?"\{\{unique\.email\}\}"/);
    expect(tracesIn(`case ${index + 1}`, await item.inputValue(), theirValues)).toEqual([]);
  }
  expect(
    tracesIn('suite page', (await ada.locator('main').textContent()) ?? '', theirValues),
  ).toEqual([]);

  // 4. The admin finds them in every store, exports what is held, and erases it.
  const before = await personalTraces(authPortal.portalDb, theirValues, authPortal.databaseUrl);
  // The scan sees them before the erasure, in the file or dump and in a deflated body alike.
  expect(before.some((trace) => trace.startsWith('database'))).toBe(true);
  expect(before.some((trace) => trace.startsWith('journal body'))).toBe(true);
  await ada
    .getByRole('navigation', { name: 'Main' })
    .getByRole('link', { name: 'Personal data' })
    .click();
  await expect(ada.getByRole('heading', { level: 1, name: 'Personal data' })).toBeVisible();
  await ada.getByLabel('E-mail').fill(subject.email);
  await ada
    .getByLabel('Name (first and last, optional)')
    .fill(`${subject.firstName} ${subject.lastName}`);
  await ada.getByRole('button', { name: 'Find' }).click();
  const stores = ada.getByRole('table', { name: 'Where they are held' });
  // The call that sent them, the draft that names them and the submission synced from the
  // recruiter's browser; the suite keeps generated values, the watch ids and statuses, and the
  // audit trail the reveal's reason alone.
  await expect(stores.getByRole('row')).toHaveText([
    'StoreRecords',
    'Call journal1',
    'Drafts1',
    'Submissions (synced)1',
  ]);

  const reason = 'Her request by e-mail of 30 November';
  await ada.getByLabel('Reason').fill(reason);
  const [exported] = await Promise.all([
    ada.waitForEvent('download'),
    ada.getByRole('button', { name: 'Export JSON' }).click(),
  ]);
  const held = subjectExportSchema.parse(JSON.parse(await readFile(await exported.path(), 'utf8')));
  expect(held.counts).toEqual({ journal: 1, drafts: 1, submissions: 1 });
  expect(held.records.map((record) => record.store).sort()).toEqual([
    'drafts',
    'journal',
    'submissions',
  ]);
  for (const record of held.records) {
    expect(record.items, record.store).toContainEqual(
      expect.objectContaining({
        firstname: subject.firstName,
        lastname: subject.lastName,
        candemail: subject.email,
      }),
    );
  }
  expect(JSON.stringify(held.records)).not.toContain(someoneElse.email);

  await ada.getByRole('button', { name: 'Erase…' }).click();
  await ada
    .getByRole('dialog', { name: 'Erase this person’s data?' })
    .getByRole('button', { name: 'Erase' })
    .click();
  await expect(ada.getByText(/^Erased 3 record\(s\) at /)).toBeVisible();
  await expect(ada.getByText('Nothing is held about this person.')).toBeVisible();
  await ada.goto(`${url}/audit?event=personal_data_erased`);
  const erasure = ada
    .getByRole('region', { name: 'Events' })
    .getByRole('row', { name: /A person's data erased/ });
  await expect(erasure).toHaveCount(1);
  await expect(erasure).toContainText(adminEmail);
  await expect(erasure).toContainText(reason);
  expect(tracesIn('audit trail', (await erasure.textContent()) ?? '', theirValues)).toEqual([]);

  // 5. No form of their name or e-mail is left in the database: its bytes (SQLite's after a
  // checkpoint moved the WAL into the file; PostgreSQL's as pg_dump writes them) and each journal
  // body inflated.
  if (authPortal.databaseUrl === null) {
    await queryTestDatabase(authPortal.portalDb, 'PRAGMA wal_checkpoint(TRUNCATE)', null);
  }
  expect(await personalTraces(authPortal.portalDb, theirValues, authPortal.databaseUrl)).toEqual(
    [],
  );

  // The journal's search finds them by neither e-mail nor name; the other candidate still.
  for (const q of [subject.email, subject.lastName, subject.firstName]) {
    await ada.goto(`${url}/inspector?q=${encodeURIComponent(q)}`);
    await expect(ada.getByText('No call matches these filters.')).toBeVisible();
  }
  await ada.goto(`${url}/inspector?q=${someoneElse.lastName}&method=POST`);
  const erasedDetail = await openSubmittedCall(ada);
  const erasedBody = erasedDetail.getByRole('region', { name: 'Request body' });
  await expect(erasedBody).toContainText(/\[erased \d{4}-\d\d-\d\d\]/);

  // Every page still reads the erased batch: its results, the suites, the submissions.
  await rita.goto(`${url}/submissions`);
  const article = rita.getByRole('article');
  await expect(article).toHaveCount(1);
  // The browser's sync on opening the page brings the erased copy of its submission.
  await expect(article).toContainText('[erased ', syncing);
  // The latest batch opens with its results: each row's status kept, the person's values erased.
  await expect(article.getByRole('button', { name: 'Hide results' })).toBeVisible();
  const batchResults = article.getByRole('region', { name: /^Results of batch/ });
  await expect(batchResults.getByRole('status').first()).toHaveText(
    'All 2 candidates processed: 2 New',
  );
  const resultRows = batchResults.getByRole('rowgroup').nth(1).getByRole('row');
  await expect(resultRows).toHaveCount(2);
  await expect(resultRows.nth(0)).toContainText(/\[erased \d{4}-\d\d-\d\d\]/);
  await expect(resultRows.nth(1)).toContainText(someoneElse.lastName);
  for (const row of [0, 1]) {
    await expect(resultRows.nth(row).getByRole('cell').nth(2)).toHaveText('New');
  }
  expect(tracesIn('Submissions', (await article.textContent()) ?? '', theirValues)).toEqual([]);

  await ada.goto(`${url}/suites`);
  await ada.getByRole('link', { name: 'Privacy journey' }).click();
  await expect(ada.locator('.suite-case')).toHaveCount(2);

  // 6. The portal logged the whole journey, at debug, and never one of their values.
  // The call that carried them is in it (an empty log would prove nothing).
  const log = authPortal.log();
  const lines = log
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as Record<string, unknown>);
  expect(lines).toContainEqual(
    expect.objectContaining({ operation: 'candidates', itemCount: 2, status: 202 }),
  );
  expect(tracesIn('log', log, theirValues)).toEqual([]);

  for (const opened of [recruiter, qa, admin]) await opened.context.close();
});
