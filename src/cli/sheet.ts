/**
 * Sheets for the validator, read as the import page reads them. CSV or TSV: bytes decoded as
 * UTF-8 (a byte-order mark dropped) or, when they are not valid UTF-8, as Windows-1252 (what
 * Excel on Windows saves as "CSV"), and Papa Parse finds the delimiter. XLSX: read-excel-file,
 * the first sheet unless one is named. Headers and cells then go through the domain's spreadsheet
 * rules.
 */
import { readFileSync } from 'node:fs';
import Papa from 'papaparse';
import readXlsxFile from 'read-excel-file/node';
import { z } from 'zod';
import type { DateFormat, DateOrder, PayloadKind, SheetReport } from '@/domain';
import { catalogOf, cellText, checkSheet, decodeSheet, mapHeaders, sheetBody } from '@/domain';
import { cannotRead, UsageError } from './usage-error';

const mappingSchema = z.record(z.string(), z.string());

function readMapping(path: string | undefined): Record<string, string> {
  if (path === undefined) return {};
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw new UsageError(`cannot read the mapping ${path}: ${(error as Error).message}`);
  }
  try {
    return mappingSchema.parse(JSON.parse(text));
  } catch {
    throw new UsageError(
      `the mapping ${path} must be a JSON object from header to wire name, such as {"Our ref": "clientinternalreq", "Notes": ""}`,
    );
  }
}

interface SheetOptions {
  dateFormat: DateFormat;
  mapping: string | undefined;
  org?: string | undefined;
  /** How the sheet writes its dates, when the user says so. */
  dateOrder?: DateOrder | undefined;
}

function readBytes(file: string): Uint8Array {
  try {
    return readFileSync(file);
  } catch (error) {
    throw cannotRead(file, error);
  }
}

/** A CSV or TSV file's rows, the header first. */
export function checkSheetFile(
  kind: PayloadKind,
  file: string,
  options: SheetOptions,
): SheetReport {
  const { text } = decodeSheet(readBytes(file));
  // Blank rows are kept here so sheetBody can leave them out without renumbering the rest.
  const parsed = Papa.parse<string[]>(text, { skipEmptyLines: false });
  return checkRows(kind, file, parsed.data, options);
}

/** An XLSX file's first sheet (or the one named), the header first. */
export async function checkXlsxFile(
  kind: PayloadKind,
  file: string,
  options: SheetOptions & { sheet?: string | undefined },
): Promise<SheetReport> {
  const bytes = readBytes(file);
  let sheets: Awaited<ReturnType<typeof readXlsxFile>>;
  try {
    sheets = await readXlsxFile(Buffer.from(bytes));
  } catch (error) {
    throw new UsageError(
      `${file} is not an XLSX workbook Excel can open: ${(error as Error).message}`,
    );
  }
  const chosen =
    options.sheet === undefined ? sheets[0] : sheets.find((entry) => entry.sheet === options.sheet);
  if (!chosen)
    throw new UsageError(
      `${file} has no sheet “${options.sheet ?? ''}”; its sheets are ${sheets.map((entry) => `“${entry.sheet}”`).join(', ')}`,
    );
  const rows = chosen.data.map((row) => row.map(cellText));
  return checkRows(kind, file, rows, options);
}

function checkRows(
  kind: PayloadKind,
  file: string,
  data: readonly (readonly string[])[],
  { dateFormat, mapping, org, dateOrder }: SheetOptions,
): SheetReport {
  const body = sheetBody(data);
  if (!body)
    throw new UsageError(`${file} has no rows under a header row; put the field names in row 1`);
  const { header: headers, rows, rowNumbers } = body;
  const columns = mapHeaders(headers, catalogOf(kind), readMapping(mapping));
  if (columns.every((column) => column.key === null))
    throw new UsageError(
      `${file}: no header names a ${kind} field (row 1 reads ${headers.slice(0, 5).join(', ')}…); name the columns by label or wire name, or give --mapping`,
    );
  return checkSheet(kind, rows, columns, { dateFormat, org, rowNumbers, dateOrder });
}
