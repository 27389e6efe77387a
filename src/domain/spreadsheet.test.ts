import { describe, expect, it } from 'vitest';
import { candidateCatalog } from './candidate-catalog';
import { requisitionCatalog } from './requisition-catalog';
import {
  dateOrders,
  decimalCommaColumns,
  readDecimalCommaCell,
  columnReadings,
  readDateCell,
} from './sheet-cells';
import { checkSheet, sheetRowChecker, withRepeat } from './sheet-check';
import { mapHeaders, normalizeHeader } from './sheet-headers';
import type { MappingTemplate } from './spreadsheet';
import {
  cellText,
  chooseTemplate,
  decodeSheet,
  identityKey,
  identityKeyOf,
  identityValueOf,
  jsonSheet,
  readChoiceCell,
  rowReader,
  repeatedItems,
  rowToItem,
  sheetDefaults,
  sheetIdentity,
} from './spreadsheet';

const keysOf = (headers: string[], mapping?: Record<string, string>) =>
  mapHeaders(headers, requisitionCatalog, mapping).map((column) => column.key);

describe('header matching', () => {
  it('ignores case, spaces, punctuation and accents', () => {
    expect(normalizeHeader(' Job Title: ')).toBe('jobtitle');
    expect(normalizeHeader('Réq_class-ID')).toBe('reqclassid');
  });

  it('matches wire names, the VMS’s PascalCase names, labels and aliases', () => {
    const columns = mapHeaders(
      ['TitleRole', 'Number of openings', 'Client internal req', 'Headcount', 'Positions'],
      requisitionCatalog,
    );
    expect(columns.map((column) => [column.key, column.match])).toEqual([
      ['titlerole', 'wire name'],
      ['noofopenings', 'label'],
      // A label that reads as its wire name once spaces are gone counts as the wire name.
      ['clientinternalreq', 'wire name'],
      // "Headcount" and "Positions" are aliases of openings, already filled.
      [null, null],
      [null, null],
    ]);
    expect(columns[3]?.note).toBe(
      'noofopenings is already filled from column “Number of openings”',
    );
    expect(keysOf(['Headcount'])).toEqual(['noofopenings']);
  });

  it('matches skill and question columns by their number, written either way', () => {
    expect(
      keysOf(['Skill 3 description', 'skilldescription4', 'Skill3Description', 'Question 2 text']),
    ).toEqual(['skilldescription3', 'skilldescription4', null, 'questiondescription2']);
    expect(
      mapHeaders(['Answer to question 2', 'answer3'], candidateCatalog).map((c) => c.key),
    ).toEqual(['answer2', 'answer3']);
    // A candidate's sheet names responses and answers by the skill's and question's number.
    expect(
      mapHeaders(
        ['Skill 3 response', 'Question 2 answer', 'Response skill 1'],
        candidateCatalog,
      ).map((column) => column.key),
    ).toEqual(['skill3response', 'answer2', 'skill1response']);
  });

  it('leaves a header that names no field unmapped, and a saved mapping wins', () => {
    const columns = mapHeaders(['Notes', 'Our ref', 'Job title'], requisitionCatalog, {
      'Our ref': 'clientinternalreq',
      'Job title': '',
    });
    expect(columns.map((column) => column.key)).toEqual([null, 'clientinternalreq', null]);
    expect(columns.map((column) => column.note)).toEqual([
      'names no field',
      undefined,
      'ignored by the mapping',
    ]);
  });
});

describe('date cells', () => {
  it('reads ISO, month-first and spreadsheet serial dates, and sends the outbound format', () => {
    expect(readDateCell('2026-03-31', 'YYYY-MM-DD')).toEqual({ ok: true, value: '2026-03-31' });
    expect(readDateCell('3/31/2026', 'YYYY-MM-DD')).toEqual({ ok: true, value: '2026-03-31' });
    expect(readDateCell('03/13/2026', 'YYYY-MM-DD')).toEqual({ ok: true, value: '2026-03-13' });
    // The same number twice reads the same either way.
    expect(readDateCell('04/04/2026', 'YYYY-MM-DD')).toEqual({ ok: true, value: '2026-04-04' });
    // Serial 46112 is 2026-03-31 in the 1900 date system; 45658 is 2025-01-01.
    expect(readDateCell('46112', 'MM/DD/YYYY')).toEqual({ ok: true, value: '03/31/2026' });
    expect(readDateCell('45658', 'YYYY-MM-DD')).toEqual({ ok: true, value: '2025-01-01' });
    expect(readDateCell('  ', 'YYYY-MM-DD')).toEqual({ ok: true, value: '' });
  });

  it('flags what it would have to guess, saying how to write it', () => {
    const message = (cell: string) => {
      const read = readDateCell(cell, 'YYYY-MM-DD');
      return read.ok ? null : read.message;
    };
    expect(message('31/03/2026')).toMatch(/reads as day first/);
    expect(message('03/04/2026')).toBe(
      '“03/04/2026” could be read month first or day first; write it as YYYY-MM-DD (2026-03-04 or 2026-04-03)',
    );
    expect(message('3/31/26')).toMatch(/two-digit year/);
    expect(message('2026-02-30')).toMatch(/is not a date/);
    expect(message('next week')).toMatch(/is not a date; write it as YYYY-MM-DD/);
  });
});

describe('rows and repeats', () => {
  it('builds a wire item from the mapped cells, with unreadable dates kept and reported', () => {
    const columns = mapHeaders(['Job title', 'Start date', 'Notes'], requisitionCatalog);
    const item = rowToItem(
      [' Nurse ', '31/03/2026', 'x'],
      columns,
      requisitionCatalog,
      'YYYY-MM-DD',
    );
    expect(item.wire).toEqual({ titlerole: 'Nurse', startdate: '31/03/2026' });
    expect([...item.cellProblems.keys()]).toEqual(['startdate']);
  });

  it('flags each repeat with the first of its kind, ignoring items without an identity', () => {
    const repeats = repeatedItems(['A', '', 'B', 'A', '', 'A'], (value) => value);
    expect([...repeats]).toEqual([
      [3, { first: 0, identity: 'A' }],
      [5, { first: 0, identity: 'A' }],
    ]);
  });
});

describe('decoding and cells', () => {
  it('reads UTF-8 when the bytes are UTF-8, else Windows-1252 (its € at 0x80 included)', () => {
    expect(decodeSheet(new TextEncoder().encode('Crèche'))).toEqual({
      text: 'Crèche',
      encoding: 'UTF-8',
    });
    expect(decodeSheet(new Uint8Array([0x43, 0x72, 0xe8, 0x63, 0x68, 0x65]))).toEqual({
      text: 'Crèche',
      encoding: 'Windows-1252',
    });
    // Latin-1 would read 0x80 as a control character; Windows-1252 reads it as the euro sign.
    expect(decodeSheet(new Uint8Array([0x80, 0x35]))).toEqual({
      text: '€5',
      encoding: 'Windows-1252',
    });
    expect(decodeSheet(new Uint8Array([0xef, 0xbb, 0xbf, 0x41]))).toEqual({
      text: 'A',
      encoding: 'UTF-8',
    });
    // Excel's "Unicode Text": UTF-16 little-endian with its byte-order mark, tab-separated.
    expect(
      decodeSheet(new Uint8Array([0xff, 0xfe, 0x43, 0x00, 0xe8, 0x00, 0x09, 0x00, 0xac, 0x20])),
    ).toEqual({ text: 'Cè\t€', encoding: 'UTF-16' });
    expect(decodeSheet(new Uint8Array([0xfe, 0xff, 0x00, 0x43, 0x00, 0xe8]))).toEqual({
      text: 'Cè',
      encoding: 'UTF-16',
    });
  });

  it('writes an XLSX cell as text: dates as YYYY-MM-DD, flags as Y/N, blanks as empty', () => {
    expect(cellText(new Date(Date.UTC(2027, 0, 11)))).toBe('2027-01-11');
    expect(cellText(new Date(Number.NaN))).toBe('');
    expect(cellText(null)).toBe('');
    expect(cellText(undefined)).toBe('');
    expect(cellText(true)).toBe('Y');
    expect(cellText(false)).toBe('N');
    expect(cellText(2)).toBe('2');
    expect(cellText(7.25)).toBe('7.25');
    expect(cellText(' as typed ')).toBe(' as typed ');
  });
});

describe('JSON items as a sheet', () => {
  it('makes the header of the keys in the order first seen, blank where an item has none', () => {
    expect(
      jsonSheet([
        { titlerole: 'Nurse', noofopenings: '2' },
        { noofopenings: 3, clientinternalreq: 'J-2' },
      ]),
    ).toEqual([
      ['titlerole', 'noofopenings', 'clientinternalreq'],
      ['Nurse', '2', ''],
      ['', '3', 'J-2'],
    ]);
  });

  it('reads { "items": [...] } alike, nested values as JSON and null as blank', () => {
    expect(
      jsonSheet({ items: [{ a: { b: 1 }, c: [1, 'x'], d: null, e: false }], count: 1 }),
    ).toEqual([
      ['a', 'c', 'd', 'e'],
      ['{"b":1}', '[1,"x"]', '', 'N'],
    ]);
    expect(jsonSheet([])).toEqual([[]]);
  });

  it('is null for JSON that holds no array of objects', () => {
    for (const value of [
      { titlerole: 'Nurse' },
      [1, 2],
      [{ a: '1' }, null],
      [['a', 'b']],
      { items: { a: '1' } },
      'text',
      null,
    ])
      expect(jsonSheet(value)).toBeNull();
  });
});

describe('identity', () => {
  it('is a new requisition’s client internal req; an Amend or a blank reference has none', () => {
    expect(sheetIdentity('requisition', { clientinternalreq: 'R-1' })).toEqual({
      field: 'clientinternalreq',
      value: 'R-1',
    });
    expect(sheetIdentity('requisition', { requesttype: 'I', clientinternalreq: 'R-1' })).toEqual({
      field: 'clientinternalreq',
      value: 'R-1',
    });
    expect(sheetIdentity('requisition', { requesttype: 'A', clientinternalreq: 'R-1' })).toBe(null);
    expect(sheetIdentity('requisition', { requesttype: 'I', clientinternalreq: '' })).toBe(null);
    expect(identityKey('requisition', { clientinternalreq: 'R-1' })).toBe(
      'clientinternalreq\u0000R-1',
    );
    expect(identityKey('requisition', { requesttype: 'A', clientinternalreq: 'R-1' })).toBe('');
  });

  it('is a candidate’s e-mail, in any case, for one requisition', () => {
    const ada = { candemail: 'Ada@Vendor.example', requirementid: '40001' };
    expect(sheetIdentity('candidate', ada)).toEqual({
      field: 'candemail',
      value: 'ada@vendor.example to requisition 40001',
    });
    expect(identityKey('candidate', ada)).toBe(
      'candemail\u0000ada@vendor.example to requisition 40001',
    );
    expect(identityKey('candidate', { ...ada, candemail: 'ada@vendor.example' })).toBe(
      identityKey('candidate', ada),
    );
    expect(identityKey('candidate', { ...ada, requirementid: '40002' })).not.toBe(
      identityKey('candidate', ada),
    );
    expect(sheetIdentity('candidate', { requirementid: '40001', candemail: '' })).toBe(null);
    expect(identityKey('candidate', { requirementid: '40001' })).toBe('');
  });

  it('goes from its value to its key and back, for its own kind only', () => {
    const key = identityKey('requisition', { clientinternalreq: 'R-1' });
    expect(identityKeyOf('requisition', 'R-1')).toBe(key);
    expect(identityValueOf('requisition', key)).toBe('R-1');
    expect(identityValueOf('candidate', key)).toBeNull();
    expect(identityKeyOf('requisition', '')).toBe('');
    expect(identityValueOf('requisition', '')).toBeNull();
  });
});

describe('sheet defaults', () => {
  const columns = (headers: string[], mapping?: Record<string, string>) =>
    mapHeaders(headers, requisitionCatalog, mapping);

  it('makes requisitions without a request type column new ones, for the org chosen', () => {
    expect(sheetDefaults('requisition', columns(['Job title']), '1001')).toEqual({
      requesttype: 'I',
      orgid: '1001',
    });
    expect(sheetDefaults('requisition', columns(['Job title']), undefined)).toEqual({
      requesttype: 'I',
    });
  });

  it('leaves to the sheet what it has a column for, and an ignored column is none', () => {
    expect(sheetDefaults('requisition', columns(['Request type', 'Org ID']), '1001')).toEqual({});
    expect(sheetDefaults('requisition', columns(['Org ID']), '1001')).toEqual({
      requesttype: 'I',
    });
    expect(sheetDefaults('requisition', columns(['Org ID'], { 'Org ID': '' }), '1001')).toEqual({
      requesttype: 'I',
      orgid: '1001',
    });
  });

  it('gives candidates none', () => {
    const candidateColumns = mapHeaders(['E-mail'], candidateCatalog);
    expect(sheetDefaults('candidate', candidateColumns, '1001')).toEqual({});
  });
});

describe('templates', () => {
  const template = (name: string, mapping: Record<string, string>): MappingTemplate => ({
    name,
    mapping,
  });
  const short = template('Short', { 'Our ref': 'clientinternalreq' });
  const longer = template('Longer', { 'Our ref': 'clientinternalreq', Notes: '' });
  const other = template('Other', {
    'Our ref': 'clientinternalreq',
    Title: 'titlerole',
    Budget: '',
  });

  it('fits a file holding every header it names; the one naming the most wins', () => {
    const templates = [short, longer, other];
    expect(chooseTemplate(['Our ref', 'Title', 'Notes'], templates)).toBe(longer);
    expect(chooseTemplate(['Our ref', 'Title', 'Notes', 'Budget'], templates)).toBe(other);
    expect(chooseTemplate(['Title', 'Our ref'], templates)).toBe(short);
    // Order does not matter: the most headers named wins wherever it is in the list.
    expect(chooseTemplate(['Our ref', 'Notes'], [longer, short])).toBe(longer);
  });

  it('is null when no template fits, headers compared exactly as saved', () => {
    expect(chooseTemplate(['Reference', 'Title'], [short, longer, other])).toBeNull();
    expect(chooseTemplate(['our ref'], [short])).toBeNull();
    expect(chooseTemplate(['Our ref'], [])).toBeNull();
  });
});

describe('checking rows', () => {
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
  const good = (reference: string) => [
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
  const columns = mapHeaders(headers, requisitionCatalog);

  it('checks one row: its wire over the defaults, unreadable cells first, its identity', () => {
    const check = sheetRowChecker('requisition', columns, {
      dateFormat: 'MM/DD/YYYY',
      org: '1001',
    });
    const ok = check(good('CSV-1'));
    expect(ok.errors).toEqual([]);
    expect(ok.identity).toBe('clientinternalreq\u0000CSV-1');
    expect(ok.wire).toMatchObject({ requesttype: 'I', orgid: '1001', startdate: '01/11/2027' });
    const bad = good('CSV-2');
    bad[6] = '9';
    bad[9] = '31/03/2027';
    expect(check(bad).errors).toEqual([
      {
        field: 'startdate',
        column: 'Start date',
        message:
          '“31/03/2027” reads as day first, which this import does not guess; write it as YYYY-MM-DD or MM/DD/YYYY',
      },
      {
        field: 'daysperweek',
        column: 'Days per week',
        message: 'Days per week must be between 0 and 7',
      },
    ]);
  });

  it('checks a file’s rows in one reused item: the same problems and identities, nothing carried over', () => {
    const check = sheetRowChecker('requisition', columns, {
      dateFormat: 'MM/DD/YYYY',
      org: '1001',
    });
    const dayFirst = good('CSV-3');
    dayFirst[9] = '31/03/2027';
    const rows = [good('CSV-1'), dayFirst, good('CSV-2').slice(0, 3), good(' CSV-1 '), good('')];
    for (const row of rows) {
      const one = check(row);
      const problems = check.problems(row);
      expect(problems.errors).toEqual(one.errors);
      expect(identityKeyOf('requisition', problems.identityValue)).toBe(one.identity);
    }
    // A short row after full ones: its missing cells read blank, not the last row's values.
    expect(check.problems(rows[2] ?? []).errors.map((error) => error.field)).toContain(
      'hoursunitsperday',
    );
    expect(check.problems(rows[3] ?? []).identityValue).toBe('CSV-1');
  });

  it('puts a repeat first, in place of its field’s own problem', () => {
    const errors = [
      { field: 'clientinternalreq', column: 'Ref', message: 'too long' },
      { field: 'daysperweek', column: 'Days', message: 'Days per week must be between 0 and 7' },
    ];
    expect(
      withRepeat(errors, 4, 'clientinternalreq\u0000R-1', new Map([['clientinternalreq', 'Ref']])),
    ).toEqual([
      {
        field: 'clientinternalreq',
        column: 'Ref',
        message: 'Row 4 already has “R-1”, which may be sent once; remove or change one of them.',
      },
      { field: 'daysperweek', column: 'Days', message: 'Days per week must be between 0 and 7' },
    ]);
  });

  it('checks a sheet by kind, flagging a repeated reference at its spreadsheet row', () => {
    const report = checkSheet(
      'requisition',
      [good('CSV-1'), good('CSV-2'), good('CSV-1')],
      columns,
      { dateFormat: 'YYYY-MM-DD', org: '1001' },
    );
    expect(report.valid).toBe(false);
    expect(report.rows).toEqual([
      { row: 2, valid: true, errors: [] },
      { row: 3, valid: true, errors: [] },
      {
        row: 4,
        valid: false,
        errors: [
          {
            field: 'clientinternalreq',
            column: 'Client internal req',
            message:
              'Row 2 already has “CSV-1”, which may be sent once; remove or change one of them.',
          },
        ],
      },
    ]);
    const candidates = checkSheet(
      'candidate',
      [['40001', 'Ada', 'Lovelace', 'ada@vendor.example', '1']],
      mapHeaders(
        ['Req ID', 'First name', 'Last name', 'E-mail', 'Engagement type'],
        candidateCatalog,
      ),
      { dateFormat: 'YYYY-MM-DD' },
    );
    expect(candidates.valid).toBe(true);
  });
});

describe('readChoiceCell', () => {
  const choices = new Map([
    ['contract', '1'],
    ['contract to perm', '2'],
    ['1', '1'],
    ['2', '2'],
  ]);

  it('reads a label in any case and spacing as its code, and a code as itself', () => {
    expect(readChoiceCell('Contract', choices)).toBe('1');
    expect(readChoiceCell('CONTRACT  to   Perm', choices)).toBe('2');
    expect(readChoiceCell('2', choices)).toBe('2');
  });

  it('leaves a word that names no choice as written', () => {
    expect(readChoiceCell('Contractor', choices)).toBe('Contractor');
  });
});

describe('sequence numbers no column gives', () => {
  it('are derived from the row’s position when any other part of that row is filled', () => {
    const headers = [
      'Client internal req',
      'Skill 1 description',
      'Skill 2 description',
      'Question 1 text',
    ];
    const columns = mapHeaders(headers, requisitionCatalog, {});
    const read = (cells: string[]) =>
      rowToItem(cells, columns, requisitionCatalog, 'YYYY-MM-DD').wire;
    expect(read(['R-1', 'Java', 'Kotlin', 'Notice?'])).toMatchObject({
      skill1: '1',
      skill2: '2',
      question1: '1',
    });
    expect(read(['R-2', '', '', ''])).toMatchObject({ skill1: '', skill2: '', question1: '' });
    // A column of sequence numbers is read as written.
    const own = mapHeaders(['Skill 1', 'Skill 1 description'], requisitionCatalog, {});
    expect(rowToItem(['7', 'Java'], own, requisitionCatalog, 'YYYY-MM-DD').wire.skill1).toBe('7');
  });
});

describe('decimal commas', () => {
  const columns = mapHeaders(
    ['Hours per day', 'Bill rate from', 'Days per week'],
    requisitionCatalog,
    {},
  );
  it('finds the decimal columns a file writes with a comma, and none where a point or nothing proves it', () => {
    expect(
      decimalCommaColumns(
        [
          ['8', '1,500', '5'],
          ['7,5', '95.25', '4,5'],
        ],
        columns,
        requisitionCatalog,
      ),
    ).toEqual(new Set(['hoursunitsperday']));
    // A point beside the comma: the file proves nothing, and 7,5 is reported, not guessed.
    expect(
      decimalCommaColumns(
        [
          ['7,5', ''],
          ['7.25', ''],
        ],
        columns,
        requisitionCatalog,
      ),
    ).toEqual(new Set());
    // 1,500 could be a thousand and a half or one and a half: alone it proves nothing.
    expect(decimalCommaColumns([['1,500', '']], columns, requisitionCatalog)).toEqual(new Set());
  });

  it('reads such a column’s cells with a point, grouped thousands too, and leaves other text alone', () => {
    expect(readDecimalCommaCell('7,5')).toBe('7.5');
    expect(readDecimalCommaCell('1.234,50')).toBe('1234.50');
    expect(readDecimalCommaCell('-0,25')).toBe('-0.25');
    expect(readDecimalCommaCell('8')).toBe('8');
    expect(readDecimalCommaCell('about 7,5')).toBe('about 7,5');
  });

  it('makes a semicolon CSV’s 7,5 read as 7.5 in the check, and keeps reporting it where the file proves nothing', () => {
    const header = ['Hours per day'];
    const mapped = mapHeaders(header, requisitionCatalog, {});
    const proved = checkSheet('requisition', [['8'], ['7,5']], mapped, {
      dateFormat: 'YYYY-MM-DD',
    });
    const unproved = checkSheet('requisition', [['7.5'], ['7,5']], mapped, {
      dateFormat: 'YYYY-MM-DD',
    });
    const hoursProblem = (report: typeof proved, row: number) =>
      report.rows[row]?.errors.find((issue) => issue.field === 'hoursunitsperday')?.message;
    expect(hoursProblem(proved, 1)).toBeUndefined();
    expect(hoursProblem(unproved, 1)).toContain('decimal comma (7,5); write it with a point: 7.5');
    // What is sent for the row: the value with a point.
    const rows = [['8'], ['7,5']];
    const read = rowReader(
      mapped,
      requisitionCatalog,
      'YYYY-MM-DD',
      {},
      columnReadings(rows, mapped, requisitionCatalog),
    );
    expect(read(['7,5']).wire.hoursunitsperday).toBe('7.5');
  });
});

describe('dateOrders', () => {
  const columns = mapHeaders(['Start date', 'End date'], requisitionCatalog, {});
  it('finds the order each date column proves, and none where it proves both or neither', () => {
    const rows = [
      ['5/14/2027', '14/05/2027'],
      ['1/10/2027', '03/04/2027'],
    ];
    expect(dateOrders(rows, columns, requisitionCatalog)).toEqual(
      new Map([
        ['startdate', 'month-first'],
        ['enddate', 'day-first'],
      ]),
    );
    expect(
      dateOrders(
        [
          ['5/14/2027', '2027-01-01'],
          ['14/5/2027', ''],
        ],
        columns,
        requisitionCatalog,
      ),
    ).toEqual(new Map());
    expect(
      dateOrders([['1/2/2027', '']], columns, requisitionCatalog, 'day-first').get('startdate'),
    ).toBe('day-first');
  });

  it('reads a date that reads either way by the order given', () => {
    expect(readDateCell('03/04/2027', 'YYYY-MM-DD', 'month-first')).toEqual({
      ok: true,
      value: '2027-03-04',
    });
    expect(readDateCell('03/04/2027', 'YYYY-MM-DD', 'day-first')).toEqual({
      ok: true,
      value: '2027-04-03',
    });
    expect(readDateCell('5/14/2027', 'MM/DD/YYYY', 'day-first').ok).toBe(false);
  });
});
