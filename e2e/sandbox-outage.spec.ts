import { expect, outageTest as test } from './support/fixtures';
import { addToBatch, fillRequiredInsert, insertData } from './support/requisitions';

test('with the VMS down a send fails clearly and keeps the batch; once it is back the batch is sent once', async ({
  page,
  upstream,
}) => {
  const data = insertData('Outage');
  await page.goto('/requisitions/new');
  await fillRequiredInsert(page, data);
  await addToBatch(page);
  const tray = page.getByRole('region', { name: 'Batch to send' });

  await upstream.stop();
  await tray.getByRole('button', { name: /^Send batch/ }).click();
  const failure = tray.getByRole('alert');
  await expect(failure.getByRole('heading', { name: 'The batch was not sent' })).toBeVisible();
  // The portal server's own message about the unreachable VMS, then what happens to the items.
  await expect(failure).toContainText(/Could not reach the VMS at 127\.0\.0\.1:\d+/);
  await expect(failure).toContainText('The requisition is still in the batch.');
  await expect(tray.getByRole('listitem')).toHaveCount(1);
  await expect(tray.getByRole('listitem')).toContainText(data.reference);

  // Still there after a reload.
  await page.reload();
  await expect(tray.getByRole('listitem')).toContainText(data.reference);

  await upstream.start();
  // A double click sends one batch: the button is disabled while sending, and the batch's
  // Idempotency-Key would make the portal server answer a repeat with the first answer.
  await tray.getByRole('button', { name: /^Send batch/ }).dblclick();
  await expect(page.getByRole('heading', { name: 'Batch accepted' })).toBeVisible();
  const results = page.getByRole('region', { name: /^Results of batch/ });
  await expect(results.getByRole('row').nth(1).getByText('Success', { exact: true })).toBeVisible();
  await expect(tray.getByRole('listitem')).toHaveCount(0);

  await page
    .getByRole('navigation', { name: 'Main' })
    .getByRole('link', { name: 'Submissions' })
    .click();
  await expect(page.getByRole('article')).toHaveCount(1);
  const submission = page.getByRole('article');
  await expect(submission).toContainText('1 requisition');
  await expect(
    submission.getByRole('region', { name: /^Results of batch/ }).getByRole('row'),
  ).toHaveCount(2);
  await expect(submission).toContainText('1 Success');

  // The VMS holds exactly one requisition with this reference.
  const response = await page.request.get(
    '/api/vms/requisitions?Client_Org_Id=1001&Vendor_Org_Id=9001',
  );
  const records = (await response.json()) as Array<{ ClientInternalReq: string }>;
  expect(records.filter((record) => record.ClientInternalReq === data.reference)).toHaveLength(1);
});
