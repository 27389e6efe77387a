import { expect, test } from './support/fixtures';
import {
  addQuestion,
  addSkill,
  addToBatch,
  fetchRequisition,
  fillRequiredInsert,
  insertData,
  sendBatch,
  threeSkills,
  twoQuestions,
} from './support/requisitions';

test('create a requisition with 3 skills and 2 questions, send it, find it, then put it On Hold', async ({
  page,
}) => {
  const data = insertData();
  await page.goto('/requisitions/new');
  await expect(page.getByRole('heading', { name: 'New requisition', level: 1 })).toBeVisible();

  await fillRequiredInsert(page, data);
  for (const [index, skill] of threeSkills.entries()) await addSkill(page, index + 1, skill);
  for (const [index, question] of twoQuestions.entries())
    await addQuestion(page, index + 1, question);
  await addToBatch(page);

  // The form is blank again (the org id kept) and the item waits in the tray.
  await expect(page.getByLabel(/^Job title/)).toHaveValue('');
  await expect(page.getByLabel(/^Org ID/)).toHaveValue('1001');
  const tray = page.getByRole('region', { name: 'Batch to send' });
  await expect(tray.getByRole('listitem')).toHaveCount(1);
  await expect(tray.getByRole('listitem')).toContainText(data.reference);
  await expect(tray.getByRole('listitem')).toContainText('Ready');

  const results = await sendBatch(page);
  const row = results.getByRole('row').nth(1);
  await expect(row.getByText('Success', { exact: true })).toBeVisible();
  const reqIdLink = row.getByRole('link', { name: /^\d+$/ });
  const reqId = (await reqIdLink.textContent()) ?? '';
  expect(reqId).toMatch(/^\d+$/);
  await expect(tray.getByRole('listitem')).toHaveCount(0);

  // What the VMS stored: three skills and two questions, in order.
  const stored = await fetchRequisition(page, reqId);
  expect(stored).toMatchObject({
    TitleRole: data.title,
    ClientInternalReq: data.reference,
    ReqStatus: '4',
    SkillDescription1: 'Java 17 and Spring Boot',
    SkillDescription3: 'Kubernetes',
    SkillDescription4: '',
    QuestionDescription2: 'When could you start?',
    QuestionDescription3: '',
  });

  // Find it in the list (the Req ID links to the list filtered by the API).
  await reqIdLink.click();
  await expect(page.getByRole('heading', { name: 'Requisitions', level: 1 })).toBeVisible();
  const listRow = page.getByRole('row', { name: new RegExp(data.reference) });
  await expect(listRow).toContainText(data.title);
  await expect(listRow).toContainText('Open');

  // Amend its status to On Hold.
  await listRow.getByRole('link', { name: `Amend requisition ${reqId}` }).click();
  await expect(page.getByRole('heading', { name: `Amend requisition ${reqId}` })).toBeVisible();
  await expect(page.getByLabel(/^Job title/)).toHaveValue(data.title);
  await expect(
    page.getByRole('group', { name: 'Skill 3', exact: true }).getByLabel(/description/),
  ).toHaveValue('Kubernetes');
  await page.getByLabel(/^Status/).selectOption({ label: 'On Hold (9)' });
  await addToBatch(page);
  const amendResults = await sendBatch(page);
  await expect(
    amendResults.getByRole('row').nth(1).getByText('Success', { exact: true }),
  ).toBeVisible();

  await page
    .getByRole('navigation', { name: 'Main' })
    .getByRole('link', { name: 'Requisitions' })
    .click();
  await page.getByLabel('Search titles').fill(data.reference);
  await expect(page.getByRole('row', { name: new RegExp(data.reference) })).toContainText(
    'On Hold',
  );
  // Nothing else was changed by the Amend.
  expect(await fetchRequisition(page, reqId)).toMatchObject({
    ReqStatus: '9',
    SkillDescription3: 'Kubernetes',
    QuestionDescription2: 'When could you start?',
  });
});
