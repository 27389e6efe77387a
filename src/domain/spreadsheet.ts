import type { DateFormat, FieldDef } from './catalog-types';
import { payloadKindOf, type PayloadKind } from './payload-kind';
import type { DateOrder, CellReading } from './sheet-cells';
import { readDateCell, readDecimalCommaCell } from './sheet-cells';
import type { MappedColumn } from './sheet-headers';

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

const noOrders: ReadonlyMap<string, CellReading> = new Map();

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

export function cellPlan(
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
export function readCells(
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
