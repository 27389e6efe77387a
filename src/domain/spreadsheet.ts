import type { DateFormat, FieldDef } from './catalog-types';
import { formatWireDate, parseWireDate } from './dates';

/**
 * Spreadsheet rows (CSV, TSV, XLSX, pasted cells) → wire items, with the same rules everywhere
 * they are read (the validator's CLI now, the import page's worker next): headers matched to
 * catalog fields, date cells read in the forms people type them, and rows that repeat a
 * reference flagged.
 */

/** `Job title`, `job_title`, `JobTitle` → `jobtitle`: case, spaces and punctuation ignored. */
export function normalizeHeader(header: string): string {
  return header
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]/g, '');
}

/** How a header was matched, for the user to see (and correct). */
export type HeaderMatch = 'wire name' | 'label' | 'alias';

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

/** Row fields also match by number in either place: `skill3description` for `skilldescription3`. */
function numberedVariants(def: FieldDef): string[] {
  if (!def.row) return [];
  const { n, part, group } = def.row;
  return [`${group.replace(/s$/, '')}${n}${part}`];
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
            ? { key: chosen, match: 'alias' as const }
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
    return { column, header, key: found.key, match: chosen !== undefined ? 'alias' : found.match };
  });
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

/**
 * A date cell as people type it: `2026-03-31`, `3/31/2026` (month first, as the spec's
 * MM/DD/YYYY), or a spreadsheet's serial number (46112). Anything else, and a month-first reading
 * that cannot be one (`31/03/2026`) or a two-digit year, is reported rather than guessed. The
 * value is sent in `dateFormat`; a blank cell stays blank.
 */
export function readDateCell(cell: string, dateFormat: DateFormat): DateCell {
  const value = cell.trim();
  if (value === '') return { ok: true, value: '' };
  const iso =
    parseWireDate(value, 'YYYY-MM-DD') ??
    (/^\d{1,2}\/\d{1,2}\/\d{4}$/.test(value)
      ? parseWireDate(
          value.replace(
            /^(\d{1,2})\/(\d{1,2})\//,
            (_, m: string, d: string) => `${m.padStart(2, '0')}/${d.padStart(2, '0')}/`,
          ),
          'MM/DD/YYYY',
        )
      : /^\d{1,7}$/.test(value)
        ? fromSerial(Number(value))
        : null);
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

export interface SheetItem {
  /** The wire object: every mapped field, trimmed; dates in the outbound format. */
  wire: Record<string, string>;
  /** Cells that could not be read (dates), by wire key. */
  cellProblems: Map<string, string>;
}

/** One row of cells → a wire item, through the mapped columns. */
export function rowToItem(
  row: readonly string[],
  columns: readonly MappedColumn[],
  catalog: readonly FieldDef[],
  dateFormat: DateFormat,
): SheetItem {
  const types = new Map(catalog.map((def) => [def.key, def.type]));
  const wire: Record<string, string> = {};
  const cellProblems = new Map<string, string>();
  for (const column of columns) {
    if (column.key === null) continue;
    const cell = (row[column.column] ?? '').trim();
    if (types.get(column.key) === 'DATE') {
      const date = readDateCell(cell, dateFormat);
      if (date.ok) wire[column.key] = date.value;
      else {
        wire[column.key] = cell;
        cellProblems.set(column.key, date.message);
      }
    } else wire[column.key] = cell;
  }
  return { wire, cellProblems };
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

/**
 * The rows of a sheet checked by the domain's rules for `kind` (the same as the forms, the tray
 * and the proxy), after its cells were read through the mapped columns; a row repeating an
 * earlier row's identity (`identity`: the client internal req of an Insert, the e-mail and
 * requisition of a candidate) is flagged on its identity field.
 */
export function checkSheet(
  rows: readonly (readonly string[])[],
  columns: readonly MappedColumn[],
  options: {
    catalog: readonly FieldDef[];
    dateFormat: DateFormat;
    validate(item: Record<string, string>): { field: string; message: string }[];
    identity(item: Record<string, string>): { field: string; value: string } | null;
  },
): SheetReport {
  const items = rows.map((row) => rowToItem(row, columns, options.catalog, options.dateFormat));
  const columnOf = new Map(
    columns.flatMap((column) => (column.key === null ? [] : [[column.key, column.header]])),
  );
  const repeats = repeatedItems(items, (item) => {
    const id = options.identity(item.wire);
    return id ? `${id.field}\u0000${id.value}` : '';
  });
  const reports = items.map((item, index): SheetRowReport => {
    const errors: SheetIssue[] = [];
    const seen = new Set<string>();
    const add = (field: string, message: string) => {
      if (seen.has(field)) return;
      seen.add(field);
      errors.push({ field, column: columnOf.get(field) ?? '', message });
    };
    for (const [field, message] of item.cellProblems) add(field, message);
    const repeat = repeats.get(index);
    if (repeat) {
      const [field = '', value = ''] = repeat.identity.split('\u0000');
      add(
        field,
        `Row ${repeat.first + 2} already has “${value}”, which may be sent once; remove or change one of them.`,
      );
    }
    for (const issue of options.validate(item.wire)) add(issue.field, issue.message);
    return { row: index + 2, valid: errors.length === 0, errors };
  });
  return { valid: reports.every((report) => report.valid), columns: [...columns], rows: reports };
}
