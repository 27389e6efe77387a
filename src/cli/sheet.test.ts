import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { Sheet } from 'write-excel-file/node';
import writeXlsxFile from 'write-excel-file/node';
import { z } from 'zod';
import { decodeSheet } from '@/domain';
import { main } from './validate';

/*
 * `npm run validate` reads sheets saved as CSV or TSV with the import's header
 * matching, reporting the spreadsheet row and the column of each problem, and flagging a client
 * internal req that a file inserts twice.
 */
const dir = mkdtempSync(join(tmpdir(), 'sheet-test-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let count = 0;
function sheet(contents: string | Uint8Array, extension = 'csv'): string {
  count += 1;
  const path = join(dir, `sheet-${count}.${extension}`);
  writeFileSync(path, contents);
  return path;
}

const reportSchema = z.strictObject({
  valid: z.boolean(),
  columns: z.array(
    z.strictObject({
      column: z.number(),
      header: z.string(),
      key: z.string().nullable(),
      match: z.string().nullable(),
      note: z.string().optional(),
    }),
  ),
  rows: z.array(
    z.strictObject({
      row: z.number(),
      valid: z.boolean(),
      errors: z.array(
        z.strictObject({ field: z.string(), column: z.string(), message: z.string() }),
      ),
    }),
  ),
});
const check = async (...argv: string[]) => {
  const result = await main(argv);
  return {
    ...result,
    report: result.stdout ? reportSchema.parse(JSON.parse(result.stdout)) : null,
  };
};

const header =
  'Job title,Number of openings,Client internal req,Engagement type,Req class ID,Hours per day,Days per week,Short description,Requisition owner ID,Start date';
const good = (reference: string, title = 'Staff nurse') =>
  `${title},2,${reference},1,101,8,5,Night shift on ward 3,mreyes,2027-01-11`;

describe('a CSV of requisitions', () => {
  it('maps label headers by itself and checks every row as a new requisition of --org', async () => {
    const { code, report } = await check(
      '--kind',
      'requisition',
      '--org',
      '1001',
      sheet([header, good('CSV-1'), good('CSV-2')].join('\r\n')),
    );
    expect(code).toBe(0);
    expect(report?.valid).toBe(true);
    expect(report?.columns.map((column) => column.key)).toEqual([
      'titlerole',
      'noofopenings',
      'clientinternalreq',
      'engagementtype',
      'reqclassid',
      'hoursunitsperday',
      'daysperweek',
      'shortdescription',
      'reqownerid',
      'startdate',
    ]);
    expect(report?.rows.map((row) => row.row)).toEqual([2, 3]);
  });

  it('reports each problem at its spreadsheet row and column, a repeated reference included', async () => {
    const rows = [
      header,
      good('CSV-1'),
      'Staff nurse,2,CSV-1,1,101,8,9,Night shift,mreyes,31/03/27',
      good('CSV-3'),
    ];
    const { code, report } = await check(
      '--kind',
      'requisition',
      '--org',
      '1001',
      sheet(rows.join('\n')),
    );
    expect(code).toBe(1);
    expect(report?.rows.map((row) => row.valid)).toEqual([true, false, true]);
    // The repeat comes first: the row may not be sent at all until it is settled.
    expect(report?.rows[1]?.errors.map(({ field, column }) => [field, column])).toEqual([
      ['clientinternalreq', 'Client internal req'],
      ['startdate', 'Start date'],
      ['daysperweek', 'Days per week'],
    ]);
    expect(report?.rows[1]?.errors[0]?.message).toBe(
      'Row 2 already has “CSV-1”, which may be sent once; remove or change one of them.',
    );
  });

  it('numbers rows as the spreadsheet does, past a blank line and a row Excel wrote as ;;;;', async () => {
    const semicolon = (line: string) => line.split(',').join(';');
    const blankRow = ';'.repeat(header.split(',').length - 1);
    const lines = [
      semicolon(header),
      semicolon(good('SEMI-1')),
      blankRow,
      semicolon(good('SEMI-3')),
      '',
      semicolon('Staff nurse,2,SEMI-6,1,101,8,9,Night shift,mreyes,2027-01-11'),
      semicolon(good('SEMI-1')),
      '',
    ];
    const { code, report } = await check(
      '--kind',
      'requisition',
      '--org',
      '1001',
      sheet(lines.join('\r\n')),
    );
    expect(code).toBe(1);
    // Rows 3 and 5 are empty: the others are where Excel shows them.
    expect(report?.rows.map((row) => [row.row, row.valid])).toEqual([
      [2, true],
      [4, true],
      [6, false],
      [7, false],
    ]);
    expect(report?.rows[2]?.errors.map((error) => error.field)).toEqual(['daysperweek']);
    expect(report?.rows[3]?.errors[0]?.message).toBe(
      'Row 2 already has “SEMI-1”, which may be sent once; remove or change one of them.',
    );
  });

  it('reads a choice written as its label, in any case, as its code; a word that names none is an error', async () => {
    const lines = [
      header,
      'Staff nurse,2,WORD-1,Contract,101,8,5,Night shift,mreyes,2027-01-11',
      'Staff nurse,2,WORD-2,contract to perm,101,8,5,Night shift,mreyes,2027-01-11',
      'Staff nurse,2,WORD-3, PERM ,101,8,5,Night shift,mreyes,2027-01-11',
      'Staff nurse,2,WORD-4,Contractor,101,8,5,Night shift,mreyes,2027-01-11',
    ];
    const { report } = await check(
      '--kind',
      'requisition',
      '--org',
      '1001',
      sheet(lines.join('\n')),
    );
    expect(report?.rows.map((row) => [row.row, row.valid])).toEqual([
      [2, true],
      [3, true],
      [4, true],
      [5, false],
    ]);
    expect(report?.rows[3]?.errors.map((error) => error.field)).toEqual(['engagementtype']);
    expect(report?.rows[3]?.errors[0]?.message).toContain('Contract');
  });

  it('reads skill and question columns headed as the form labels them, numbering them by position', async () => {
    const formHeader = [
      header,
      'Skill 1 description',
      'Skill 1 required/desired',
      'Skill 1 amount of experience',
      'Skill 1 experience unit',
      'Skill 1 expertise rating',
      'Skill 2 description',
      'Skill 2 required/desired',
      'Question 1 text',
    ].join(',');
    const lines = [
      formHeader,
      `${good('FORM-1')},Java 17,1,5,4,3,Kotlin,2,Notice period?`,
      `${good('FORM-2')},,,,,,,,`,
      `${good('FORM-3')},Java 17,1,5,4,3,,,`,
    ];
    const result = await main(['--kind', 'requisition', '--org', '1001', sheet(lines.join('\n'))]);
    expect(result.stderr).toBe('');
    const report = reportSchema.parse(JSON.parse(result.stdout));
    expect(report.rows.map((row) => [row.row, row.valid, row.errors])).toEqual([
      [2, true, []],
      [3, true, []],
      [4, true, []],
    ]);
    expect(result.code).toBe(0);
  });

  it('reads dates the way the column proves: a US export month first, nothing flagged', async () => {
    const dated = (reference: string, date: string) =>
      `Staff nurse,2,${reference},1,101,8,5,Night shift,mreyes,${date}`;
    const us = [
      header,
      dated('US-1', '5/14/2027'),
      dated('US-2', '1/10/2027'),
      dated('US-3', '3/4/2027'),
    ];
    const { code, report } = await check(
      '--kind',
      'requisition',
      '--org',
      '1001',
      sheet(us.join('\n')),
    );
    expect(report?.rows.flatMap((row) => row.errors)).toEqual([]);
    expect(code).toBe(0);
    // A column with both kinds proves nothing: what reads either way is asked, not guessed.
    const mixed = [
      header,
      dated('MX-1', '5/14/2027'),
      dated('MX-2', '14/5/2027'),
      dated('MX-3', '3/4/2027'),
    ];
    const second = await check('--kind', 'requisition', '--org', '1001', sheet(mixed.join('\n')));
    expect(second.report?.rows.map((row) => row.errors.map((error) => error.message))).toEqual([
      [],
      [
        '“14/5/2027” reads as day first, which this import does not guess; write it as YYYY-MM-DD or MM/DD/YYYY',
      ],
      [
        '“3/4/2027” could be read month first or day first; write it as YYYY-MM-DD (2027-03-04 or 2027-04-03)',
      ],
    ]);
  });

  it('reads dates day first when told the file writes them so (--date-order)', async () => {
    const dated = (reference: string, date: string) =>
      `Staff nurse,2,${reference},1,101,8,5,Night shift,mreyes,${date}`;
    const path = sheet([header, dated('EU-1', '03/04/2027'), dated('EU-2', '1/2/2027')].join('\n'));
    expect((await check('--kind', 'requisition', '--org', '1001', path)).code).toBe(1);
    const told = await check(
      '--kind',
      'requisition',
      '--org',
      '1001',
      '--date-order',
      'day-first',
      path,
    );
    expect(told.code).toBe(0);
    const wrong = await main(['--kind', 'requisition', '--date-order', 'sideways', path]);
    expect(wrong).toMatchObject({ code: 2, stdout: '' });
    expect(wrong.stderr).toMatch(
      /^validate: --date-order must be month-first or day-first; usage:/,
    );
  });

  it('reads Windows-1252 (Excel’s CSV on Windows) and UTF-8 with a byte-order mark alike', async () => {
    const title = 'Crèche nurse, Zürich';
    const text = [header, good('CSV-1', `"${title}"`)].join('\r\n');
    const cp1252 = Uint8Array.from(text, (char) =>
      char === 'è' ? 0xe8 : char === 'ü' ? 0xfc : char.charCodeAt(0),
    );
    expect(decodeSheet(cp1252)).toEqual({ text, encoding: 'Windows-1252' });
    const bom = new Uint8Array([0xef, 0xbb, 0xbf, ...new TextEncoder().encode(text)]);
    expect(decodeSheet(bom)).toEqual({ text, encoding: 'UTF-8' });
    expect((await check('--kind', 'requisition', '--org', '1001', sheet(cp1252))).code).toBe(0);
  });

  it('reads tab-separated files, and applies a saved mapping', async () => {
    const tsv = ['Our ref\tTitle\tNotes', 'TSV-1\tNurse\tcall first'].join('\n');
    const mapping = sheet(JSON.stringify({ 'Our ref': 'clientinternalreq', Notes: '' }), 'json');
    const { report } = await check(
      '--kind',
      'requisition',
      '--mapping',
      mapping,
      sheet(tsv, 'tsv'),
    );
    expect(
      report?.columns.map((column) => [column.header, column.key, column.note ?? null]),
    ).toEqual([
      ['Our ref', 'clientinternalreq', null],
      ['Title', 'titlerole', null],
      ['Notes', null, 'ignored by the mapping'],
    ]);
  });

  it('says what to do with a sheet it cannot use: exit 2, one line', async () => {
    const noFields = await check('--kind', 'requisition', sheet('Colour,Size\nred,L'));
    expect(noFields.code).toBe(2);
    expect(noFields.stderr).toMatch(/^validate: .*no header names a requisition field/);
    expect((await check('--kind', 'requisition', sheet(header))).stderr).toMatch(
      /has no rows under a header row/,
    );
    expect((await check('--kind', 'requisition', '--org', 'x', sheet(header))).stderr).toMatch(
      /--org must be/,
    );
  });
});

describe('a CSV of candidates', () => {
  it('flags the same e-mail to the same requisition twice in one file', async () => {
    const rows = [
      'First name,Last name,E-mail,Req ID',
      'Ada,Lovelace,ada@example.com,40001',
      'Ada,L.,ADA@example.com,40001',
      'Ada,L.,ada@example.com,40002',
    ];
    const { report } = await check('--kind', 'candidate', sheet(rows.join('\n')));
    const repeated = report?.rows.map((row) =>
      row.errors.some((error) => error.field === 'candemail' && /already has/.test(error.message)),
    );
    expect(repeated).toEqual([false, true, false]);
  });
});

describe('an XLSX workbook', () => {
  const workbook = async (
    sheets: { sheet: string; data: (string | number | Date | null)[][] }[],
  ) => {
    const path = join(dir, `book-${(count += 1)}.xlsx`);
    const book: Sheet<Buffer>[] = sheets.map(({ sheet, data }) => ({
      sheet,
      data: data.map((row) =>
        row.map((value) => (value instanceof Date ? { value, format: 'yyyy-mm-dd' } : value)),
      ),
    }));
    await writeXlsxFile(book).toFile(path);
    return path;
  };

  it('reads candidates with skill responses and answers by number, reporting row and column', async () => {
    const path = await workbook([
      {
        sheet: 'Candidates',
        data: [
          [
            'Req ID',
            'First name',
            'Last name',
            'E-mail',
            'Engagement type',
            'Skill 1 response',
            'Answer to question 1',
          ],
          ['40001', 'Ada', 'Lovelace', 'ada@vendor.example', '1', '2', 'Yes, five years'],
          ['40001', 'Grace', 'Hopper', 'grace@vendor.example', 7, '2', 'Yes'],
        ],
      },
    ]);
    const result = await main(['--kind', 'candidate', path]);
    expect(result.stderr).toBe('');
    const report = reportSchema.parse(JSON.parse(result.stdout));
    expect(report.columns.slice(5).map((column) => column.key)).toEqual([
      'skill1response',
      'answer1',
    ]);
    expect(report.rows.map((row) => row.valid)).toEqual([true, false]);
    expect(report.rows[1]?.errors.map(({ field, column }) => [field, column])).toEqual([
      ['engagementtype', 'Engagement type'],
    ]);
  });

  it('reads the first sheet, or the one named with --sheet, with date cells as dates', async () => {
    const path = await workbook([
      { sheet: 'Notes', data: [['Read me'], ['Sent by the client on Monday']] },
      {
        sheet: 'Requisitions',
        data: [
          header.split(','),
          [
            'Staff nurse',
            2,
            'XLSX-1',
            '1',
            101,
            8,
            5,
            'Night shift',
            'mreyes',
            new Date(Date.UTC(2027, 0, 11)),
          ],
        ],
      },
    ]);
    const first = await main(['--kind', 'requisition', path]);
    expect(first.code).toBe(2);
    expect(first.stderr).toMatch(/no header names a requisition field/);
    const named = await main([
      '--kind',
      'requisition',
      '--org',
      '1001',
      '--sheet',
      'Requisitions',
      path,
    ]);
    expect(named.stderr).toBe('');
    expect(named.code).toBe(0);
    const missing = await main(['--kind', 'requisition', '--sheet', 'Nope', path]);
    expect(missing.stderr).toMatch(/has no sheet “Nope”; its sheets are “Notes”, “Requisitions”/);
  });

  it('skips an empty row in the middle, numbering the rest as Excel shows them', async () => {
    const row = (reference: string, days: number) => [
      'Staff nurse',
      2,
      reference,
      '1',
      101,
      8,
      days,
      'Night shift',
      'mreyes',
      new Date(Date.UTC(2027, 0, 11)),
    ];
    const path = await workbook([
      {
        sheet: 'Requisitions',
        data: [
          header.split(','),
          row('XL-2', 5),
          header.split(',').map(() => null),
          row('XL-4', 9),
        ],
      },
    ]);
    const result = await main(['--kind', 'requisition', '--org', '1001', path]);
    const report = reportSchema.parse(JSON.parse(result.stdout));
    expect(report.rows.map((entry) => [entry.row, entry.valid])).toEqual([
      [2, true],
      [4, false],
    ]);
    expect(report.rows[1]?.errors.map((error) => error.field)).toEqual(['daysperweek']);
  });

  it('says a file that is not a workbook is not one', async () => {
    const result = await main(['--kind', 'requisition', sheet('not a zip', 'xlsx')]);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/is not an XLSX workbook/);
  });
});
