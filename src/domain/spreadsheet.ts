import type { RequisitionContext } from './candidate-wire';
import type { DateFormat, FieldDef } from './catalog-types';
import { formatWireDate, parseWireDate } from './dates';
import { payloadKindOf, type PayloadKind } from './payload-kind';

/**
 * Spreadsheet rows (CSV, TSV, XLSX, JSON, pasted cells) → wire items, with the same rules
 * everywhere they are read (the validator's CLI and the import page's worker): bytes decoded,
 * headers matched to catalog fields, date cells read in the forms people type them, and rows that
 * repeat a reference flagged.
 */

/**
 * A text file's bytes: UTF-16 when they start with its byte-order mark (Excel's "Unicode Text"),
 * UTF-8 when they are UTF-8 (a byte-order mark dropped), else Windows-1252, which is what Excel
 * on Windows saves as "CSV".
 */
export function decodeSheet(bytes: Uint8Array): {
  text: string;
  encoding: 'UTF-8' | 'UTF-16' | 'Windows-1252';
} {
  const utf16 =
    bytes[0] === 0xff && bytes[1] === 0xfe
      ? 'utf-16le'
      : bytes[0] === 0xfe && bytes[1] === 0xff
        ? 'utf-16be'
        : null;
  if (utf16) return { text: new TextDecoder(utf16).decode(bytes), encoding: 'UTF-16' };
  try {
    const text = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }).decode(bytes);
    return { text, encoding: 'UTF-8' };
  } catch {
    return { text: new TextDecoder('windows-1252').decode(bytes), encoding: 'Windows-1252' };
  }
}

/** A cell of an XLSX sheet as text: dates as YYYY-MM-DD, numbers as written, blanks as ''. */
export function cellText(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (value instanceof Date)
    return Number.isNaN(value.getTime()) ? '' : value.toISOString().slice(0, 10);
  if (typeof value === 'boolean') return value ? 'Y' : 'N';
  return String(value);
}

/**
 * A JSON file's items as a sheet: an array of objects (or `{ "items": [...] }`), the header the
 * keys in the order first seen. Null when the JSON holds no such array.
 */
export function jsonSheet(value: unknown): string[][] | null {
  const items = Array.isArray(value)
    ? value
    : value !== null &&
        typeof value === 'object' &&
        Array.isArray((value as { items?: unknown }).items)
      ? (value as { items: unknown[] }).items
      : null;
  if (
    !items ||
    !items.every((item) => item !== null && typeof item === 'object' && !Array.isArray(item))
  )
    return null;
  const headers: string[] = [];
  const seen = new Set<string>();
  for (const item of items as Record<string, unknown>[])
    for (const key of Object.keys(item))
      if (!seen.has(key)) {
        seen.add(key);
        headers.push(key);
      }
  return [
    headers,
    ...(items as Record<string, unknown>[]).map((item) =>
      headers.map((key) => {
        const cell = item[key];
        return cell !== null && typeof cell === 'object' ? JSON.stringify(cell) : cellText(cell);
      }),
    ),
  ];
}

/** The catalog of a payload kind's fields. */
export const catalogOf = (kind: PayloadKind): readonly FieldDef[] => payloadKindOf(kind).catalog;

/** `Job title`, `job_title`, `JobTitle` → `jobtitle`: case, spaces and punctuation ignored. */
export function normalizeHeader(header: string): string {
  return header
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]/g, '');
}

/** How a header was matched, for the user to see (and correct). */
/** 'mapping': chosen in a saved template or by the user, not matched. */
export type HeaderMatch = 'wire name' | 'label' | 'alias' | 'mapping';

export interface MappedColumn {
  /** The column's position in the file (0-based). */
  column: number;
  header: string;
  /** The wire key it fills; null when the header names no field, or one already taken. */
  key: string | null;
  match: HeaderMatch | null;
  /** Why a header is not used, when it is not. */
  note?: string;
}

/**
 * Other names people give fields in their sheets, by wire key. Small on purpose: a header the
 * catalog does not know is offered to the user to map by hand, never guessed.
 */
export const headerAliases: Readonly<Record<string, readonly string[]>> = {
  titlerole: ['title', 'jobtitle', 'position', 'role'],
  clientinternalreq: ['reqnumber', 'requisitionnumber', 'clientreq', 'reference'],
  noofopenings: ['openings', 'numberofopenings', 'positions', 'headcount'],
  candemail: ['email', 'emailaddress'],
  firstname: ['givenname'],
  lastname: ['surname', 'familyname'],
  requirementid: ['reqid', 'requisitionid'],
};

/** What a row of each group is called in a sheet: "Skill 3 response" answers skill 3. */
const rowNouns: Readonly<Record<string, string>> = {
  skills: 'skill',
  questions: 'question',
  skillResponses: 'skill',
  answers: 'question',
};

/**
 * Row fields also match by number in either place: `skill3description` for `skilldescription3`,
 * "Skill 3 response" and "Question 2 answer" for a candidate's response to skill 3 and answer 2.
 */
function numberedVariants(def: FieldDef): string[] {
  if (!def.row) return [];
  const { n, part, group } = def.row;
  const noun = rowNouns[group] ?? group.replace(/s$/, '');
  return [`${noun}${n}${part}`, `${part}${noun}${n}`];
}

/** The names each field answers to, normalized, most exact first. */
function namesOf(catalog: readonly FieldDef[]): Map<string, { key: string; match: HeaderMatch }> {
  const names = new Map<string, { key: string; match: HeaderMatch }>();
  const add = (name: string, key: string, match: HeaderMatch) => {
    const normalized = normalizeHeader(name);
    if (normalized !== '' && !names.has(normalized)) names.set(normalized, { key, match });
  };
  // The wire name first (its PascalCase form, as GET Requisitions spells it, normalizes alike).
  for (const def of catalog) add(def.key, def.key, 'wire name');
  for (const def of catalog) add(def.label, def.key, 'label');
  for (const def of catalog) for (const name of numberedVariants(def)) add(name, def.key, 'alias');
  for (const [key, aliases] of Object.entries(headerAliases)) {
    if (catalog.some((def) => def.key === key))
      for (const alias of aliases) add(alias, key, 'alias');
  }
  return names;
}

/**
 * Matches each header to a field: by wire name (`titlerole`, `TitleRole`), by label ("Job
 * title"), or by an alias or a row's number (`Skill 3 description`). `mapping` (a saved template,
 * header → wire key, '' to ignore) wins over matching. A field claimed by an earlier column is
 * not filled twice.
 */
export function mapHeaders(
  headers: readonly string[],
  catalog: readonly FieldDef[],
  mapping: Readonly<Record<string, string>> = {},
): MappedColumn[] {
  const names = namesOf(catalog);
  const known = new Set(catalog.map((def) => def.key));
  const taken = new Map<string, string>();
  return headers.map((header, column): MappedColumn => {
    const chosen = mapping[header];
    const found =
      chosen !== undefined
        ? chosen === ''
          ? null
          : known.has(chosen)
            ? { key: chosen, match: 'mapping' as const }
            : null
        : (names.get(normalizeHeader(header)) ?? null);
    if (!found) {
      return {
        column,
        header,
        key: null,
        match: null,
        note:
          chosen === ''
            ? 'ignored by the mapping'
            : chosen !== undefined
              ? `the mapping names ${chosen}, which is not a field`
              : 'names no field',
      };
    }
    const earlier = taken.get(found.key);
    if (earlier !== undefined) {
      return {
        column,
        header,
        key: null,
        match: null,
        note: `${found.key} is already filled from column “${earlier}”`,
      };
    }
    taken.set(found.key, header);
    return { column, header, key: found.key, match: found.match };
  });
}

const noOrders: ReadonlyMap<string, CellReading> = new Map();

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

export interface SheetItem {
  /** The wire object: every mapped field, trimmed; dates in the outbound format. */
  wire: Record<string, string>;
  /** Cells that could not be read (dates), by wire key. */
  cellProblems: ReadonlyMap<string, string>;
}

/**
 * Which cell fills which wire key, whether it holds a date, and for a choice the codes its words
 * stand for: worked out once per mapping.
 */
interface CellPlan {
  index: number;
  key: string;
  date: boolean;
  /** A choice's codes by their label and by themselves, in any case (`contract` → `1`); null for other fields. */
  choices: ReadonlyMap<string, string> | null;
  /** A date column's order, when its cells prove it or the user said (dateOrders). */
  order: DateOrder | null;
  /** A decimal column the file writes with a decimal comma (decimalCommaColumns). */
  decimalComma: boolean;
}

const choiceWord = (text: string) => text.trim().replace(/\s+/g, ' ').toLowerCase();

/** A choice field's codes by what people write for them: the label, or the code itself. */
function choicesOf(def: FieldDef): ReadonlyMap<string, string> | null {
  if (!def.options) return null;
  const choices = new Map<string, string>();
  for (const option of def.options) choices.set(choiceWord(option.label), option.value);
  // A code wins over another option's label that reads the same.
  for (const option of def.options) choices.set(choiceWord(option.value), option.value);
  return choices;
}

/**
 * A skill or question row's sequence number that no column gives: derived from the row's
 * position, as the form does, when any other part of that row is filled. A sheet headed like the
 * form ("Skill 1 description", "Skill 1 required/desired"…) has no "Skill 1" column of numbers.
 */
interface DerivedSequence {
  key: string;
  value: string;
  /** The row's other parts that a column fills. */
  parts: string[];
}

/** How a row is read: its mapped cells, then the sequence numbers derived from them. */
interface ReadPlan {
  cells: CellPlan[];
  sequences: DerivedSequence[];
}

const dateOrderOf = (reading: CellReading | undefined): DateOrder | null =>
  reading === 'month-first' || reading === 'day-first' ? reading : null;

function cellPlan(
  columns: readonly MappedColumn[],
  catalog: readonly FieldDef[],
  readings: ReadonlyMap<string, CellReading> = noOrders,
): ReadPlan {
  const defs = new Map(catalog.map((def) => [def.key, def]));
  const cells = columns.flatMap((column) => {
    const def = column.key === null ? undefined : defs.get(column.key);
    if (column.key === null) return [];
    return [
      {
        index: column.column,
        key: column.key,
        date: def?.type === 'DATE',
        choices: def ? choicesOf(def) : null,
        order: dateOrderOf(readings.get(column.key)),
        decimalComma: readings.get(column.key) === 'decimal-comma',
      },
    ];
  });
  const mapped = new Set(cells.map((cell) => cell.key));
  const sequences = catalog.flatMap((def): DerivedSequence[] => {
    const row = def.row;
    if (!row || row.part !== 'sequence' || mapped.has(def.key)) return [];
    const parts = catalog
      .filter(
        (other) =>
          other.row?.group === row.group &&
          other.row.n === row.n &&
          other.key !== def.key &&
          mapped.has(other.key),
      )
      .map((other) => other.key);
    return parts.length === 0 ? [] : [{ key: def.key, value: String(row.n), parts }];
  });
  return { cells, sequences };
}

/**
 * A choice cell as its code: written as the code, or as its label in any case (`Contract`,
 * `yes`, `High`), it is read as the code; a word that names no choice stays as written, for the
 * field's rule to report.
 */
export function readChoiceCell(cell: string, choices: ReadonlyMap<string, string>): string {
  // Most cells hold the code itself: found without normalising the text.
  return choices.get(cell) ?? choices.get(choiceWord(cell)) ?? cell;
}

/** A row's mapped cells written into `wire`, trimmed; the cells that could not be read, or null. */
function readCells(
  row: readonly string[],
  plan: ReadPlan,
  dateFormat: DateFormat,
  wire: Record<string, string>,
): Map<string, string> | null {
  let cellProblems: Map<string, string> | null = null;
  for (const { index, key, date, choices, order, decimalComma } of plan.cells) {
    const cell = (row[index] ?? '').trim();
    if (!date) {
      wire[key] =
        choices === null || cell === ''
          ? decimalComma
            ? readDecimalCommaCell(cell)
            : cell
          : readChoiceCell(cell, choices);
      continue;
    }
    const read = readDateCell(cell, dateFormat, order);
    if (read.ok) wire[key] = read.value;
    else {
      wire[key] = cell;
      (cellProblems ??= new Map()).set(key, read.message);
    }
  }
  for (const { key, value, parts } of plan.sequences) {
    wire[key] = parts.some((part) => (wire[part] ?? '') !== '') ? value : '';
  }
  return cellProblems;
}

/**
 * Reads rows through the mapped columns: which columns hold dates is worked out once, so a
 * 100,000-row file pays for it once, not per row.
 */
export function rowReader(
  columns: readonly MappedColumn[],
  catalog: readonly FieldDef[],
  dateFormat: DateFormat,
  defaults: Readonly<Record<string, string>> = {},
  readings: ReadonlyMap<string, CellReading> = noOrders,
): (row: readonly string[]) => SheetItem {
  const plan = cellPlan(columns, catalog, readings);
  const defaultEntries = Object.entries(defaults);
  return (row) => {
    const wire: Record<string, string> = {};
    for (const [key, value] of defaultEntries) wire[key] = value;
    const cellProblems = readCells(row, plan, dateFormat, wire);
    return { wire, cellProblems: cellProblems ?? noCellProblems };
  };
}

const noCellProblems: ReadonlyMap<string, string> = new Map();

/** One row of cells → a wire item, through the mapped columns. */
export function rowToItem(
  row: readonly string[],
  columns: readonly MappedColumn[],
  catalog: readonly FieldDef[],
  dateFormat: DateFormat,
): SheetItem {
  return rowReader(columns, catalog, dateFormat)(row);
}

/**
 * Items that repeat an earlier one's identity (`identity` returns '' for items that have none):
 * each repeat with the index of the first. The tray (two Inserts with one client internal req)
 * and the import (a file's rows) both use it.
 */
export function repeatedItems<T>(
  items: readonly T[],
  identity: (item: T) => string,
): Map<number, { first: number; identity: string }> {
  const firstIndex = new Map<string, number>();
  const repeats = new Map<number, { first: number; identity: string }>();
  items.forEach((item, index) => {
    const id = identity(item);
    if (id === '') return;
    const first = firstIndex.get(id);
    if (first === undefined) firstIndex.set(id, index);
    else repeats.set(index, { first, identity: id });
  });
  return repeats;
}

/** A sheet's rows checked: where each problem is, as a spreadsheet user finds it. */
export interface SheetIssue {
  /** The wire key; '' for the row as a whole. */
  field: string;
  /** The header of its column; '' when the field has no column (a required one missing). */
  column: string;
  message: string;
}

export interface SheetRowReport {
  /** The spreadsheet's row number: the header is row 1, the first item row 2. */
  row: number;
  valid: boolean;
  errors: SheetIssue[];
}

export interface SheetReport {
  valid: boolean;
  /** How each column was read, so a wrong guess is seen. */
  columns: MappedColumn[];
  rows: SheetRowReport[];
}

/** What a candidate row is checked against: its requisition's skills and questions, and why it takes no candidates ('' when it does). */
export interface SheetRequisition {
  shape: RequisitionContext;
  notSubmittable: string;
}

/** One row read and checked on its own (a repeat of another row is found across rows). */
export interface RowCheck {
  /** What is sent for the row: its mapped cells over the sheet's defaults. */
  wire: Record<string, string>;
  /** Its problems by the domain's rules, cells that could not be read first. */
  errors: SheetIssue[];
  /** `identityKey` of the row: '' when it has none. */
  identity: string;
}

/** One row's problems and identity, as a whole file's check keeps them for every row. */
export interface RowProblems {
  errors: SheetIssue[];
  /**
   * sheetIdentity's value ('' when none; the field is the kind's identity field): for a requisition the
   * cell as read, so keeping it for every row of a file keeps no new string (identityKeyOf
   * makes the key).
   */
  identityValue: string;
}

export interface RowChecker {
  /** One row: its wire item (a new object), its problems, its identity. */
  (row: readonly string[]): RowCheck;
  /**
   * The same problems and identity without a wire item to keep: each row's cells are written
   * over the last row's in one item, checked by the same rules. For checking a whole file.
   */
  problems(row: readonly string[]): RowProblems;
}

/**
 * Checks rows one at a time through `columns`, by the domain's rules for `kind` (the same as the
 * forms, the tray and the proxy): the CLI checks a whole file with it, the import page's worker
 * a whole file once and then each row the user edits.
 */
export function sheetRowChecker(
  kind: PayloadKind,
  columns: readonly MappedColumn[],
  options: {
    dateFormat: DateFormat;
    org?: string | undefined;
    /**
     * The client org's requisitions by Req ID, when known (the browser's copy of the list):
     * a candidate row is then checked against its requisition's skills and questions, as the
     * form is, and one for a requisition that is not there or takes no candidates is flagged.
     */
    requisitions?: ReadonlyMap<string, SheetRequisition> | undefined;
    /**
     * How each column's cells read (columnReadings): a date column's dates that read either way
     * are read in its order; a decimal-comma column's `7,5` is 7.5.
     */
    readings?: ReadonlyMap<string, CellReading> | undefined;
  },
): RowChecker {
  const descriptor = payloadKindOf(kind);
  const catalog = descriptor.catalog;
  const defaults = sheetDefaults(kind, columns, options.org);
  const columnOf = new Map(
    columns.flatMap((column) => (column.key === null ? [] : [[column.key, column.header]])),
  );
  const requisitionField = descriptor.sheet.requisitionField;
  const requisitions = requisitionField !== null ? options.requisitions : undefined;
  const read = rowReader(columns, catalog, options.dateFormat, defaults, options.readings);
  const plan = cellPlan(columns, catalog, options.readings);
  const context = { dateFormat: options.dateFormat };

  const checkItem = (
    wire: Readonly<Record<string, string>>,
    cellProblems: ReadonlyMap<string, string> | null,
  ): RowProblems => {
    const reqId = requisitions && requisitionField ? (wire[requisitionField] ?? '').trim() : '';
    const requisition = reqId !== '' ? requisitions?.get(reqId) : undefined;
    const issues = descriptor.itemIssues(
      wire,
      requisition ? { ...context, requisition: requisition.shape } : context,
    );
    const value = descriptor.identity.of(wire);
    const mayBeWrong = requisitions !== undefined && reqId !== '' && /^\d+$/.test(reqId);
    // Most rows are right: no list of problems is made for them.
    if ((cellProblems === null || cellProblems.size === 0) && issues.length === 0 && !mayBeWrong)
      return { errors: [], identityValue: value };
    const errors: SheetIssue[] = [];
    const seen = new Set<string>();
    const add = (field: string, message: string) => {
      if (seen.has(field)) return;
      seen.add(field);
      errors.push({ field, column: columnOf.get(field) ?? '', message });
    };
    if (cellProblems) for (const [field, message] of cellProblems) add(field, message);
    if (mayBeWrong && requisitionField) {
      if (!requisition)
        add(
          requisitionField,
          `This client org has no requisition ${reqId} in the list; check the Req ID (or refresh the requisition list if it is new).`,
        );
      else if (requisition.notSubmittable !== '')
        add(
          requisitionField,
          `Requisition ${reqId} takes no candidates now: ${requisition.notSubmittable}.`,
        );
    }
    for (const issue of issues) add(issue.field, issue.message);
    return { errors, identityValue: value };
  };

  // The item every row of a file is read into: the sheet's defaults, then the mapped keys, in the
  // order a new item has them. Without a prototype, the rules' look-ups of the catalog's keys a
  // row does not have (most of them) end at the item instead of going on to Object.prototype:
  // about a fifth of the rules' time on a 100,000-row file.
  const scratch: Record<string, string> = Object.create(null);
  Object.assign(scratch, defaults);
  for (const { key } of [...plan.cells, ...plan.sequences]) scratch[key] = '';

  const check = (row: readonly string[]): RowCheck => {
    const { wire, cellProblems } = read(row);
    const { errors, identityValue: value } = checkItem(wire, cellProblems);
    return { wire, errors, identity: identityKeyOf(kind, value) };
  };
  return Object.assign(check, {
    problems: (row: readonly string[]) =>
      checkItem(scratch, readCells(row, plan, options.dateFormat, scratch)),
  });
}

/** The message on a row that repeats an earlier one's identity (`identity` as identityKey). */
export function repeatMessage(
  firstRowNumber: number,
  identity: string,
): {
  field: string;
  message: string;
} {
  const [field = '', value = ''] = identity.split('\u0000');
  return {
    field,
    message: `Row ${firstRowNumber} already has “${value}”, which may be sent once; remove or change one of them.`,
  };
}

/** A row's errors with the repeat of an earlier row's identity standing for its cell's. */
export function withRepeat(
  errors: readonly SheetIssue[],
  firstRowNumber: number,
  identity: string,
  columnOf: ReadonlyMap<string, string>,
): SheetIssue[] {
  const { field, message } = repeatMessage(firstRowNumber, identity);
  return [
    { field, column: columnOf.get(field) ?? '', message },
    ...errors.filter((error) => error.field !== field),
  ];
}

/**
 * The rows of a sheet checked by the domain's rules for `kind`, after their cells were read
 * through the mapped columns; a row repeating an earlier row's identity (the client internal req
 * of an Insert, the e-mail and requisition of a candidate) is flagged on its identity field.
 */
export function checkSheet(
  kind: PayloadKind,
  rows: readonly (readonly string[])[],
  columns: readonly MappedColumn[],
  options: {
    dateFormat: DateFormat;
    org?: string | undefined;
    /** Each row's number in the sheet (sheetBody); the row's position + 2 without them. */
    rowNumbers?: readonly number[] | undefined;
    /** The order the user says the file writes its dates in; otherwise what its columns prove. */
    dateOrder?: DateOrder | null | undefined;
  },
): SheetReport {
  const readings = columnReadings(rows, columns, catalogOf(kind), options.dateOrder ?? null);
  const check = sheetRowChecker(kind, columns, { ...options, readings });
  const numberOf = (index: number) => options.rowNumbers?.[index] ?? index + 2;
  const checked = rows.map(check);
  const columnOf = new Map(
    columns.flatMap((column) => (column.key === null ? [] : [[column.key, column.header]])),
  );
  const repeats = repeatedItems(checked, (row) => row.identity);
  const reports = checked.map((row, index): SheetRowReport => {
    const repeat = repeats.get(index);
    // A repeat is what the user must settle first on its cell: it stands for that cell.
    const errors = repeat
      ? withRepeat(row.errors, numberOf(repeat.first), repeat.identity, columnOf)
      : row.errors;
    return { row: numberOf(index), valid: errors.length === 0, errors };
  });
  return { valid: reports.every((report) => report.valid), columns: [...columns], rows: reports };
}

/**
 * What a row may be sent once as, or null when it has none: a new requisition's client internal
 * req (unique within the client org), a candidate's e-mail for one requisition. The tray, the
 * import and the CLI flag a second row with the same identity.
 */
export function sheetIdentity(
  kind: PayloadKind,
  item: Readonly<Record<string, string>>,
): { field: string; value: string } | null {
  const identity = payloadKindOf(kind).identity;
  const value = identity.of(item);
  return value !== '' ? { field: identity.field, value } : null;
}

/** The identity as one string ('' for none), for sets and maps. */
export function identityKey(kind: PayloadKind, item: Readonly<Record<string, string>>): string {
  return identityKeyOf(kind, payloadKindOf(kind).identity.of(item));
}

/** identityKey from sheetIdentity's value ('' for none). */
export function identityKeyOf(kind: PayloadKind, value: string): string {
  return value !== '' ? `${payloadKindOf(kind).identity.field}\u0000${value}` : '';
}

/** sheetIdentity's value from an identityKey of `kind`; null for another kind's key, or none. */
export function identityValueOf(kind: PayloadKind, key: string): string | null {
  const prefix = `${payloadKindOf(kind).identity.field}\u0000`;
  return key.startsWith(prefix) && key.length > prefix.length ? key.slice(prefix.length) : null;
}

/**
 * Values a sheet's rows take when it has no column for them: a sheet of requisitions without a
 * request type column is a sheet of new ones; rows without an Org ID column are for the client
 * org chosen (the page's, the CLI's --org).
 */
export function sheetDefaults(
  kind: PayloadKind,
  columns: readonly MappedColumn[],
  org: string | undefined,
): Record<string, string> {
  const { defaults, orgField } = payloadKindOf(kind).sheet;
  const has = (key: string) => columns.some((column) => column.key === key);
  return {
    ...Object.fromEntries(Object.entries(defaults).filter(([key]) => !has(key))),
    ...(orgField === null || has(orgField) || org === undefined ? {} : { [orgField]: org }),
  };
}

/** A named mapping of a file's headers to wire keys ('' ignores a column), saved for reuse. */
export interface MappingTemplate {
  name: string;
  mapping: Record<string, string>;
  /** How the files it maps write their dates, when the user said so. */
  dateOrder?: DateOrder | undefined;
}

/**
 * The saved template that fits a file: every header it names is in the file, and of those that
 * fit, the one naming the most headers. Null when none fits.
 */
export function chooseTemplate<T extends MappingTemplate>(
  headers: readonly string[],
  templates: readonly T[],
): T | null {
  const present = new Set(headers);
  let best: T | null = null;
  let bestSize = 0;
  for (const template of templates) {
    const named = Object.keys(template.mapping);
    if (named.length > bestSize && named.every((header) => present.has(header))) {
      best = template;
      bestSize = named.length;
    }
  }
  return best;
}
