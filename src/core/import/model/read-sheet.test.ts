import { describe, expect, it } from 'vitest';
import writeXlsxFile from 'write-excel-file/node';
import { sheetBody } from '@/domain';
import { parseDelimited, readSheets, UnreadableFile } from './read-sheet';

/*
 * The import reads CSV and TSV (UTF-8 with or without a byte-order mark, or
 * Windows-1252 as Excel on Windows saves it), XLSX workbooks and JSON arrays of objects into
 * sheets of text cells, and says what to do with a file it cannot read.
 */
const utf8 = (text: string) => new TextEncoder().encode(text);

/** Windows-1252 bytes of `text`: its few accented letters by hand, the rest ASCII. */
const accents: Record<string, number> = { è: 0xe8, é: 0xe9, ü: 0xfc };
const cp1252 = (text: string) =>
  Uint8Array.from(text, (char) => {
    const code = accents[char] ?? char.charCodeAt(0);
    if (code > 0xff) throw new Error(`no Windows-1252 byte for ${char} in this helper`);
    return code;
  });

/** What readSheets throws for `bytes` named `name` (it must throw). */
async function refusal(name: string, bytes: Uint8Array): Promise<Error> {
  const error: unknown = await readSheets(name, bytes).then(
    () => null,
    (thrown: unknown) => thrown,
  );
  if (!(error instanceof Error)) throw new Error(`${name} was read, not refused`);
  return error;
}

describe('delimited text', () => {
  it('decodes Windows-1252 bytes, as Excel on Windows saves a CSV, and says so', async () => {
    const bytes = cp1252('Job title,Notes\r\nCrèche nurse,Zürich ward\r\nPorter,Café\r\n');
    expect(bytes[19]).toBe(0xe8);
    const read = await readSheets('requisitions.csv', bytes);
    expect(read).toEqual({
      format: 'CSV, Windows-1252',
      sheets: [
        {
          name: 'Sheet 1',
          rows: [
            ['Job title', 'Notes'],
            ['Crèche nurse', 'Zürich ward'],
            ['Porter', 'Café'],
          ],
        },
      ],
    });
  });

  it('reads UTF-8 with a byte-order mark, leaving no mark in the first header', async () => {
    const bytes = new Uint8Array([0xef, 0xbb, 0xbf, ...utf8('Job title,Notes\nCrèche nurse,x\n')]);
    const read = await readSheets('requisitions.csv', bytes);
    expect(read.format).toBe('CSV, UTF-8');
    expect(read.sheets[0]?.rows).toEqual([
      ['Job title', 'Notes'],
      ['Crèche nurse', 'x'],
    ]);
    expect(read.sheets[0]?.rows[0]?.[0]?.charCodeAt(0)).toBe('J'.charCodeAt(0));
  });

  it('finds tabs and semicolons as the delimiter, commas inside cells kept', async () => {
    const tsv = await readSheets(
      'export.txt',
      utf8('Our ref\tTitle\nTSV-1\tNurse, senior\nTSV-2\tPorter\n'),
    );
    expect(tsv.format).toMatch(/^TSV/);
    expect(tsv.format).toBe('TSV, UTF-8');
    expect(tsv.sheets[0]?.rows).toEqual([
      ['Our ref', 'Title'],
      ['TSV-1', 'Nurse, senior'],
      ['TSV-2', 'Porter'],
    ]);
    const semicolons = await readSheets(
      'europe.csv',
      cp1252('Job title;Hours per day\nCrèche nurse;7,5\nPorter;8\n'),
    );
    expect(semicolons.format).toBe('semicolon-separated, Windows-1252');
    expect(semicolons.sheets[0]?.rows).toEqual([
      ['Job title', 'Hours per day'],
      ['Crèche nurse', '7,5'],
      ['Porter', '8'],
    ]);
  });

  it('parses pasted cells: blank lines kept for their row numbers, quoted line breaks kept in their cell', () => {
    const parsed = parseDelimited('Title\tNotes\n\n  \nNurse\t"line one\nline two"\n\n');
    expect(parsed).toEqual({
      rows: [['Title', 'Notes'], [''], ['  '], ['Nurse', 'line one\nline two']],
      delimiter: '\t',
    });
    // What the import then reads: the row where the spreadsheet has it.
    expect(sheetBody(parsed.rows)).toEqual({
      header: ['Title', 'Notes'],
      rows: [['Nurse', 'line one\nline two']],
      rowNumbers: [4],
    });
  });
});

describe('JSON', () => {
  it('reads an array of objects: keys in the order first seen, nested values as JSON', async () => {
    const items = [
      { titlerole: 'Nurse', noofopenings: '2' },
      { noofopenings: 1, clientinternalreq: 'J-2', skills: ['a', 'b'], owner: { id: 'mreyes' } },
      { titlerole: null, active: true },
    ];
    const read = await readSheets('tray.json', utf8(JSON.stringify(items)));
    expect(read).toEqual({
      format: 'JSON',
      sheets: [
        {
          name: 'Items',
          rows: [
            ['titlerole', 'noofopenings', 'clientinternalreq', 'skills', 'owner', 'active'],
            ['Nurse', '2', '', '', '', ''],
            ['', '1', 'J-2', '["a","b"]', '{"id":"mreyes"}', ''],
            ['', '', '', '', '', 'Y'],
          ],
        },
      ],
    });
  });

  it('reads { "items": [...] } alike', async () => {
    const read = await readSheets(
      'batch.JSON',
      utf8('{"items":[{"candemail":"ada@vendor.example","requirementid":"40001"}]}'),
    );
    expect(read.sheets).toEqual([
      {
        name: 'Items',
        rows: [
          ['candemail', 'requirementid'],
          ['ada@vendor.example', '40001'],
        ],
      },
    ]);
  });

  it('refuses JSON that holds no list of objects, saying what the import reads', async () => {
    for (const text of ['{"titlerole":"Nurse"}', '[1, 2]', '{"items":"none"}', '"text"']) {
      const error = await refusal('items.json', utf8(text));
      expect(error).toBeInstanceOf(UnreadableFile);
      expect(error.message).toBe(
        "items.json holds no list of items: the import reads a JSON array of objects, such as the batch tray's JSON.",
      );
    }
    const broken = await refusal('items.json', utf8('[{"titlerole": "Nurse",]'));
    expect(broken).toBeInstanceOf(UnreadableFile);
    expect(broken.message).toMatch(/^items\.json is not valid JSON \(/);
  });
});

describe('XLSX', () => {
  const workbook = async () =>
    new Uint8Array(
      await writeXlsxFile([
        {
          sheet: 'Requisitions',
          data: [
            ['Job title', 'Number of openings', 'Start date', 'Hours per day', 'Remote'],
            [
              'Staff nurse',
              2,
              { value: new Date(Date.UTC(2027, 0, 11)), format: 'yyyy-mm-dd' },
              7.5,
              true,
            ],
            ['Porter', 1, null, 8, false],
          ],
        },
        { sheet: 'Notes', data: [['Read me'], ['Sent by the client on Monday']] },
      ]).toBuffer(),
    );

  it('reads every sheet by name, dates as YYYY-MM-DD and numbers as text', async () => {
    const read = await readSheets('requisitions.xlsx', await workbook());
    expect(read).toEqual({
      format: 'XLSX',
      sheets: [
        {
          name: 'Requisitions',
          rows: [
            ['Job title', 'Number of openings', 'Start date', 'Hours per day', 'Remote'],
            ['Staff nurse', '2', '2027-01-11', '7.5', 'Y'],
            ['Porter', '1', '', '8', 'N'],
          ],
        },
        { name: 'Notes', rows: [['Read me'], ['Sent by the client on Monday']] },
      ],
    });
  });

  it('knows a workbook by its bytes, whatever its name', async () => {
    for (const name of ['download.csv', 'misnamed.xls']) {
      const read = await readSheets(name, await workbook());
      expect(read.format).toBe('XLSX');
      expect(read.sheets.map((sheet) => sheet.name)).toEqual(['Requisitions', 'Notes']);
    }
  });

  it('refuses an .xlsx name whose bytes are not a workbook, saying how to save one', async () => {
    const error = await refusal('requisitions.xlsx', utf8('Job title\nNurse\n'));
    expect(error).toBeInstanceOf(UnreadableFile);
    expect(error.message).toBe(
      'requisitions.xlsx is not an Excel workbook (.xlsx). Save it from Excel as “Excel Workbook” or as CSV and choose it again.',
    );
  });

  it('refuses a damaged workbook (a zip signature, then nothing readable)', async () => {
    const bytes = new Uint8Array([0x50, 0x4b, 0x03, 0x04, ...utf8('not really a zip file')]);
    const error = await refusal('damaged.xlsx', bytes);
    expect(error).toBeInstanceOf(UnreadableFile);
    expect(error.message).toMatch(/^damaged\.xlsx could not be read as an Excel workbook \(/);
    expect(error.message).toMatch(/save it again as \.xlsx or CSV, and choose it again\.$/);
  });

  it('refuses an Excel 97–2003 .xls file, saying to save it as .xlsx or CSV', async () => {
    // An .xls file starts with the OLE compound-file signature, not a zip's.
    const bytes = new Uint8Array([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1, 0, 0, 0, 0]);
    const error = await refusal('Old export.XLS', bytes);
    expect(error).toBeInstanceOf(UnreadableFile);
    expect(error.message).toBe(
      'Old export.XLS is an old Excel 97–2003 workbook, which the import does not read. Save it from Excel as .xlsx or CSV and choose it again.',
    );
  });
});
