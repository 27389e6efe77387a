/**
 * The import benchmark's file: a CSV of new requisitions with the label headers a
 * recruiter's sheet has (as src/cli/sheet.test.ts), every client internal req unique, titles with
 * quoted commas and dates in both forms the import reads, and one row in ten thousand with an
 * error, each in a different column (one of them a repeated reference).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export const sheetHeaders = [
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
] as const;

const titles = ['Staff nurse', '"Nurse, night shift"', 'Java developer', 'Payroll clerk', 'Welder'];
const descriptions = [
  'Night shift on ward 3',
  '"Days, with one weekend in four"',
  'Build and maintain the payments platform',
];

const reference = (n: number) => `IMP-${String(n).padStart(6, '0')}`;

function goodRow(n: number): string[] {
  // Dates from 2027-01-01 on; every third written month first, as US spreadsheets save them,
  // when that cannot be read day first too (3/14/2027: the import flags 3/4/2027 as ambiguous).
  const day = new Date(Date.UTC(2027, 0, 1 + (n % 300)));
  const [year, month, date] = day.toISOString().slice(0, 10).split('-');
  const monthFirst = n % 3 === 0 && Number(date) > 12;
  return [
    titles[n % titles.length] ?? 'Staff nurse',
    String(1 + (n % 4)),
    reference(n),
    String(1 + (n % 3)),
    '101',
    n % 2 === 0 ? '8' : '7.5',
    '5',
    descriptions[n % descriptions.length] ?? '',
    'mreyes',
    monthFirst ? `${Number(month)}/${Number(date)}/${year}` : `${year}-${month}-${date}`,
  ];
}

/** One error per row: the column it is in, and the cell written there. */
const mistakes: Array<{ column: (typeof sheetHeaders)[number]; cell: (n: number) => string }> = [
  { column: 'Days per week', cell: () => '9' },
  { column: 'Start date', cell: () => '31/03/2027' },
  { column: 'Job title', cell: () => '' },
  { column: 'Engagement type', cell: () => '7' },
  { column: 'Number of openings', cell: () => 'two' },
  { column: 'Hours per day', cell: () => '8.555' },
  { column: 'Client internal req', cell: () => reference(0) },
  { column: 'Req class ID', cell: () => 'abc' },
  { column: 'Start date', cell: () => '2027-02-30' },
  { column: 'Requisition owner ID', cell: () => '' },
];

export interface BenchSheet {
  path: string;
  rows: number;
  /** Rows with an error (a repeated reference included): what the import counts. */
  rowsWithErrors: number;
  /** Of those, rows the item rules reject on their own (the repeat needs the other rows). */
  invalidItems: number;
  bytes: number;
  remove(): void;
}

export function writeBenchSheet(rows = 100_000, errorEvery = 10_000): BenchSheet {
  const dir = mkdtempSync(join(tmpdir(), 'bench-import-'));
  const path = join(dir, 'requisitions-100k.csv');
  const lines = [sheetHeaders.join(',')];
  let rowsWithErrors = 0;
  let invalidItems = 0;
  for (let n = 0; n < rows; n += 1) {
    const row = goodRow(n);
    // Spread over the file, never on row 0 (the one a repeat points back to).
    if (n % errorEvery === errorEvery / 2) {
      const mistake = mistakes[rowsWithErrors % mistakes.length];
      if (mistake) {
        row[sheetHeaders.indexOf(mistake.column)] = mistake.cell(n);
        rowsWithErrors += 1;
        if (mistake.column !== 'Client internal req') invalidItems += 1;
      }
    }
    lines.push(row.join(','));
  }
  const text = `${lines.join('\r\n')}\r\n`;
  writeFileSync(path, text);
  return {
    path,
    rows,
    rowsWithErrors,
    invalidItems,
    bytes: Buffer.byteLength(text),
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
}
