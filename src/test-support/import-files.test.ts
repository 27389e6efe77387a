import Papa from 'papaparse';
import readXlsxFile from 'read-excel-file/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MappedColumn, PayloadKind, SheetReport } from '@/domain';
import {
  catalogOf,
  cellText,
  checkSheet,
  chooseTemplate,
  decodeSheet,
  mapHeaders,
  sheetRowChecker,
} from '@/domain';
import {
  candidateRequisitionIds,
  candidatesXlsx,
  customHeaderCsv,
  customHeaders,
  requisitionsCsv,
  templateMapping,
  type ImportFix,
} from '../../e2e/support/import-files';
import { startTestSandbox, type TestSandbox } from './sandbox-client';

/*
 * The bulk-import journeys import these files and count on what each one claims: the
 * cells in error, the ones a person fixes by typing, and that every other row is valid. Here the
 * files are read back as the import reads them (decodeSheet and Papa Parse; read-excel-file and
 * cellText), checked by the domain's own rules, and their valid rows sent to the sandbox. The
 * expected cells are written out by hand, not taken from the generator's lists alone.
 */

const options = { dateFormat: 'YYYY-MM-DD', org: '1001' } as const;

function readCsv(bytes: Uint8Array) {
  const { text, encoding } = decodeSheet(bytes);
  const { data, errors } = Papa.parse<string[]>(text, { skipEmptyLines: 'greedy' });
  expect(errors).toEqual([]);
  const [headers = [], ...rows] = data;
  return { text, encoding, headers, rows };
}

async function readXlsx(bytes: Uint8Array) {
  const [first] = await readXlsxFile(Buffer.from(bytes));
  const [headers = [], ...rows] = (first?.data ?? []).map((row) => row.map(cellText));
  return { sheet: first?.sheet, headers, rows };
}

/** The cells in error as [row, column header, wire key, message], in row order. */
const errorCells = (report: SheetReport) =>
  report.rows
    .flatMap((row) =>
      row.errors.map((error) => [row.row, error.column, error.field, error.message]),
    )
    .sort(([a, , b], [c, , d]) => Number(a) - Number(c) || String(b).localeCompare(String(d)));

const validCount = (report: SheetReport) => report.rows.filter((row) => row.valid).length;

/** The rows with each fix typed into its cell (spreadsheet row numbers, header = row 1). */
function withFixes(rows: readonly string[][], headers: readonly string[], fixes: ImportFix[]) {
  const fixed = rows.map((row) => [...row]);
  for (const fix of fixes) {
    const row = fixed[fix.row - 2];
    const column = headers.indexOf(fix.header);
    if (!row || column < 0) throw new Error(`no cell at row ${fix.row}, “${fix.header}”`);
    row[column] = fix.value;
  }
  return fixed;
}

/** The wire items of a sheet's valid rows, as "Add N valid rows to the batch" sends them. */
function validItems(
  kind: PayloadKind,
  rows: readonly string[][],
  columns: MappedColumn[],
  report: SheetReport,
) {
  const check = sheetRowChecker(kind, columns, options);
  return report.rows.filter((row) => row.valid).map((row) => check(rows[row.row - 2] ?? []).wire);
}

let sandbox: TestSandbox;
beforeAll(async () => {
  sandbox = await startTestSandbox();
});
afterAll(() => sandbox.close());

describe('the CSV of 50 requisitions', () => {
  const file = requisitionsCsv('UNIT1');
  const { text, encoding, headers, rows } = readCsv(file.bytes);
  const catalog = catalogOf('requisition');
  const columns = mapHeaders(headers, catalog);
  const report = checkSheet('requisition', rows, columns, options);

  it('is Windows-1252 with its accents intact, 50 rows under a header of labels', () => {
    expect(encoding).toBe('Windows-1252');
    // Not UTF-8: è is the single byte 0xE8, – is 0x96, € is 0x80.
    expect([...file.bytes].filter((byte) => byte >= 0x80).length).toBeGreaterThan(50);
    for (const accented of [
      'Crèche nurse',
      'Café manager – Zürich',
      '"Sous-chef, brasserie"',
      'Œnologist',
      'Project manager – “Phoenix”',
      'Budget up to €45 per hour.',
      'Joins the team’s night rota.',
    ])
      expect(text).toContain(accented);
    expect(rows).toHaveLength(50);
    expect(rows.map((row) => row[1])).toContain('Sous-chef, brasserie');
  });

  it('maps every header by itself', () => {
    expect(columns.map((column) => [column.header, column.key])).toEqual([
      ['Client internal req', 'clientinternalreq'],
      ['Job title', 'titlerole'],
      ['Org ID', 'orgid'],
      ['Req class ID', 'reqclassid'],
      ['Number of openings', 'noofopenings'],
      ['Engagement type', 'engagementtype'],
      ['Hours per day', 'hoursunitsperday'],
      ['Days per week', 'daysperweek'],
      ['Start date', 'startdate'],
      ['End date', 'enddate'],
      ['Short description', 'shortdescription'],
      ['Requisition owner ID', 'reqownerid'],
      ['Priority', 'reqpriority'],
      ['Work location reference code', 'worklocationrefcode'],
    ]);
  });

  it('holds exactly 7 cells in error over rows 7, 15, 24, 33 and 46; 45 rows are valid', () => {
    expect(errorCells(report)).toEqual([
      [
        7,
        'Number of openings',
        'noofopenings',
        'Number of openings must be at least 1 (a whole number, digits only)',
      ],
      [
        15,
        'Days per week',
        'daysperweek',
        'Days per week must be between 0 and 7 (a whole number, digits only)',
      ],
      [15, 'Job title', 'titlerole', 'Job title is required for Insert'],
      [
        24,
        'Start date',
        'startdate',
        '“31/03/27” has a two-digit year; write the date as YYYY-MM-DD, e.g. 2026-03-31',
      ],
      [
        33,
        'End date',
        'enddate',
        'End date 2027-02-14 is before the start date 2027-08-14; the end date must be on or after the start',
      ],
      [
        33,
        'Engagement type',
        'engagementtype',
        'Engagement type must be one of: 1 (Contract), 2 (Contract To Perm), 3 (Perm)',
      ],
      [
        46,
        'Client internal req',
        'clientinternalreq',
        'Row 12 already has “IMP-UNIT1-11”, which may be sent once; remove or change one of them.',
      ],
    ]);
    expect(validCount(report)).toBe(45);
    // What the file claims is what the domain finds.
    expect(file.errors).toHaveLength(7);
    expect(new Set(file.errors.map((error) => error.row))).toEqual(new Set([7, 15, 24, 33, 46]));
    expect(new Set(file.errors.map((error) => error.header)).size).toBe(7);
    expect(file.errors.map(({ row, header, field }) => [row, header, field])).toEqual(
      expect.arrayContaining(
        errorCells(report).map(([row, header, field]) => [row, header, field]),
      ),
    );
  });

  it('is 47 valid rows once the two fixable cells are typed, and the 47 are created', async () => {
    expect(file.fixable).toEqual([
      { row: 7, header: 'Number of openings', field: 'noofopenings', value: '2' },
      { row: 24, header: 'Start date', field: 'startdate', value: '2027-03-31' },
    ]);
    const fixedRows = withFixes(rows, headers, file.fixable);
    const fixed = checkSheet('requisition', fixedRows, columns, options);
    expect(validCount(fixed)).toBe(47);
    expect(fixed.rows.filter((row) => !row.valid).map((row) => row.row)).toEqual([15, 33, 46]);

    const items = validItems('requisition', fixedRows, columns, fixed);
    const results = await sandbox.importRequisitions(items);
    expect(results.filter((row) => row.Status !== 'Success')).toEqual([]);
    expect(results).toHaveLength(47);
    const created = await sandbox.requisition(results[1]?.Req_Id ?? '');
    expect(created['TitleRole']).toBe('Café manager – Zürich');
    expect(file.references).toHaveLength(50);
    // Row 46 (index 44) repeats row 12 (index 10).
    expect(file.references[44]).toBe(file.references[10]);
  });
});

describe('the XLSX of 20 candidates', async () => {
  const file = await candidatesXlsx('UNIT1', candidateRequisitionIds);
  const { sheet, headers, rows } = await readXlsx(file.bytes);
  const columns = mapHeaders(headers, catalogOf('candidate'));
  const report = checkSheet('candidate', rows, columns, options);

  it('maps every header, skill responses and answers by number', () => {
    expect(sheet).toBe('Candidates');
    expect(candidateRequisitionIds).toEqual(['40001', '40002', '40003', '40012']);
    expect(columns.map((column) => [column.header, column.key])).toEqual([
      ['Req ID', 'requirementid'],
      ['First name', 'firstname'],
      ['Last name', 'lastname'],
      ['E-mail', 'candemail'],
      ['Engagement type', 'engagementtype'],
      ['Vendor candidate ID', 'vendorcandidateid'],
      ['Availability', 'availability'],
      ['Bill rate', 'billrate'],
      ['Skill 1 response', 'skill1response'],
      ['Skill 1 experience', 'skill1amountofexperienceduration'],
      ['Skill 1 experience unit', 'skill1amountofexperienceunits'],
      ['Skill 2 response', 'skill2response'],
      ['Skill 2 experience', 'skill2amountofexperienceduration'],
      ['Skill 2 experience unit', 'skill2amountofexperienceunits'],
      ['Skill 3 response', 'skill3response'],
      ['Skill 3 experience', 'skill3amountofexperienceduration'],
      ['Skill 3 experience unit', 'skill3amountofexperienceunits'],
      ['Answer 1', 'answer1'],
      ['Answer 2', 'answer2'],
    ]);
    expect(rows).toHaveLength(20);
    // Date cells and number cells read as text: 2027-01-01, 40001.
    expect(rows[0]?.slice(0, 8)).toEqual([
      '40001',
      'Ada',
      'Lovelace',
      'ada.lovelace.1.unit1@vendor.example',
      '1',
      'CAND-UNIT1-01',
      '2027-01-01',
      '55',
    ]);
  });

  it('holds exactly 3 cells in error over rows 6, 12 and 18; 17 rows are valid', () => {
    expect(errorCells(report)).toEqual([
      [6, 'E-mail', 'candemail', 'E-mail must be a valid e-mail address, like name@example.com'],
      [
        12,
        'Skill 2 response',
        'skill2response',
        'Skill 2 response must be one of: 1 (Close), 2 (Exceeds), 3 (Meets), 4 (Not at all)',
      ],
      [
        18,
        'E-mail',
        'candemail',
        'Row 4 already has “zoe.bronte.3.unit1@vendor.example to requisition 40003”, which may be sent once; remove or change one of them.',
      ],
    ]);
    expect(validCount(report)).toBe(17);
    expect(file.errors).toEqual([
      { row: 6, header: 'E-mail', field: 'candemail' },
      { row: 12, header: 'Skill 2 response', field: 'skill2response' },
      { row: 18, header: 'E-mail', field: 'candemail' },
    ]);
  });

  it('is 18 valid rows once the e-mail is typed, and the 18 are submitted as New', async () => {
    expect(file.fixable).toEqual([
      {
        row: 6,
        header: 'E-mail',
        field: 'candemail',
        value: 'renee.lefevre.5.unit1@vendor.example',
      },
    ]);
    const fixedRows = withFixes(rows, headers, file.fixable);
    const fixed = checkSheet('candidate', fixedRows, columns, options);
    expect(validCount(fixed)).toBe(18);
    expect(fixed.rows.filter((row) => !row.valid).map((row) => row.row)).toEqual([12, 18]);

    const results = await sandbox.submitCandidates(
      validItems('candidate', fixedRows, columns, fixed),
    );
    expect(results.map((row) => [row.Status, row.CandErrorMessage])).toEqual(
      results.map(() => ['New', '']),
    );
    expect(results).toHaveLength(18);
  });
});

describe('the two files with custom headers', () => {
  const parts = ([1, 2] as const).map((part) => ({
    file: customHeaderCsv('UNIT1', part),
    ...readCsv(customHeaderCsv('UNIT1', part).bytes),
  }));

  it('leave the custom headers unmapped until the template maps them all', () => {
    for (const { headers, encoding, text } of parts) {
      expect(encoding).toBe('UTF-8');
      expect(headers).toEqual([
        'Our ref',
        'Role name',
        'Openings count',
        'Org ID',
        'Req class ID',
        'Engagement type',
        'Hours per day',
        'Days per week',
        'Short description',
        'Hiring manager',
        'Notes',
      ]);
      const unmapped = mapHeaders(headers, catalogOf('requisition'))
        .filter((column) => column.key === null)
        .map((column) => column.header);
      expect(unmapped).toEqual([
        'Our ref',
        'Role name',
        'Openings count',
        'Hiring manager',
        'Notes',
      ]);
      expect(unmapped).toEqual(customHeaders);
      const mapped = mapHeaders(headers, catalogOf('requisition'), templateMapping);
      expect(mapped.map((column) => column.key)).toEqual([
        'clientinternalreq',
        'titlerole',
        'noofopenings',
        'orgid',
        'reqclassid',
        'engagementtype',
        'hoursunitsperday',
        'daysperweek',
        'shortdescription',
        'reqownerid',
        null,
      ]);
      expect(mapped.at(-1)?.note).toBe('ignored by the mapping');
      expect(text).not.toContain('\uFEFF');
    }
  });

  it('have the template chosen for the second file, all 10 rows valid and created', async () => {
    const template = { name: 'Our agency sheet', mapping: { ...templateMapping } };
    const [first, second] = parts;
    expect(chooseTemplate(second?.headers ?? [], [template])).toBe(template);
    expect(first?.file.references).toEqual([1, 2, 3, 4, 5].map((n) => `TPL-UNIT1-1-${n}`));
    expect(second?.file.references).toEqual([1, 2, 3, 4, 5].map((n) => `TPL-UNIT1-2-${n}`));
    const items = parts.flatMap(({ headers, rows }) => {
      const columns = mapHeaders(headers, catalogOf('requisition'), template.mapping);
      const report = checkSheet('requisition', rows, columns, options);
      expect(report.valid).toBe(true);
      expect(report.rows).toHaveLength(5);
      return validItems('requisition', rows, columns, report);
    });
    const results = await sandbox.importRequisitions(items);
    expect(results.map((row) => row.Status)).toEqual(items.map(() => 'Success'));
  });
});

describe('a run id', () => {
  it('makes every reference and e-mail new, and the same id the same files', async () => {
    expect(requisitionsCsv('A').bytes).toEqual(requisitionsCsv('A').bytes);
    const a = requisitionsCsv('A').references;
    const b = requisitionsCsv('B').references;
    expect(a.filter((reference) => b.includes(reference))).toEqual([]);
    const [one, two] = await Promise.all([
      candidatesXlsx('A', candidateRequisitionIds),
      candidatesXlsx('B', candidateRequisitionIds),
    ]);
    const emails = async (bytes: Uint8Array) =>
      (await readXlsx(bytes)).rows.map((row) => row[3]?.toLowerCase());
    const first = await emails(one.bytes);
    expect((await emails(two.bytes)).filter((email) => first.includes(email))).toEqual([]);
  });
});
