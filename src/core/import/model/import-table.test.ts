import Papa from 'papaparse';
import { describe, expect, it } from 'vitest';
import { identityKey } from '@/domain';
import { settingDefaults } from '@/domain/settings';
import type { ImportTable as Table } from './import-table';
import { ImportTable } from './import-table';
import type { ImportOptions } from './import-view';

/*
 * A file's rows checked cell by cell by the domain's rules, counted per
 * column, re-checked as the user edits them (with the rows that repeat their identity), exported
 * with their errors, and kept over a reload as the file plus the user's changes.
 *
 * Every expected message below is written from the rules (field-rules.ts, requisition-wire.ts,
 * spreadsheet.ts), not copied from a run.
 */
const dateFormat = settingDefaults.dateFormat;
const requisitions: ImportOptions = { kind: 'requisition', dateFormat, org: '1001' };

const headers = [
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
];
const col = {
  title: 0,
  openings: 1,
  reference: 2,
  engagement: 3,
  hours: 5,
  days: 6,
  description: 7,
  start: 9,
};
/** A valid requisition row of the sheet above; `change` sets cells by column. */
const row = (reference: string, change: Record<number, string> = {}): string[] => {
  const cells = [
    'Staff nurse',
    '2',
    reference,
    '1',
    '101',
    '8',
    '5',
    'Night shift on ward 3',
    'mreyes',
    '2027-01-11',
  ];
  for (const [column, value] of Object.entries(change)) cells[Number(column)] = value;
  return cells;
};

const daysMessage = 'Days per week must be between 0 and 7';
const openingsMessage = 'Number of openings must be at least 1';
const twoDigitYearMessage =
  '“31/03/27” has a two-digit year; write the date as YYYY-MM-DD, e.g. 2026-03-31';
const repeatOf = (rowNumber: number, value: string) =>
  `Row ${rowNumber} already has “${value}”, which may be sent once; remove or change one of them.`;

/** Five rows: 0 and 4 valid, 1 and 3 with bad days per week, 2 with a two-digit year, 3 with 0 openings. */
const mixedRows = () => [
  row('R-1'),
  row('R-2', { [col.days]: '9' }),
  row('R-3', { [col.start]: '31/03/27' }),
  row('R-4', { [col.days]: '8', [col.openings]: '0' }),
  row('R-5'),
];

function table(rows: string[][], options: ImportOptions = requisitions, mapping = {}): Table {
  const loaded = new ImportTable(options);
  loaded.load(headers, rows, mapping);
  return loaded;
}

const errorsOf = (t: Table) =>
  Object.fromEntries(t.summary().columns.map((column) => [column.header, column.errors]));
/** Each row in the import: [spreadsheet row number, its messages]. */
const shown = (t: Table, onlyErrors = false) =>
  t.window(0, 1000, onlyErrors).rows.map((r) => [r.rowNumber, r.errors.map((e) => e.message)]);
const referencesOf = (t: Table) => t.window(0, 1000, false).rows.map((r) => r.cells[col.reference]);

describe('a file checked on load', () => {
  it('counts rows, valid rows and errors per column', () => {
    const t = table(mixedRows());
    const summary = t.summary();
    expect({ rows: summary.rows, valid: summary.valid, withErrors: summary.withErrors }).toEqual({
      rows: 5,
      valid: 2,
      withErrors: 3,
    });
    expect(errorsOf(t)).toEqual({
      'Job title': 0,
      'Number of openings': 1,
      'Client internal req': 0,
      'Engagement type': 0,
      'Req class ID': 0,
      'Hours per day': 0,
      'Days per week': 2,
      'Short description': 0,
      'Requisition owner ID': 0,
      'Start date': 1,
    });
    expect(summary.missing).toEqual([]);
    const reference = summary.columns[col.reference];
    expect(reference).toMatchObject({
      column: 2,
      header: 'Client internal req',
      key: 'clientinternalreq',
      label: 'Client internal req',
    });
    // The first three distinct values, for the user to see what the column holds.
    expect(reference?.samples).toEqual(['R-1', 'R-2', 'R-3']);
    expect(summary.columns[col.title]?.samples).toEqual(['Staff nurse']);
  });

  it('reports a required field that no column fills as missing, with its count', () => {
    // No Org ID column and no org chosen: every row lacks one.
    const t = table(mixedRows(), { kind: 'requisition', dateFormat });
    const summary = t.summary();
    expect(summary.missing).toEqual([{ field: 'orgid', label: 'Org ID', errors: 5 }]);
    expect({ valid: summary.valid, withErrors: summary.withErrors }).toEqual({
      valid: 0,
      withErrors: 5,
    });
    expect(t.window(0, 1, false).rows[0]?.errors).toEqual([
      { field: 'orgid', column: '', message: 'Org ID is required for Insert' },
    ]);
  });

  it('pads short rows so each of their cells can be edited', () => {
    const t = table([row('R-1').slice(0, 3)]);
    const first = t.window(0, 1, false).rows[0];
    expect(first?.cells).toEqual(['Staff nurse', '2', 'R-1', '', '', '', '', '', '', '']);
    expect(first?.errors.map((e) => e.field)).toEqual([
      'hoursunitsperday',
      'daysperweek',
      'engagementtype',
      'shortdescription',
      'reqclassid',
      'reqownerid',
    ]);
  });
});

describe('window', () => {
  it('gives the rows in view with their spreadsheet row numbers (the header is row 1)', () => {
    const t = table(mixedRows());
    const all = t.window(1, 2, false);
    expect(all.total).toBe(5);
    expect(all.rows.map((r) => [r.index, r.rowNumber, r.cells[col.reference]])).toEqual([
      [1, 3, 'R-2'],
      [2, 4, 'R-3'],
    ]);
    expect(all.rows.map((r) => r.errors)).toEqual([
      [{ field: 'daysperweek', column: 'Days per week', message: daysMessage }],
      [{ field: 'startdate', column: 'Start date', message: twoDigitYearMessage }],
    ]);
  });

  it('numbers rows as the sheet does when blank rows were left out above them', () => {
    const t = new ImportTable(requisitions);
    // The sheet's rows 3, 5 and 8 were blank.
    t.load(headers, [...mixedRows().slice(0, 4), row('R-1')], {}, [2, 4, 6, 7, 9]);
    expect(shown(t).map(([rowNumber]) => rowNumber)).toEqual([2, 4, 6, 7, 9]);
    expect(shown(t).at(-1)).toEqual([9, [repeatOf(2, 'R-1')]]);
    const again = new ImportTable(requisitions);
    again.restore(
      { headers, rows: mixedRows(), rowNumbers: [2, 4, 6, 7, 9] },
      { mapping: {}, edits: [], removed: [] },
    );
    expect(shown(again, true).map(([rowNumber]) => rowNumber)).toEqual([4, 6, 7]);
  });

  it('shows a choice written as its label with the code it is read as, and sends the code', () => {
    const t = table([
      row('W-1', { [col.engagement]: 'Contract To Perm' }),
      row('W-2'),
      row('W-3', { [col.engagement]: 'Temp' }),
    ]);
    expect(t.window(0, 3, false).rows.map((r) => r.readAs)).toEqual([
      { [col.engagement]: '2' },
      {},
      {},
    ]);
    expect(shown(t)).toEqual([
      [2, []],
      [3, []],
      [4, [expect.stringContaining('Engagement type')]],
    ]);
    expect(t.validItems(10).map((item) => item.wire.engagementtype)).toEqual(['2', '1']);
  });

  it('reads a US export month first when its dates prove it, and shows what each date is sent as', () => {
    const t = table([
      row('US-1', { [col.start]: '5/14/2027' }),
      row('US-2', { [col.start]: '3/4/2027' }),
      row('US-3', { [col.start]: '46752' }),
      row('US-4'),
    ]);
    expect(shown(t)).toEqual([
      [2, []],
      [3, []],
      [4, []],
      [5, []],
    ]);
    expect(t.window(0, 4, false).rows.map((r) => r.readAs[col.start])).toEqual([
      '2027-05-14',
      '2027-03-04',
      '2027-12-31',
      undefined,
    ]);
  });

  it('reads dates the way the user says the file writes them, kept over a reload', () => {
    const t = table([
      row('EU-1', { [col.start]: '03/04/2027' }),
      row('EU-2', { [col.start]: '1/2/2027' }),
    ]);
    // Nothing proves either way: both are asked about.
    expect(t.summary()).toMatchObject({ withErrors: 2, dateOrder: null });
    t.setDateOrder('day-first');
    expect(t.summary()).toMatchObject({ withErrors: 0, dateOrder: 'day-first' });
    expect(t.validItems(2).map((item) => item.wire.startdate)).toEqual([
      '2027-04-03',
      '2027-02-01',
    ]);
    const again = new ImportTable(requisitions);
    again.restore({ headers, rows: [row('EU-1', { [col.start]: '03/04/2027' })] }, t.state());
    expect(again.validItems(1).map((item) => item.wire.startdate)).toEqual(['2027-04-03']);
    t.setDateOrder(null);
    expect(t.summary().withErrors).toBe(2);
  });

  it('takes the date order of a template with its mapping', () => {
    const t = new ImportTable(requisitions);
    t.load(headers, [row('EU-3', { [col.start]: '03/04/2027' })], {}, [], 'month-first');
    expect(t.validItems(1).map((item) => item.wire.startdate)).toEqual(['2027-03-04']);
    t.setMapping({}, 'day-first');
    expect(t.validItems(1).map((item) => item.wire.startdate)).toEqual(['2027-04-03']);
  });

  it('filters the rows with errors, counting from the first of them', () => {
    const t = table(mixedRows());
    const errors = t.window(0, 10, true);
    expect(errors.total).toBe(3);
    expect(errors.rows.map((r) => [r.index, r.rowNumber])).toEqual([
      [1, 3],
      [2, 4],
      [3, 5],
    ]);
    // Field rules in the catalog's order: openings comes before days per week.
    expect(errors.rows[2]?.errors).toEqual([
      { field: 'noofopenings', column: 'Number of openings', message: openingsMessage },
      { field: 'daysperweek', column: 'Days per week', message: daysMessage },
    ]);
    const second = t.window(1, 1, true);
    expect(second.total).toBe(3);
    expect(second.rows.map((r) => r.rowNumber)).toEqual([4]);
    expect(t.window(3, 10, true).rows).toEqual([]);
  });
});

describe('editing a cell', () => {
  it('re-checks the row: fixed, it leaves the errors and the counts drop', () => {
    const t = table(mixedRows());
    t.editCell(1, col.days, '5');
    expect(t.summary()).toMatchObject({ rows: 5, valid: 3, withErrors: 2 });
    expect(errorsOf(t)['Days per week']).toBe(1);
    expect(t.window(0, 10, true).rows.map((r) => r.index)).toEqual([2, 3]);
    t.editCell(2, col.start, '3/31/2027');
    expect(t.summary()).toMatchObject({ valid: 4, withErrors: 1 });
    expect(errorsOf(t)['Start date']).toBe(0);
    // Breaking a valid row counts too.
    t.editCell(0, col.engagement, '7');
    expect(t.summary()).toMatchObject({ valid: 3, withErrors: 2 });
    expect(t.window(0, 1, false).rows[0]?.errors).toEqual([
      {
        field: 'engagementtype',
        column: 'Engagement type',
        message: 'Engagement type must be one of: 1 (Contract), 2 (Contract To Perm), 3 (Perm)',
      },
    ]);
  });

  it('flags a later row that an edit makes repeat a reference, naming the first row, and un-flags it when fixed', () => {
    const t = table(mixedRows());
    t.editCell(4, col.reference, 'R-1');
    expect(t.window(4, 1, false).rows[0]?.errors).toEqual([
      { field: 'clientinternalreq', column: 'Client internal req', message: repeatOf(2, 'R-1') },
    ]);
    // The first row stays as it was: it may be sent.
    expect(t.window(0, 1, false).rows[0]?.errors).toEqual([]);
    expect(t.summary()).toMatchObject({ valid: 1, withErrors: 4 });
    expect(errorsOf(t)['Client internal req']).toBe(1);
    t.editCell(4, col.reference, 'R-5');
    expect(t.window(4, 1, false).rows[0]?.errors).toEqual([]);
    expect(t.summary()).toMatchObject({ valid: 2, withErrors: 3 });
    expect(errorsOf(t)['Client internal req']).toBe(0);
  });

  it('moves the flag when the first of a repeated reference is edited away, and back', () => {
    const t = table([row('D-1'), row('D-1'), row('D-1'), row('D-2')]);
    expect(shown(t)).toEqual([
      [2, []],
      [3, [repeatOf(2, 'D-1')]],
      [4, [repeatOf(2, 'D-1')]],
      [5, []],
    ]);
    t.editCell(0, col.reference, 'D-0');
    expect(shown(t)).toEqual([
      [2, []],
      [3, []],
      [4, [repeatOf(3, 'D-1')]],
      [5, []],
    ]);
    expect(errorsOf(t)['Client internal req']).toBe(1);
    // An earlier row taking a reference makes the later holder of it the repeat.
    t.editCell(1, col.reference, 'D-2');
    expect(shown(t)).toEqual([
      [2, []],
      [3, []],
      [4, []],
      [5, [repeatOf(3, 'D-2')]],
    ]);
    t.editCell(0, col.reference, 'D-1');
    t.editCell(1, col.reference, 'D-1');
    expect(shown(t)).toEqual([
      [2, []],
      [3, [repeatOf(2, 'D-1')]],
      [4, [repeatOf(2, 'D-1')]],
      [5, []],
    ]);
    expect(t.summary()).toMatchObject({ valid: 2, withErrors: 2 });
    expect(errorsOf(t)['Client internal req']).toBe(2);
  });

  it('shows the repeat first, in place of the cell’s own problem, keeping the others', () => {
    const t = table([row('R-1'), row('R-2', { [col.days]: '9' })]);
    t.editCell(1, col.reference, 'R-1');
    expect(t.window(1, 1, false).rows[0]?.errors).toEqual([
      { field: 'clientinternalreq', column: 'Client internal req', message: repeatOf(2, 'R-1') },
      { field: 'daysperweek', column: 'Days per week', message: daysMessage },
    ]);
    // Blanking the reference: the row has no identity, so no repeat, but it is required.
    t.editCell(1, col.reference, '');
    expect(t.window(1, 1, false).rows[0]?.errors).toEqual([
      { field: 'daysperweek', column: 'Days per week', message: daysMessage },
      {
        field: 'clientinternalreq',
        column: 'Client internal req',
        message: 'Client internal req is required for Insert',
      },
    ]);
  });

  it('ignores an edit outside the file or of a column it does not have', () => {
    const t = table(mixedRows());
    t.editCell(9, 0, 'x');
    t.editCell(0, headers.length, 'x');
    t.editCell(0, -1, 'x');
    expect(t.state().edits).toEqual([]);
    expect(t.summary()).toMatchObject({ rows: 5, valid: 2 });
  });
});

describe('rows already in the batch or sent', () => {
  it('flags a row whose reference is known elsewhere, saying where', () => {
    const t = table([row('R-1'), row('R-2', { [col.days]: '9' }), row('R-3')]);
    t.setKnown(
      new Map([
        [identityKey('requisition', { clientinternalreq: 'R-2' }), 'is already in the batch'],
      ]),
    );
    expect(t.window(1, 1, false).rows[0]?.errors).toEqual([
      {
        field: 'clientinternalreq',
        column: 'Client internal req',
        message:
          '“R-2” is already in the batch, and may be sent once; remove this row or change it.',
      },
      { field: 'daysperweek', column: 'Days per week', message: daysMessage },
    ]);
    expect(t.summary()).toMatchObject({ valid: 2, withErrors: 1 });
    expect(errorsOf(t)['Client internal req']).toBe(1);
    // Known elsewhere, every row holding the reference is flagged, the first one too.
    t.editCell(2, col.reference, 'R-2');
    expect(shown(t, true).map(([rowNumber]) => rowNumber)).toEqual([3, 4]);
    t.setKnown(new Map());
    expect(shown(t)).toEqual([
      [2, []],
      [3, [daysMessage]],
      [4, [repeatOf(3, 'R-2')]],
    ]);
  });

  it('markAdded takes rows out; later rows with their reference are flagged as in the batch', () => {
    const t = table([row('M-1'), row('M-2'), row('M-1'), row('M-3')]);
    expect(t.validItems(10).map((item) => item.index)).toEqual([0, 1, 3]);
    t.markAdded([0, 1], 'was added to the batch');
    expect(t.summary()).toMatchObject({ rows: 2, valid: 1, withErrors: 1 });
    expect(shown(t)).toEqual([
      [4, ['“M-1” was added to the batch, and may be sent once; remove this row or change it.']],
      [5, []],
    ]);
    expect(t.window(0, 10, false).total).toBe(2);
    expect(t.validItems(10).map((item) => item.index)).toEqual([3]);
    expect(errorsOf(t)['Client internal req']).toBe(1);
    // Rows that left the import take no edits and are not added twice.
    t.editCell(0, col.title, 'Changed');
    t.markAdded([0], 'again');
    expect(t.state().edits).toEqual([]);
    expect(t.summary()).toMatchObject({ rows: 2, valid: 1 });
    expect(t.summary().columns[col.reference]?.samples).toEqual(['M-1', 'M-3']);
  });

  it('counts a removed row’s errors out of the summary', () => {
    const t = table(mixedRows());
    t.markAdded([1, 3], 'in the batch');
    expect(t.summary()).toMatchObject({ rows: 3, valid: 2, withErrors: 1 });
    expect(errorsOf(t)).toMatchObject({
      'Days per week': 0,
      'Number of openings': 0,
      'Start date': 1,
    });
  });
});

describe('validItems', () => {
  it('gives the valid rows up to a limit, each with what is sent for it', () => {
    const t = table(mixedRows());
    const items = t.validItems(1);
    expect(items).toEqual([
      {
        index: 0,
        // The sheet's own row: its header is row 1.
        rowNumber: 2,
        wire: {
          requesttype: 'I',
          orgid: '1001',
          titlerole: 'Staff nurse',
          noofopenings: '2',
          clientinternalreq: 'R-1',
          engagementtype: '1',
          reqclassid: '101',
          hoursunitsperday: '8',
          daysperweek: '5',
          shortdescription: 'Night shift on ward 3',
          reqownerid: 'mreyes',
          startdate: '2027-01-11',
        },
      },
    ]);
    expect(t.validItems(10).map((item) => [item.index, item.rowNumber])).toEqual([
      [0, 2],
      [4, 6],
    ]);
    expect(t.validItems(0)).toEqual([]);
  });

  it('keeps to the chosen rows, skipping those with errors or already added', () => {
    const t = table(mixedRows());
    expect(t.validItems(10, [1, 2, 4]).map((item) => item.index)).toEqual([4]);
    t.editCell(1, col.days, '5');
    expect(t.validItems(10, [1, 2, 4]).map((item) => item.index)).toEqual([1, 4]);
    expect(t.validItems(1, [1, 2, 4]).map((item) => item.index)).toEqual([1]);
    t.markAdded([1], 'in the batch');
    expect(t.validItems(10, [1, 2, 4]).map((item) => item.index)).toEqual([4]);
    expect(t.validItems(10, [99])).toEqual([]);
  });

  it('sends dates in the outbound format and the sheet’s own Org ID over the chosen one', () => {
    const t = new ImportTable({ kind: 'requisition', dateFormat: 'MM/DD/YYYY', org: '1001' });
    t.load([...headers, 'Org ID'], [[...row('R-1', { [col.start]: '46398' }), '1002']]);
    expect(t.validItems(1)[0]?.wire).toMatchObject({
      requesttype: 'I',
      orgid: '1002',
      startdate: '01/11/2027',
    });
  });
});

describe('find and replace in a column', () => {
  it('replaces every occurrence, as typed, in that column only, and re-checks', () => {
    const rows = [
      row('R-1', { [col.days]: '9', [col.description]: 'ward 3 and ward 9' }),
      row('R-2', { [col.days]: '9' }),
      row('R-3', { [col.description]: 'Ward 9' }),
    ];
    const t = table(rows);
    expect(t.summary()).toMatchObject({ valid: 1, withErrors: 2 });
    expect(t.replaceInColumn(col.days, '9', '5')).toBe(2);
    expect(t.summary()).toMatchObject({ valid: 3, withErrors: 0 });
    // Case as typed: "Ward 9" is not "ward".
    expect(t.replaceInColumn(col.description, 'ward', 'unit')).toBe(2);
    expect(t.window(0, 3, false).rows.map((r) => r.cells[col.description])).toEqual([
      'unit 3 and unit 9',
      'Night shift on unit 3',
      'Ward 9',
    ]);
    // The days per week cells were not touched by it.
    expect(t.window(0, 3, false).rows.map((r) => r.cells[col.days])).toEqual(['5', '5', '5']);
    expect(t.replaceInColumn(col.description, 'nothing like it', 'x')).toBe(0);
    expect(t.replaceInColumn(col.description, '', 'x')).toBe(0);
    expect(t.replaceInColumn(headers.length, 'a', 'b')).toBe(0);
  });

  it('can make repeats, and leaves rows already added alone', () => {
    const t = table([row('A-1'), row('B-1'), row('B-2')]);
    t.markAdded([1], 'in the batch');
    expect(t.replaceInColumn(col.reference, 'B-', 'A-')).toBe(1);
    expect(referencesOf(t)).toEqual(['A-1', 'A-2']);
    t.editCell(2, col.reference, 'A-1');
    expect(shown(t)).toEqual([
      [2, []],
      [4, [repeatOf(2, 'A-1')]],
    ]);
    // One edit, of row 2's cell, holding the last value given: the added row was not touched.
    expect(t.state().edits).toEqual([[2, col.reference, 'A-1']]);
  });
});

describe('mapping', () => {
  it('ignoring a column leaves its field missing, and mapping it again brings it back', () => {
    const t = table(mixedRows());
    t.setColumn(col.title, '');
    const summary = t.summary();
    expect(summary.columns[col.title]).toMatchObject({
      header: 'Job title',
      key: null,
      label: null,
      errors: 0,
      note: 'ignored by the mapping',
    });
    expect(summary.missing).toEqual([{ field: 'titlerole', label: 'Job title', errors: 5 }]);
    expect(summary).toMatchObject({ valid: 0, withErrors: 5 });
    expect(t.window(0, 1, false).rows[0]?.errors).toEqual([
      { field: 'titlerole', column: '', message: 'Job title is required for Insert' },
    ]);
    expect(t.currentMapping()['Job title']).toBe('');
    t.setColumn(col.title, 'titlerole');
    expect(t.summary()).toMatchObject({ valid: 2, withErrors: 3, missing: [] });
    expect(t.summary().columns[col.title]).toMatchObject({ key: 'titlerole', match: 'mapping' });
  });

  it('gives a field to the column the user names, taking it from the column that filled it', () => {
    const t = table(mixedRows());
    // The user says the short description is the job title: the Job title column gives it up.
    t.setColumn(col.description, 'titlerole');
    const columns = t.summary().columns;
    expect(columns[col.description]).toMatchObject({ key: 'titlerole', match: 'mapping' });
    expect(columns[col.title]).toMatchObject({ key: null, note: 'ignored by the mapping' });
    // Short description now has no column, and it is required for Insert; the job title is
    // filled (from the other column), so it is not.
    expect(t.window(0, 1, false).rows[0]?.errors).toEqual([
      {
        field: 'shortdescription',
        column: '',
        message: 'Short description is required for Insert',
      },
    ]);
    expect(t.summary().missing).toEqual([
      { field: 'shortdescription', label: 'Short description', errors: 5 },
    ]);
  });

  it('maps a header the catalog does not know by the user’s choice or a template', () => {
    const mine = ['Our ref', ...headers.filter((header) => header !== 'Client internal req')];
    const rows = [['X-1', ...row('').filter((_, i) => i !== col.reference)]];
    const t = new ImportTable(requisitions);
    t.load(mine, rows);
    expect(t.summary().missing).toEqual([
      { field: 'clientinternalreq', label: 'Client internal req', errors: 1 },
    ]);
    expect(t.summary().columns[0]).toMatchObject({ key: null, note: 'names no field' });
    t.setMapping({ 'Our ref': 'clientinternalreq' });
    expect(t.summary()).toMatchObject({ valid: 1, missing: [] });
    expect(t.validItems(1)[0]?.wire['clientinternalreq']).toBe('X-1');
    const templated = new ImportTable(requisitions);
    templated.load(mine, rows, { 'Our ref': 'clientinternalreq' });
    expect(templated.summary()).toMatchObject({ valid: 1, missing: [] });
  });

  it('ignores setColumn for a column the file does not have', () => {
    const t = table(mixedRows());
    const before = t.summary();
    t.setColumn(headers.length, 'titlerole');
    expect(t.summary()).toEqual(before);
  });
});

describe('errorCsv', () => {
  const parse = (csv: string) => Papa.parse<string[]>(csv, { skipEmptyLines: true }).data;

  it('exports the rows with errors, as edited, with their messages in an Errors column', () => {
    const t = table(mixedRows());
    t.editCell(1, col.title, 'Edited nurse');
    t.editCell(4, col.reference, 'R-1');
    const [header, ...rows] = parse(t.errorCsv());
    expect(header).toEqual([...headers, 'Errors']);
    expect(rows.map((r) => r[col.reference])).toEqual(['R-2', 'R-3', 'R-4', 'R-1']);
    expect(rows[0]).toEqual([
      ...row('R-2', { [col.days]: '9', [col.title]: 'Edited nurse' }),
      `Days per week: ${daysMessage}`,
    ]);
    expect(rows.map((r) => r[headers.length])).toEqual([
      `Days per week: ${daysMessage}`,
      `Start date: ${twoDigitYearMessage}`,
      `Number of openings: ${openingsMessage}\nDays per week: ${daysMessage}`,
      `Client internal req: ${repeatOf(2, 'R-1')}`,
    ]);
  });

  it('names a field without a column by its label', () => {
    const t = table([row('R-1')], { kind: 'requisition', dateFormat });
    const [header, ...rows] = parse(t.errorCsv());
    expect(header).toEqual([...headers, 'Errors']);
    expect(rows).toEqual([[...row('R-1'), 'Org ID: Org ID is required for Insert']]);
  });

  it('keeps the messages under Errors when a row has more cells than the header', () => {
    // A CSV row with a trailing comma has one cell more than its header.
    const t = table([row('R-1'), [...row('R-2', { [col.days]: '9' }), '']]);
    const [header, ...rows] = parse(t.errorCsv());
    expect(header).toEqual([...headers, 'Errors']);
    expect(rows.length).toBe(1);
    expect(rows[0]?.[header?.indexOf('Errors') ?? -1]).toBe(`Days per week: ${daysMessage}`);
  });

  it('is the header alone when no row has errors', () => {
    const t = table([row('R-1')]);
    expect(parse(t.errorCsv())).toEqual([[...headers, 'Errors']]);
  });
});

describe('restore', () => {
  it('brings back the same rows, errors and counts from the file and the changes stored', () => {
    const fileRows = () => [...mixedRows(), row('R-1'), row('R-6')];
    const where = 'was added to the batch';
    const before = table(fileRows());
    before.editCell(1, col.days, '5');
    before.editCell(2, col.title, 'Crèche nurse');
    before.editCell(2, col.title, 'Crèche nurse, nights');
    before.replaceInColumn(col.description, 'ward 3', 'ward 4');
    before.setColumn(col.hours, '');
    before.setColumn(col.hours, 'hoursunitsperday');
    before.markAdded([0, 1], where);
    const state = JSON.parse(JSON.stringify(before.state())) as ReturnType<Table['state']>;
    // One entry per cell: the last value typed into it.
    expect(state.edits.filter(([index, column]) => index === 2 && column === col.title)).toEqual([
      [2, col.title, 'Crèche nurse, nights'],
    ]);
    expect([...state.removed].sort()).toEqual([0, 1]);

    const after = new ImportTable(requisitions);
    after.restore({ headers, rows: fileRows() }, state);
    // The page tells the worker again what the batch holds (rows 0 and 1 went there).
    after.setKnown(
      new Map(
        ['R-1', 'R-2'].map((ref) => [
          identityKey('requisition', { clientinternalreq: ref }),
          where,
        ]),
      ),
    );
    expect(after.summary()).toEqual(before.summary());
    expect(after.window(0, 100, false)).toEqual(before.window(0, 100, false));
    expect(after.window(0, 100, true)).toEqual(before.window(0, 100, true));
    expect(after.errorCsv()).toBe(before.errorCsv());
    // The row repeating what went to the batch is flagged in both.
    expect(shown(after, true)).toContainEqual([
      7,
      ['“R-1” was added to the batch, and may be sent once; remove this row or change it.'],
    ]);
  });

  it('keeps an ignored column ignored and the user’s mapping as it was', () => {
    const before = table(mixedRows());
    before.setColumn(col.title, '');
    const after = new ImportTable(requisitions);
    after.restore({ headers, rows: mixedRows() }, before.state());
    expect(after.summary()).toEqual(before.summary());
    expect(after.currentMapping()).toEqual(before.currentMapping());
  });

  it('pads short rows as load does', () => {
    const short = () => [row('R-1'), row('R-2').slice(0, 3)];
    const before = table(short());
    before.editCell(1, col.title, 'Porter');
    before.editCell(1, col.days, '5');
    const after = new ImportTable(requisitions);
    after.restore({ headers, rows: short() }, before.state());
    expect(after.window(0, 10, false)).toEqual(before.window(0, 10, false));
  });
});

describe('the rows given to load', () => {
  it('stay as read: edits go to the table’s rows, not into the file’s', () => {
    // The worker keeps the file's sheets to open another one, and stores them as the source.
    const rows = mixedRows();
    const t = table(rows);
    t.editCell(0, col.title, 'Porter');
    t.replaceInColumn(col.reference, 'R-', 'Q-');
    expect(rows[0]?.[col.title]).toBe('Staff nurse');
    expect(rows.map((r) => r[col.reference])).toEqual(['R-1', 'R-2', 'R-3', 'R-4', 'R-5']);
    expect(t.window(0, 1, false).rows[0]?.cells.slice(0, 3)).toEqual(['Porter', '2', 'Q-1']);
  });
});

describe('candidates', () => {
  const candidateHeaders = ['Req ID', 'First name', 'Last name', 'E-mail', 'Engagement type'];
  const candidates: ImportOptions = { kind: 'candidate', dateFormat, org: '1001' };

  it('flags the same e-mail (in any case) to the same requisition, not to another', () => {
    const t = new ImportTable(candidates);
    t.load(candidateHeaders, [
      ['40001', 'Ada', 'Lovelace', 'ada@vendor.example', '1'],
      ['40001', 'Ada', 'L.', 'ADA@Vendor.Example', '1'],
      ['40002', 'Ada', 'Lovelace', 'ada@vendor.example', '1'],
      ['40001', 'Grace', 'Hopper', 'grace@vendor.example', '4'],
    ]);
    expect(t.window(0, 10, false).rows.map((r) => r.errors)).toEqual([
      [],
      [
        {
          field: 'candemail',
          column: 'E-mail',
          message: repeatOf(2, 'ada@vendor.example to requisition 40001'),
        },
      ],
      [],
      [],
    ]);
    expect(t.summary()).toMatchObject({ rows: 4, valid: 3, withErrors: 1, missing: [] });
    // A candidate sheet takes no defaults: what is sent is what the columns hold.
    expect(t.validItems(1)).toEqual([
      {
        index: 0,
        rowNumber: 2,
        wire: {
          requirementid: '40001',
          firstname: 'Ada',
          lastname: 'Lovelace',
          candemail: 'ada@vendor.example',
          engagementtype: '1',
        },
      },
    ]);
    // Moving the repeat to the other requisition settles it; onto the second, it repeats there.
    t.editCell(1, 0, '40002');
    expect(shown(t, true)).toEqual([[4, [repeatOf(3, 'ada@vendor.example to requisition 40002')]]]);
  });
});
