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
import type { DateFormat, PayloadKind, SheetReport } from '../domain';
import {
  candidateCatalog,
  checkSheet,
  itemProblems,
  mapHeaders,
  requisitionCatalog,
} from '../domain';
import { cannotRead, UsageError } from './usage-error';

/** UTF-8 when the bytes are UTF-8 (BOM or not), else Windows-1252. */
export function decodeSheet(bytes: Uint8Array): { text: string; encoding: string } {
  try {
    const text = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }).decode(bytes);
    return { text, encoding: 'UTF-8' };
  } catch {
    return { text: new TextDecoder('windows-1252').decode(bytes), encoding: 'Windows-1252' };
  }
}

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
  const parsed = Papa.parse<string[]>(text, { skipEmptyLines: 'greedy' });
  return checkRows(kind, file, parsed.data, options);
}

/** A cell of an XLSX sheet as text: dates as YYYY-MM-DD, numbers as written, blanks as ''. */
function cellText(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (value instanceof Date)
    return Number.isNaN(value.getTime()) ? '' : value.toISOString().slice(0, 10);
  if (typeof value === 'boolean') return value ? 'Y' : 'N';
  return String(value);
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
  { dateFormat, mapping, org }: SheetOptions,
): SheetReport {
  const [headers, ...rows] = data;
  if (!headers || rows.length === 0)
    throw new UsageError(`${file} has no rows under a header row; put the field names in row 1`);
  const catalog = kind === 'requisition' ? requisitionCatalog : candidateCatalog;
  const columns = mapHeaders(headers, catalog, readMapping(mapping));
  if (columns.every((column) => column.key === null))
    throw new UsageError(
      `${file}: no header names a ${kind} field (row 1 reads ${headers.slice(0, 5).join(', ')}…); name the columns by label or wire name, or give --mapping`,
    );
  // A sheet of requisitions without a request type column is a sheet of new ones; rows without
  // an Org ID column are for --org's client org.
  const requestTypeGiven = columns.some((column) => column.key === 'requesttype');
  const orgGiven = columns.some((column) => column.key === 'orgid');
  const defaults: Record<string, string> = {
    ...(kind === 'requisition' && !requestTypeGiven ? { requesttype: 'I' } : {}),
    ...(kind === 'requisition' && !orgGiven && org !== undefined ? { orgid: org } : {}),
  };
  return checkSheet(rows, columns, {
    catalog,
    dateFormat,
    validate: (item) => itemProblems(kind, { ...defaults, ...item }, { dateFormat }),
    identity: (item) =>
      kind === 'requisition'
        ? (item['requesttype'] ?? 'I') === 'I' && (item['clientinternalreq'] ?? '') !== ''
          ? { field: 'clientinternalreq', value: item['clientinternalreq'] ?? '' }
          : null
        : (item['candemail'] ?? '') !== ''
          ? {
              field: 'candemail',
              value: `${(item['candemail'] ?? '').toLowerCase()} to requisition ${item['requirementid'] ?? ''}`,
            }
          : null,
  });
}
