import type { Page } from '@playwright/test';
import { expect, test } from './support/fixtures';
import { addToBatch, fillRequiredInsert, insertData } from './support/requisitions';

/*
 * The batch's JSON edited by hand, with lint markers from the domain's
 * rules; an invalid item sent without local checks on purpose, to see what the VMS answers; the
 * results' Raw tab with the answer as received.
 */

/** The batch's JSON from its preview. */
async function trayJson(page: Page): Promise<Array<Record<string, string>>> {
  const summary = page.getByText(/^JSON to be sent \(/);
  await summary.click();
  const text = (await page.getByRole('region', { name: 'JSON to be sent' }).textContent()) ?? '';
  await summary.click();
  return JSON.parse(text) as Array<Record<string, string>>;
}

test('the batch JSON edited to an invalid item is marked where it is wrong, sent without local checks, and the VMS’s Error shows raw and read', async ({
  page,
}) => {
  await page.goto('/requisitions/new');
  const data = insertData('Raw probe');
  await fillRequiredInsert(page, data);
  await addToBatch(page);
  const [item] = await trayJson(page);
  if (!item) throw new Error('the batch holds the item');

  await page.getByRole('button', { name: 'Edit the JSON' }).click();
  const editor = page.getByRole('textbox', { name: /^JSON to be sent, editable/ });
  await expect(editor).toBeVisible();
  await editor.click();
  // Search and replace, as QA would: 5 days a week becomes 9.
  await page.keyboard.press('Control+f');
  await page.getByRole('textbox', { name: 'Find' }).fill('"daysperweek": "5"');
  await page.getByRole('textbox', { name: 'Replace' }).fill('"daysperweek": "9"');
  await page.getByRole('button', { name: 'replace all' }).click();
  // One problem, the domain's: marked on the key, its message shown on hover.
  const marked = page.locator('.cm-lintRange-error');
  await expect(marked).toHaveCount(1);
  await expect(marked).toHaveText('"daysperweek"');
  await expect(page.locator('.cm-lint-marker-error')).toHaveCount(1);
  await marked.hover();
  await expect(page.locator('.cm-tooltip-lint')).toHaveText(
    /^Item 1: Days per week must be between 0 and 7/,
  );
  await page.getByRole('button', { name: 'Apply to the batch' }).click();

  // The tray holds the edited item, invalid: no plain send, but a deliberate one.
  expect((await trayJson(page))[0]?.['daysperweek']).toBe('9');
  const send = page.getByRole('button', { name: /^Send batch/ });
  await expect(send).toBeDisabled();
  await page.getByRole('checkbox', { name: 'Send without local checks (QA)' }).check();
  await expect(send).toHaveText('Send batch (1 requisition) without local checks');
  await send.click();
  await expect(page.getByRole('heading', { name: 'Batch accepted' })).toBeVisible();
  const results = page.getByRole('region', { name: /^Results of batch/ });
  await expect(results.getByText(/^Sent without local checks/)).toBeVisible();
  await expect(results.getByRole('status').first()).toHaveText(
    'All 1 requisition processed: 1 Error',
    { timeout: 30_000 },
  );
  await expect(results.getByRole('row').nth(1)).toContainText(/Days per week/);
  // The switch is for one send only.
  await expect(page.getByRole('checkbox', { name: 'Send without local checks (QA)' })).toHaveCount(
    0,
  );

  // Raw: the VMS's answer as received.
  await results.getByRole('tab', { name: 'Raw' }).click();
  const raw = results.getByRole('region', { name: /^Raw results of batch/ });
  const answer = JSON.parse((await raw.textContent()) ?? '') as unknown;
  expect(Array.isArray(answer) ? answer : []).toHaveLength(1);
  expect(JSON.stringify(answer)).toContain('"Error"');
  await results.getByRole('tab', { name: 'Raw' }).press('ArrowLeft');
  await expect(results.getByRole('tab', { name: 'Rows' })).toBeFocused();
  await expect(results.getByRole('tab', { name: 'Rows' })).toHaveAttribute('aria-selected', 'true');

  // The journal has the send, marked, and the VMS's Error in the results it answered.
  const batchId = ((await results.getByRole('heading').first().textContent()) ?? '').replace(
    /^Results of batch /,
    '',
  );
  await page.goto(`/inspector?batch=${encodeURIComponent(batchId)}`);
  const rows = page.locator('.inspector__list tbody tr');
  const post = rows.filter({ hasText: 'POST requisitionimport' });
  await expect(post).toHaveCount(1);
  await expect(post).toContainText('without local checks');
  const poll = rows.filter({ hasText: 'GET requisitionresults' }).first();
  await poll.getByRole('button', { name: 'GET requisitionresults' }).click();
  await expect(
    page.locator('.inspector__detail').getByRole('region', { name: 'Response body' }),
  ).toContainText('"Error"');
});
