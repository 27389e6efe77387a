import { readFile } from 'node:fs/promises';
import type { Page } from '@playwright/test';
import Papa from 'papaparse';
import { escapeRegExp } from '@/domain/reg-exp';
import { expect, expectNoAxeViolations, test } from './support/fixtures';
import {
  candidateRequisitionIds,
  candidatesXlsx,
  customHeaderCsv,
  longRequisitionsCsv,
  requisitionHeaders,
  requisitionsCsv,
  templateMapping,
} from './support/import-files';
import { sendBatch } from './support/requisitions';

/*
 * Spreadsheets of requisitions and candidates import, map without a click,
 * show exactly their error cells with counts, are fixed in the grid, go to the batch and come back
 * from the sandbox; the rows left export as CSV with their messages; a saved template maps a
 * second file.
 */

const runId = () => `${Date.now().toString(36)}${Math.floor(Math.random() * 1296).toString(36)}`;

const summary = (page: Page) => page.getByRole('status').filter({ hasText: /\d+ rows? · / });
const grid = (page: Page, fileName: string) =>
  page.getByRole('region', { name: `Rows of ${fileName}` });
/** The button of one cell: "Job title, row 15: …". */
const cell = (page: Page, header: string, row: number) =>
  page.getByRole('button', { name: new RegExp(`^${escapeRegExp(header)}, row ${row}:`) });

async function choose(page: Page, name: string, bytes: Uint8Array, mimeType: string) {
  await page
    .getByLabel('Choose a file')
    .setInputFiles({ name, mimeType, buffer: Buffer.from(bytes) });
}

async function editCell(page: Page, header: string, row: number, value: string) {
  await cell(page, header, row).click();
  const input = page.getByRole('textbox', { name: `${header}, row ${row}`, exact: true });
  await input.fill(value);
  await input.press('Enter');
}

test('a CSV of 50 requisitions in Windows-1252 imports, is fixed in the grid, is sent, and its rows with errors export', async ({
  page,
}) => {
  test.setTimeout(120_000);
  const id = runId();
  const file = requisitionsCsv(id);
  await page.goto('/requisitions');
  await page.getByRole('link', { name: 'Import from a spreadsheet' }).click();
  await expect(page.getByRole('heading', { name: 'Import requisitions', level: 1 })).toBeVisible();
  await choose(page, 'northwind-requisitions.csv', file.bytes, 'text/csv');

  // Read as Windows-1252, every column matched by its label without a click.
  await expect(summary(page)).toHaveText('50 rows · 45 ready · 5 with errors');
  await expect(page.getByText('Read as CSV, Windows-1252')).toBeVisible();
  await expect(page.getByText('Columns: 14 of 14 matched')).toBeVisible();
  await expect(cell(page, 'Job title', 3)).toHaveAccessibleName(
    'Job title, row 3: Café manager – Zürich',
  );

  // Exactly the seven cells in error, each with its message, and the count on its column.
  await page.getByRole('checkbox', { name: /^Only rows with errors/ }).check();
  const rows = grid(page, 'northwind-requisitions.csv');
  await expect(rows.locator('tbody tr[data-index]')).toHaveCount(5);
  await expect(rows.locator('.import-cell__error')).toHaveCount(7);
  const expected: Array<[string, number, RegExp]> = [
    ['Number of openings', 7, /^Number of openings must be at least 1/],
    ['Job title', 15, /^Job title is required for Insert$/],
    ['Days per week', 15, /^Days per week must be between 0 and 7/],
    ['Start date', 24, /^“31\/03\/27” has a two-digit year/],
    ['Engagement type', 33, /^Engagement type must be one of: 1 \(Contract\)/],
    ['End date', 33, /^End date 2027-02-14 is before the start date/],
    ['Client internal req', 46, /^Row 12 already has “IMP-.+-11”, which may be sent once/],
  ];
  expect(expected.map(([header, row]) => ({ header, row }))).toEqual(
    file.errors.map(({ header, row }) => ({ header, row })),
  );
  for (const [header, row, message] of expected) {
    await expect(cell(page, header, row)).toHaveAccessibleDescription(message);
    await expect(
      rows.getByRole('columnheader', { name: new RegExp(`^${escapeRegExp(header)}`) }),
    ).toContainText('1 error');
  }
  await expectNoAxeViolations(page);
  // A row's problem count takes focus, and the view, to its first cell in error.
  await page.getByRole('button', { name: 'Row 33: 2 problems; go to the first' }).click();
  await expect(cell(page, 'Engagement type', 33)).toBeFocused();
  await expect(cell(page, 'Engagement type', 33)).toBeInViewport();

  // Two fixed in place; each row is checked again, and the fixes survive a reload.
  await editCell(page, 'Number of openings', 7, '2');
  await expect(summary(page)).toHaveText('50 rows · 46 ready · 4 with errors');
  await editCell(page, 'Start date', 24, '2027-03-31');
  await expect(summary(page)).toHaveText('50 rows · 47 ready · 3 with errors');
  await page.reload();
  await expect(summary(page)).toHaveText('50 rows · 47 ready · 3 with errors');

  await page.getByRole('button', { name: 'Add 47 valid rows to the batch' }).click();
  await expect(page.getByText('47 requisitions added to the batch.')).toBeVisible();
  await expect(summary(page)).toHaveText('3 rows · 0 ready · 3 with errors');

  // The three left export as CSV with their messages, ready to fix and import again.
  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Export 3 rows with errors (CSV)' }).click();
  const saved = await (await download).path();
  const text = (await readFile(saved, 'utf8')).replace(/^\uFEFF/, '');
  const exported = Papa.parse<Record<string, string>>(text, { header: true, skipEmptyLines: true });
  expect(exported.meta.fields?.at(-1)).toBe('Errors');
  expect(exported.data.map((row) => row['Client internal req'])).toEqual([
    file.references[13],
    file.references[31],
    file.references[44],
  ]);
  expect(exported.data[0]?.['Errors']).toBe(
    'Job title: Job title is required for Insert\nDays per week: Days per week must be between 0 and 7 (a whole number, digits only)',
  );
  // Row 12 went to the batch, so its repeat now says where the first one is.
  expect(exported.data[2]?.['Errors']).toBe(
    `Client internal req: “${file.references[10]}” is already in the batch, and may be sent once; remove this row or change it.`,
  );

  // The 47 go out as one batch and come back Success.
  await page.getByRole('link', { name: 'Open the batch', exact: true }).click();
  await expect(page.getByText('JSON to be sent (47 requisitions)')).toBeVisible();
  const results = await sendBatch(page);
  await expect(results.getByRole('status').first()).toHaveText(
    'All 47 requisitions processed: 47 Success',
    { timeout: 60_000 },
  );

  // Back in the import, a row repeating a sent one says so.
  await page.goto('/requisitions/import');
  await expect(summary(page)).toHaveText('3 rows · 0 ready · 3 with errors');
  await editCell(page, 'Client internal req', 46, file.references[0] ?? '');
  await expect(cell(page, 'Client internal req', 46)).toHaveAccessibleDescription(
    /^“IMP-.+-01” is already in the VMS as requisition \d+, and may be sent once/,
  );
});

test('an XLSX of 20 candidates with skill responses and answers by number imports and is sent', async ({
  page,
}) => {
  test.setTimeout(120_000);
  const file = await candidatesXlsx(runId(), candidateRequisitionIds);
  await page.goto('/candidates');
  await page.getByRole('link', { name: 'import them from a spreadsheet' }).click();
  await choose(
    page,
    'candidates.xlsx',
    file.bytes,
    'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  );
  await expect(summary(page)).toHaveText('20 rows · 17 ready · 3 with errors');
  await expect(page.getByText('Read as XLSX')).toBeVisible();
  await expect(page.getByText(/^Columns: (\d+) of \1 matched$/)).toBeVisible();
  await page.getByRole('checkbox', { name: /^Only rows with errors/ }).check();
  const rows = grid(page, 'candidates.xlsx');
  await expect(rows.locator('.import-cell__error')).toHaveCount(3);
  await expect(cell(page, 'E-mail', 6)).toHaveAccessibleDescription(
    'E-mail must be a valid e-mail address, like name@example.com',
  );
  await expect(cell(page, 'Skill 2 response', 12)).toHaveAccessibleDescription(
    /^Skill 2 response must be one of: 1 \(Close\)/,
  );
  await expect(cell(page, 'E-mail', 18)).toHaveAccessibleDescription(/^Row 4 already has “/);

  const fix = file.fixable[0];
  if (!fix) throw new Error('the candidates file has a fixable cell');
  await editCell(page, fix.header, fix.row, fix.value);
  await expect(summary(page)).toHaveText('20 rows · 18 ready · 2 with errors');
  await page.getByRole('button', { name: 'Add 18 valid rows to the batch' }).click();
  await expect(page.getByText('18 candidates added to the batch.')).toBeVisible();

  await page.getByRole('link', { name: 'Open the batch to send them' }).click();
  await expect(page.getByText('JSON to be sent (18 candidates)')).toBeVisible();
  await sendBatch(page);
  await expect(
    page
      .getByRole('region', { name: 'Batch just sent' })
      .getByText('All 18 candidates processed: 18 New'),
  ).toBeVisible({ timeout: 60_000 });
});

test('columns mapped by hand and saved as a template map a second file with the same headers without a click', async ({
  page,
}) => {
  const id = runId();
  const first = customHeaderCsv(id, 1);
  await page.goto('/requisitions/import');
  await choose(page, 'week-46.csv', first.bytes, 'text/csv');
  // Five custom names match nothing; each is mapped by hand ("Notes" stays ignored).
  await expect(page.getByText('Columns: 6 of 11 matched')).toBeVisible();
  for (const [header, key] of Object.entries(templateMapping)) {
    if (key === '') continue;
    const select = page.getByLabel(`Field for column “${header}”`);
    if ((await select.inputValue()) !== key) await select.selectOption(key);
  }
  await expect(page.getByText('Columns: 10 of 11 matched')).toBeVisible();
  await expect(summary(page)).toHaveText('5 rows · 5 ready · 0 with errors');
  await page.getByLabel('Template name').fill('Weekly sheet');
  await page.getByRole('button', { name: 'Save mapping as template' }).click();
  await expect(page.getByText(/^Template “Weekly sheet” saved\./)).toBeVisible();

  // Its rows are not in the batch yet: another file asks before it replaces them.
  await editCell(page, 'Job title', 2, 'Charge nurse');
  await choose(page, 'week-47.csv', customHeaderCsv(id, 2).bytes, 'text/csv');
  const replace = page.getByRole('dialog', { name: 'Replace week-46.csv?' });
  await expect(replace).toContainText(
    'week-46.csv still has 5 rows not added to the batch, with 1 cell you changed. Opening week-47.csv replaces them: they are not kept anywhere else.',
  );
  await replace.getByRole('button', { name: 'Keep week-46.csv' }).click();
  await expect(replace).toBeHidden();
  await expect(page.getByRole('heading', { name: 'week-46.csv' })).toBeVisible();
  await expect(cell(page, 'Job title', 2)).toHaveAccessibleName('Job title, row 2: Charge nurse');
  await choose(page, 'week-47.csv', customHeaderCsv(id, 2).bytes, 'text/csv');
  await replace.getByRole('button', { name: 'Open week-47.csv' }).click();
  await expect(page.getByRole('heading', { name: 'week-47.csv' })).toBeVisible();
  await expect(page.getByText(/columns mapped by the template “Weekly sheet”/)).toBeVisible();
  await expect(summary(page)).toHaveText('5 rows · 5 ready · 0 with errors');
  await expect(page.getByText('Columns: 10 of 11 matched · template “Weekly sheet”')).toBeVisible();
});

test('a semicolon CSV from a US export, headed like the form, with an empty row and a decimal comma, reads as the recruiter wrote it', async ({
  page,
}) => {
  const id = runId();
  const header = [
    'Job title',
    'Number of openings',
    'Client internal req',
    'Engagement type',
    'Req class ID',
    'Hours per day',
    'Days per week',
    'Short description',
    'Requisition owner ID',
    'Start date',
    'Skill 1 description',
    'Skill 1 required/desired',
  ];
  const line = (cells: string[]) => cells.join(';');
  const text = [
    line(header),
    line([
      'Ward nurse',
      '2',
      `US-${id}-1`,
      'Contract',
      '101',
      '8',
      '5',
      'Nights',
      'mreyes',
      '5/14/2027',
      'Triage',
      'Required',
    ]),
    ';'.repeat(header.length - 1),
    line([
      'Ward nurse',
      '2',
      `US-${id}-4`,
      'contract',
      '101',
      '7,5',
      '5',
      'Nights',
      'mreyes',
      '3/4/2027',
      '',
      '',
    ]),
    line([
      'Ward nurse',
      '1',
      `US-${id}-5`,
      'Perm',
      '101',
      '8',
      '5',
      'Days',
      'mreyes',
      '1/10/2027',
      'Phlebotomy',
      'Desired',
    ]),
  ].join('\r\n');
  await page.goto('/requisitions/import');
  await choose(page, 'us-export.csv', new TextEncoder().encode(text), 'text/csv');

  // The empty row 3 is skipped without renumbering: the decimal comma is in row 4, as Excel shows.
  // The column's other numbers have no decimal point, so its 7,5 is read as 7.5 and says so.
  await expect(summary(page)).toHaveText('3 rows · 3 ready · 0 with errors');
  await expect(page.getByText('Columns: 12 of 12 matched')).toBeVisible();
  const rows = grid(page, 'us-export.csv');
  await expect(rows.locator('.import-cell__error')).toHaveCount(0);
  await expect(cell(page, 'Hours per day', 4)).toHaveAccessibleName(
    'Hours per day, row 4: 7,5, read as 7.5',
  );
  // Words read as codes, and month-first dates read as the column proves, each shown as sent.
  await expect(cell(page, 'Engagement type', 2)).toHaveAccessibleName(
    'Engagement type, row 2: Contract, read as 1',
  );
  await expect(cell(page, 'Start date', 4)).toHaveAccessibleName(
    'Start date, row 4: 3/4/2027, read as 2027-03-04',
  );
  await expect(cell(page, 'Skill 1 required/desired', 5)).toHaveAccessibleName(
    'Skill 1 required/desired, row 5: Desired, read as 3',
  );
  await expectNoAxeViolations(page);
});

test('a 20,000-row import scrolls with every drawn row showing its own cells, and a far row is fixed in place', async ({
  page,
}) => {
  test.setTimeout(120_000);
  const id = runId();
  const rows = 20_000;
  const badRow = 15_000;
  await page.goto('/requisitions/import');
  await page.getByLabel('Choose a file').setInputFiles({
    name: 'long.csv',
    mimeType: 'text/csv',
    buffer: Buffer.from(longRequisitionsCsv(id, rows, badRow)),
  });
  await expect(summary(page)).toHaveText('20,000 rows · 19,999 ready · 1 with errors', {
    timeout: 60_000,
  });
  const region = grid(page, 'long.csv');

  /** Every row drawn with its cells: its number, and the values of its title and req cells. */
  const columns = {
    title: requisitionHeaders.indexOf('Job title'),
    req: requisitionHeaders.indexOf('Client internal req'),
  };
  const drawn = () =>
    region.evaluate(
      (box, at) =>
        [...box.querySelectorAll('tbody tr[aria-rowindex]')].map((row) => ({
          position: Number(row.getAttribute('data-index')),
          number: Number(row.querySelector('th')?.textContent?.trim()),
          title: row.querySelectorAll('td button')[at.title]?.textContent ?? '',
          req: row.querySelectorAll('td button')[at.req]?.textContent ?? '',
        })),
      columns,
    );
  /** The rows in view after scrolling to `fraction` of the grid, once drawn. */
  async function scrollTo(fraction: number) {
    const top = await region.evaluate((box, at) => {
      box.scrollTop = (box.scrollHeight - box.clientHeight) * at;
      return box.scrollTop;
    }, fraction);
    // The row at the top of the view: rows are 44 px, the one error row (below 15,000) 84.
    const expectedFirst = Math.min(Math.floor(top / 44), rows - 1);
    await expect
      .poll(async () => {
        const now = await drawn();
        return now.some((row) => Math.abs(row.position - expectedFirst) <= 1);
      })
      .toBe(true);
    const now = await drawn();
    // Recycled rows show their own cells, never a row scrolled past.
    for (const row of now) {
      expect(row.number).toBe(row.position + 2);
      expect(row.title).toBe(`Role ${row.position}`);
      expect(row.req).toBe(`SCR-${id}-${row.position}`);
    }
    expect(now.length).toBeGreaterThan(5);
    return now;
  }
  for (const fraction of [0.25, 0.5, 0.7, 1, 0.1, 0.5004]) await scrollTo(fraction);

  // The row with the error, far down: scrolled to, fixed in place, checked again.
  await region.evaluate((box, y) => {
    box.scrollTop = y;
  }, badRow * 44);
  const days = cell(page, 'Days per week', badRow + 2);
  await expect(days).toHaveAccessibleName(`Days per week, row ${badRow + 2}: 9`);
  await expect(region.locator('.import-cell__error')).toHaveText([/^Days per week must be/]);
  await editCell(page, 'Days per week', badRow + 2, '4');
  await expect(summary(page)).toHaveText('20,000 rows · 20,000 ready · 0 with errors');
  await expect(days).toHaveAccessibleName(`Days per week, row ${badRow + 2}: 4`);
  await expect(region.locator('.import-cell__error')).toHaveCount(0);
  await scrollTo(0.3);
});
