import type { DateFormat, FieldDef } from './catalog-types';
import { formatWireDate, parseWireDate } from './dates';
import type { MappedColumn } from './sheet-headers';

/**
 * A sheet's cells read for the wire: its body under the header, date cells in the forms people
 * type them, and the columns written with a decimal comma (part of spreadsheet.ts's reading).
 */

/** A sheet's header and its data rows, each with the row number the spreadsheet shows. */
export interface SheetBody<Row extends readonly string[] = string[]> {
  header: Row;
  rows: Row[];
  /** Per row, its number in the sheet (the header's is usually 1): blank rows keep theirs. */
  rowNumbers: number[];
}

const isBlankRow = (row: readonly string[]) => row.every((cell) => cell.trim() === '');

/**
 * A sheet as read (every row, blank ones included) → the header (its first row with anything
 * in it) and the rows under it, blank rows left out (the same arrays, not copies: a sheet may
 * have 100,000 rows). Each row keeps the number the spreadsheet shows it at, so a problem in what
 * Excel calls row 6 is reported as row 6 even when a blank line (or `;;;;;;`, as Excel writes an
 * empty row of a semicolon CSV) comes before it. Null when there is no header with rows under it.
 */
export function sheetBody<Row extends readonly string[]>(
  data: readonly Row[],
): SheetBody<Row> | null {
  const headerAt = data.findIndex((row) => !isBlankRow(row));
  const header = data[headerAt];
  if (headerAt < 0 || !header) return null;
  const rows: Row[] = [];
  const rowNumbers: number[] = [];
  for (let at = headerAt + 1; at < data.length; at += 1) {
    const row = data[at];
    if (!row || isBlankRow(row)) continue;
    rows.push(row);
    rowNumbers.push(at + 1);
  }
  return rows.length === 0 ? null : { header, rows, rowNumbers };
}

/** A date cell read for the wire: the value to send, or why it cannot be read. */
export type DateCell = { ok: true; value: string } | { ok: false; message: string };

/** Spreadsheet serial day 1 is 1900-01-01; the 1900 leap-year bug makes 60 a day that never was. */
function fromSerial(serial: number): string | null {
  if (!Number.isInteger(serial) || serial < 1 || serial > 2958465 || serial === 60) return null;
  const days = serial > 60 ? serial - 1 : serial;
  const date = new Date(Date.UTC(1899, 11, 31) + days * 86_400_000);
  return date.toISOString().slice(0, 10);
}

/** Which way round a column writes its slashed dates, when its cells prove it. */
export type DateOrder = 'month-first' | 'day-first';

/**
 * How a column's cells are read, when the file proves it: the order of a date column's slashed
 * dates, or a decimal column written with a decimal comma (`7,5`).
 */
export type CellReading = DateOrder | 'decimal-comma';

const slashed = /^(\d{1,2})\/(\d{1,2})\/(\d{4})$/;

/**
 * A date cell as people type it: `2026-03-31`, `3/31/2026` (month first, as the spec's
 * MM/DD/YYYY), or a spreadsheet's serial number (46112). A date that reads either way
 * (`03/04/2026`) is read the way `order` says, when the column's other dates prove it (see
 * dateOrders) or the user said so; otherwise it is reported rather than guessed, as are a
 * day-first date in a column not known to be day first, and a two-digit year. The value is sent
 * in `dateFormat`; a blank cell stays blank.
 */
export function readDateCell(
  cell: string,
  dateFormat: DateFormat,
  order: DateOrder | null = null,
): DateCell {
  const value = cell.trim();
  if (value === '') return { ok: true, value: '' };
  // Most cells are YYYY-MM-DD: read once, before the other forms are tried.
  let iso = parseWireDate(value, 'YYYY-MM-DD');
  if (iso === null) {
    const slash = slashed.exec(value);
    if (slash) {
      const [, first = '', second = '', year = ''] = slash;
      const isoOf = (month: string, day: string) =>
        `${year}-${month.padStart(2, '0')}-${day.padStart(2, '0')}`;
      const either = Number(first) <= 12 && Number(second) <= 12;
      // 03/04/2027 is 4 March in the US and 3 April in most of the world: asked, never guessed.
      if (either && order === null && Number(first) !== Number(second))
        return {
          ok: false,
          message: `“${value}” could be read month first or day first; write it as YYYY-MM-DD (${isoOf(first, second)} or ${isoOf(second, first)})`,
        };
      iso = parseWireDate(
        order === 'day-first' ? isoOf(second, first) : isoOf(first, second),
        'YYYY-MM-DD',
      );
    } else if (/^\d{1,7}$/.test(value)) iso = fromSerial(Number(value));
  }
  if (iso !== null) return { ok: true, value: formatWireDate(iso, dateFormat) };
  const twoDigitYear = /^\d{1,2}[/.-]\d{1,2}[/.-]\d{2}$/.test(value);
  const dayFirst = /^(\d{1,2})[/.](\d{1,2})[/.]\d{4}$/.exec(value);
  return {
    ok: false,
    message: twoDigitYear
      ? `“${value}” has a two-digit year; write the date as YYYY-MM-DD, e.g. 2026-03-31`
      : dayFirst && Number(dayFirst[1]) > 12
        ? `“${value}” reads as day first, which this import does not guess; write it as YYYY-MM-DD or MM/DD/YYYY`
        : `“${value}” is not a date; write it as YYYY-MM-DD or MM/DD/YYYY, e.g. 2026-03-31`,
  };
}

/**
 * The order each date column's cells prove: a column with `5/14/2027` (no 14th month) is month
 * first, one with `14/5/2027` day first; one with both, or neither, proves nothing. `chosen` (the
 * user's word for the whole file) wins over what the cells prove.
 */
export function dateOrders(
  rows: readonly (readonly string[])[],
  columns: readonly MappedColumn[],
  catalog: readonly FieldDef[],
  chosen: DateOrder | null = null,
): Map<string, DateOrder> {
  const dates = new Set(catalog.filter((def) => def.type === 'DATE').map((def) => def.key));
  const orders = new Map<string, DateOrder>();
  for (const column of columns) {
    if (column.key === null || !dates.has(column.key)) continue;
    if (chosen) {
      orders.set(column.key, chosen);
      continue;
    }
    let monthFirst = false;
    let dayFirst = false;
    for (const row of rows) {
      const cell = row[column.column] ?? '';
      if (!cell.includes('/')) continue;
      const slash = slashed.exec(cell.trim());
      if (!slash) continue;
      if (Number(slash[2]) > 12 && Number(slash[1]) <= 12) monthFirst = true;
      if (Number(slash[1]) > 12 && Number(slash[2]) <= 12) dayFirst = true;
      if (monthFirst && dayFirst) break;
    }
    if (monthFirst !== dayFirst) orders.set(column.key, monthFirst ? 'month-first' : 'day-first');
  }
  return orders;
}

/** `7,5`, `-12,25`, `0,1234`: a comma that cannot be a thousands separator (not 3 digits after). */
const provesDecimalComma = /^-?\d+,(?:\d{1,2}|\d{4,})$/;

/** `7.5`: a decimal point, which a decimal-comma column never has. */
const decimalPoint = /^-?\d+\.\d+$/;

/** A number written with a decimal comma, its thousands grouped by points or not: `1.234,5`. */
const commaNumber = /^-?(?:\d{1,3}(?:\.\d{3})+|\d+),\d+$/;

/**
 * The decimal columns whose cells prove a decimal comma: one cell such as `7,5` (a comma no
 * thousands separator would make) and no cell with a decimal point. `1,500` alone proves nothing.
 */
export function decimalCommaColumns(
  rows: readonly (readonly string[])[],
  columns: readonly MappedColumn[],
  catalog: readonly FieldDef[],
): Set<string> {
  const decimals = new Set(catalog.filter((def) => def.type === 'DECIMAL').map((def) => def.key));
  const found = new Set<string>();
  for (const column of columns) {
    if (column.key === null || !decimals.has(column.key)) continue;
    let comma = false;
    let point = false;
    for (const row of rows) {
      const cell = (row[column.column] ?? '').trim();
      if (provesDecimalComma.test(cell)) comma = true;
      else if (decimalPoint.test(cell)) {
        point = true;
        break;
      }
    }
    if (comma && !point) found.add(column.key);
  }
  return found;
}

/** A cell of a decimal-comma column as the wire writes it: `7,5` → `7.5`, `1.234,5` → `1234.5`. */
export function readDecimalCommaCell(cell: string): string {
  return commaNumber.test(cell) ? cell.replaceAll('.', '').replace(',', '.') : cell;
}

/**
 * How each mapped column's cells are read, as the file proves it: the date columns' orders
 * (dateOrders, `chosen` winning) and the decimal columns written with a decimal comma.
 */
export function columnReadings(
  rows: readonly (readonly string[])[],
  columns: readonly MappedColumn[],
  catalog: readonly FieldDef[],
  chosen: DateOrder | null = null,
): Map<string, CellReading> {
  const readings = new Map<string, CellReading>(dateOrders(rows, columns, catalog, chosen));
  for (const key of decimalCommaColumns(rows, columns, catalog)) readings.set(key, 'decimal-comma');
  return readings;
}
