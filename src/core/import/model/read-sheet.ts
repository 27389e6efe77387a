import Papa from 'papaparse';
import { cellText, decodeSheet, jsonSheet } from '@/domain';

/**
 * A file (or pasted cells) read into sheets of text cells, the header row first, as the import's
 * worker and the tests read them. Delimited text: the bytes decoded as UTF-8 (with or without a
 * byte-order mark) or Windows-1252, and Papa Parse finds the delimiter. XLSX: read-excel-file's
 * worker build, loaded only when an XLSX file comes. JSON: an array of objects.
 */
export interface ReadSheets {
  /** How the file was read, for the user: "CSV, Windows-1252", "XLSX", "JSON"… */
  format: string;
  sheets: Array<{ name: string; rows: string[][] }>;
}

/** Something the user can act on: the file is not one the import can read. */
export class UnreadableFile extends Error {
  override name = 'UnreadableFile';
}

const isZip = (bytes: Uint8Array) =>
  bytes[0] === 0x50 && bytes[1] === 0x4b && bytes[2] === 0x03 && bytes[3] === 0x04;

/**
 * Delimited text (a file's or pasted cells) into rows, blank ones in the middle included: the
 * domain's sheetBody leaves them out without renumbering the rows after them. The delimiter is
 * guessed from the first rows that have something in them (a blank line would hide it).
 */
export function parseDelimited(text: string): { rows: string[][]; delimiter: string } {
  const { delimiter } = Papa.parse<string[]>(text, { preview: 20, skipEmptyLines: 'greedy' }).meta;
  const rows = Papa.parse<string[]>(text, { delimiter, skipEmptyLines: false }).data;
  // Blank rows at the end (the file's last line break) are nobody's row number.
  while (rows.length > 0 && (rows.at(-1) ?? []).every((cell) => cell.trim() === '')) rows.pop();
  return { rows, delimiter };
}

const delimiterNames: Record<string, string> = {
  ',': 'CSV',
  '\t': 'TSV',
  ';': 'semicolon-separated',
};

export async function readSheets(name: string, bytes: Uint8Array): Promise<ReadSheets> {
  const lower = name.toLowerCase();
  if (isZip(bytes) || lower.endsWith('.xlsx')) {
    if (!isZip(bytes))
      throw new UnreadableFile(
        `${name} is not an Excel workbook (.xlsx). Save it from Excel as “Excel Workbook” or as CSV and choose it again.`,
      );
    const { default: readXlsxFile } = await import('read-excel-file/web-worker');
    let sheets: Awaited<ReturnType<typeof readXlsxFile>>;
    try {
      sheets = await readXlsxFile(new Blob([bytes as Uint8Array<ArrayBuffer>]));
    } catch (error) {
      throw new UnreadableFile(
        `${name} could not be read as an Excel workbook (${error instanceof Error ? error.message : String(error)}). Open it in Excel, save it again as .xlsx or CSV, and choose it again.`,
      );
    }
    return {
      format: 'XLSX',
      sheets: sheets.map((sheet) => ({
        name: sheet.sheet,
        rows: sheet.data.map((row) => row.map(cellText)),
      })),
    };
  }
  if (lower.endsWith('.xls'))
    throw new UnreadableFile(
      `${name} is an old Excel 97–2003 workbook, which the import does not read. Save it from Excel as .xlsx or CSV and choose it again.`,
    );
  const { text, encoding } = decodeSheet(bytes);
  if (lower.endsWith('.json')) {
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (error) {
      throw new UnreadableFile(
        `${name} is not valid JSON (${error instanceof Error ? error.message : String(error)}). Save it again from the tool that made it, or import the sheet as CSV.`,
      );
    }
    const rows = jsonSheet(value);
    if (!rows)
      throw new UnreadableFile(
        `${name} holds no list of items: the import reads a JSON array of objects, such as the batch tray's JSON.`,
      );
    return { format: 'JSON', sheets: [{ name: 'Items', rows }] };
  }
  const { rows, delimiter } = parseDelimited(text);
  return {
    format: `${delimiterNames[delimiter] ?? 'Delimited text'}, ${encoding}`,
    sheets: [{ name: 'Sheet 1', rows }],
  };
}
