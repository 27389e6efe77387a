import { readFile } from 'node:fs/promises';
import { adminEmail, adminPassword, newPage, signIn, test } from './support/auth-portal';
import {
  addCandidateToBatch,
  answerRequisition,
  candidateData,
  fillCandidate,
} from './support/candidates';
import { expect, expectNoAxeViolations } from './support/fixtures';
import { sendBatch } from './support/requisitions';

/*
 * Personal data shown only to those who need it (decision 058), in a browser, sign-in on: a
 * recruiter submits a candidate; a QA user finds the call in the inspector with the candidate's
 * name and e-mail masked in the call, its HAR and its cURL copy, and cannot reveal it without a
 * reason; an admin reveals it giving one and sees it in full; the audit trail shows who, which
 * call and why.
 */
const recruiterEmail = 'rita.recruiter@example.com';
const qaEmail = 'quinn.qa@example.com';
const password = 'a long and quiet afternoon';

test('a candidate’s name and e-mail are masked for QA, revealed by an admin for a reason, and the reveal is in the audit trail', async ({
  browser,
  authPortal,
}) => {
  test.setTimeout(120_000);
  const url = authPortal.url;
  await authPortal.addUser(recruiterEmail, password);
  await authPortal.addUser(qaEmail, password, [1001], 'qa');
  const candidate = candidateData('Philippa');
  const emailMask = `${candidate.email[0] ?? ''}•••@example.com`;

  const recruiter = await newPage(browser);
  await signIn(recruiter.page, `${url}/candidates?reqId=40001`, recruiterEmail, password);
  await expect(
    recruiter.page.getByRole('heading', {
      level: 1,
      name: 'Submit a candidate to requisition 40001',
    }),
  ).toBeVisible();
  await fillCandidate(recruiter.page, candidate);
  await answerRequisition(recruiter.page, 3, 2);
  await addCandidateToBatch(recruiter.page);
  await sendBatch(recruiter.page);

  // QA finds the call by the candidate's e-mail, and sees it masked.
  const qa = await newPage(browser);
  await signIn(
    qa.page,
    `${url}/inspector?q=${encodeURIComponent(candidate.email)}&method=POST`,
    qaEmail,
    password,
  );
  const rows = qa.page.locator('.inspector__list tbody tr');
  await expect(rows).toHaveCount(1);
  await rows.first().getByRole('button', { name: 'POST candidates' }).click();
  const detail = qa.page.locator('.inspector__detail');
  const requestBody = detail.getByRole('region', { name: 'Request body' });
  await expect(requestBody).toContainText(emailMask);
  await expect(requestBody).not.toContainText(candidate.email);
  await expect(requestBody).not.toContainText(candidate.lastName);
  await expect(detail).toContainText(/Request body \(.*personal values masked\)/);

  const download = qa.page.waitForEvent('download');
  await qa.page.getByRole('link', { name: 'Export HAR' }).click();
  const har = await readFile(await (await download).path(), 'utf8');
  expect(har).toContain('candemail');
  expect(har).not.toContain(candidate.email);
  expect(har).not.toContain(candidate.lastName);

  await detail.getByRole('button', { name: 'Copy as cURL' }).click();
  const curl = detail.getByRole('region', { name: 'cURL command' });
  await expect(curl).toContainText('Personal values are masked');
  await expect(curl).toContainText(emailMask);
  await expect(curl).not.toContainText(candidate.email);

  // No reason, no reveal.
  await detail.getByRole('button', { name: 'Reveal personal data' }).click();
  const reason = detail.getByRole('textbox', { name: /^Reason for revealing/ });
  await expect(reason).toBeVisible();
  await detail.getByRole('button', { name: 'Reveal', exact: true }).click();
  await expect(detail.getByRole('alert')).toHaveText(
    'Give a reason to reveal personal data: it is kept in the audit trail.',
  );
  await expect(requestBody).not.toContainText(candidate.email);
  await expectNoAxeViolations(qa.page);

  // An admin reveals it, giving a reason, and sees the call and its copy in full.
  const admin = await newPage(browser);
  await signIn(
    admin.page,
    `${url}/inspector?q=${encodeURIComponent(candidate.email)}&method=POST`,
    adminEmail,
    adminPassword,
  );
  const adminRows = admin.page.locator('.inspector__list tbody tr');
  await expect(adminRows).toHaveCount(1);
  await adminRows.first().getByRole('button', { name: 'POST candidates' }).click();
  const adminDetail = admin.page.locator('.inspector__detail');
  await adminDetail.getByRole('button', { name: 'Reveal personal data' }).click();
  const why = 'Candidate asked which e-mail address was sent';
  await adminDetail.getByRole('textbox', { name: /^Reason for revealing/ }).fill(why);
  await adminDetail.getByRole('button', { name: 'Reveal', exact: true }).click();
  const fullBody = adminDetail.getByRole('region', { name: 'Request body' });
  await expect(fullBody).toContainText(candidate.email);
  await expect(fullBody).toContainText(candidate.lastName);
  await expect(adminDetail.getByRole('button', { name: 'Reveal personal data' })).toHaveCount(0);
  await adminDetail.getByRole('button', { name: 'Copy as cURL' }).click();
  await expect(adminDetail.getByRole('region', { name: 'cURL command' })).toContainText(
    candidate.email,
  );

  // The selection's HAR with its personal data: only once a reason is given, and the reason in
  // no address the browser asks for (access logs and the history keep addresses).
  const addresses: string[] = [];
  admin.page.on('request', (request) => addresses.push(request.url()));
  await admin.page.getByRole('button', { name: 'Export with personal data…' }).click();
  await expect(
    admin.page.getByRole('button', { name: 'Export HAR with personal data' }),
  ).toHaveCount(0);
  const exportWhy = 'Export for the client’s data protection officer';
  await admin.page
    .getByRole('textbox', { name: /^Reason for exporting personal data/ })
    .fill(exportWhy);
  const fullDownload = admin.page.waitForEvent('download');
  await admin.page.getByRole('button', { name: 'Export HAR with personal data' }).click();
  const fullHar = await readFile(await (await fullDownload).path(), 'utf8');
  expect(fullHar).toContain(candidate.email);
  expect(addresses.filter((address) => address.includes('/api/journal/export'))).not.toEqual([]);
  for (const address of addresses) {
    expect(decodeURIComponent(address)).not.toContain('data protection officer');
  }

  // The audit trail: who revealed which call or export, and why; never the values.
  await admin.page.goto(`${url}/audit?event=personal_data_revealed`);
  const events = admin.page.getByRole('region', { name: 'Events' });
  const reveals = events.getByRole('row', { name: /Personal data revealed/ });
  await expect(reveals).toHaveCount(2);
  const row = reveals.filter({ hasText: why });
  await expect(row).toContainText(adminEmail);
  await expect(row).toContainText(`call: `);
  await expect(reveals.filter({ hasText: exportWhy })).toContainText('export: har');
  for (const text of await reveals.allTextContents()) expect(text).not.toContain(candidate.email);

  await recruiter.context.close();
  await qa.context.close();
  await admin.context.close();
});
