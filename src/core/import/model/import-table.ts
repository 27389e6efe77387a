import Papa from 'papaparse';
import type {
  DateFormat,
  DateOrder,
  CellReading,
  MappedColumn,
  PayloadKind,
  SheetIssue,
  SheetRequisition,
} from '@/domain';
import {
  catalogOf,
  columnReadings,
  identityKeyOf,
  identityValueOf,
  mapHeaders,
  payloadKindOf,
  rowReader,
  sheetRowChecker,
  withRepeat,
} from '@/domain';

/**
 * A file being imported: its rows as read, the columns as mapped, and each row's
 * problems by the domain's rules. Held in the import's Web Worker; the page asks it for counts
 * and for the rows in view, never for the whole file. Work is proportional to the change: a
 * file is checked once, an edited row (and the rows sharing its identity) again.
 */
export interface ImportOptions {
  kind: PayloadKind;
  dateFormat: DateFormat;
  /** The client org the rows are for (filled in where a sheet has no Org ID column). */
  org?: string | undefined;
  /**
   * The client org's requisitions by Req ID, when the list is known: rows of a kind that names
   * its requisition (candidates) are checked against it.
   */
  requisitions?: ReadonlyMap<string, SheetRequisition> | undefined;
}

export interface ColumnSummary extends MappedColumn {
  /** The field's label, when the column fills one. */
  label: string | null;
  /** The first few values, for the user to see what the column holds. */
  samples: string[];
  /** Rows whose cell in this column is in error. */
  errors: number;
}

export interface ImportSummary {
  /** Rows still in the import (rows added to the batch leave it). */
  rows: number;
  /** Cells the user has changed: lost, with the rows, if another file replaces this one. */
  edited: number;
  /** How the user said the file writes its dates; null: as its columns prove. */
  dateOrder: DateOrder | null;
  withErrors: number;
  valid: number;
  columns: ColumnSummary[];
  /** Fields in error that no column fills (a required field without a column). */
  missing: Array<{ field: string; label: string; errors: number }>;
}

export interface GridRow {
  /** Position in the file's rows (0-based): what edits name. */
  index: number;
  /** As the spreadsheet numbers it: the header is row 1. */
  rowNumber: number;
  cells: readonly string[];
  errors: SheetIssue[];
  /** Cells of choice columns written as a label and read as its code, by column: `Contract` → `1`. */
  readAs: Readonly<Record<number, string>>;
}

/** The file as read: stored once when it is opened. */
export interface ImportSource {
  headers: string[];
  rows: string[][];
  /** Each row's number in the sheet; absent in an import kept by an older version (position + 2). */
  rowNumbers?: number[];
}

/** What the user did to it since: stored after each change (small next to the file). */
export interface ImportState {
  mapping: Record<string, string>;
  /** [row index, column, value] of each edited cell, in the order made. */
  edits: Array<[number, number, string]>;
  /** Rows added to the batch. */
  removed: number[];
  /** How the user said the file writes its dates; null or absent: as its columns prove. */
  dateOrder?: DateOrder | null | undefined;
}

const none: readonly SheetIssue[] = Object.freeze([]);
const sampleCount = 3;

/** Sorted insert of `value` into ascending `list`. */
function insertSorted(list: number[], value: number): void {
  let low = 0;
  let high = list.length;
  while (low < high) {
    const mid = (low + high) >> 1;
    if ((list[mid] ?? 0) < value) low = mid + 1;
    else high = mid;
  }
  list.splice(low, 0, value);
}

/**
 * The table's own copy of a row (edits must not reach the file as read, which the worker keeps
 * and stores), short rows padded so every cell can be edited; longer ones keep their extra cells.
 */
/** A short row padded to the header's width (a new array); a full one as it is. */
const padded = (row: readonly string[], width: number): readonly string[] =>
  row.length >= width ? row : [...row, ...Array<string>(width - row.length).fill('')];

export class ImportTable {
  private options: ImportOptions;
  private headers: string[] = [];
  /**
   * The rows: the caller's own arrays until a cell of one is edited, when that row is copied
   * first (copy on write): the file as read stays as read (the worker keeps it for another sheet
   * and stores it), and a 100,000-row file is not copied whole to be opened.
   */
  private rows: (readonly string[])[] = [];
  /** Each row's number in the sheet, as the spreadsheet shows it; empty: position + 2. */
  private rowNumbers: readonly number[] = [];
  private copied = new Set<number>();
  private mapping: Record<string, string> = {};
  private edits = new Map<string, [number, number, string]>();
  private removed = new Set<number>();
  private columns: MappedColumn[] = [];
  /** Reads a row's cells as the check does: what each is sent as (readAs). */
  private reader: ReturnType<typeof rowReader> = () => ({ wire: {}, cellProblems: new Map() });
  /** How each column's cells read, as they prove it or the user said (columnReadings). */
  private orders: ReadonlyMap<string, CellReading> = new Map();
  /** The user's word for the whole file, over what its columns prove. */
  private dateOrder: DateOrder | null = null;
  private columnOf = new Map<string, string>();
  private check: ReturnType<typeof sheetRowChecker> = Object.assign(
    () => ({ wire: {}, errors: [], identity: '' }),
    { problems: () => ({ errors: [], identityValue: '' }) },
  );
  /**
   * Per row: its own problems (no repeats), its identity, and what is shown. Identities are
   * sheetIdentity's values (the field is the kind's): for requisitions the cells as read, so a
   * 100,000-row file keeps no new string per row for them.
   */
  private own: (readonly SheetIssue[])[] = [];
  private identities: string[] = [];
  private shown: (readonly SheetIssue[])[] = [];
  /**
   * Live rows by identity, ascending: the first may be sent, the others repeat it. A lone row is
   * kept as its number (nearly every row of a file is alone: no array for each).
   */
  private byIdentity = new Map<string, number | number[]>();
  /** The identities of byIdentity held by more than one row (the few that need a look). */
  private repeated = new Set<string>();

  /** The rows with `identity`, ascending (a new array: callers may change it and set it back). */
  private rowsWith(identity: string): number[] {
    const entry = this.byIdentity.get(identity);
    return entry === undefined ? [] : typeof entry === 'number' ? [entry] : entry;
  }

  private setRowsWith(identity: string, rows: number[]): void {
    if (rows.length === 0) this.byIdentity.delete(identity);
    else this.byIdentity.set(identity, rows.length === 1 ? (rows[0] ?? 0) : rows);
    if (rows.length > 1) this.repeated.add(identity);
    else this.repeated.delete(identity);
  }
  /** Identities outside the file (in the batch, sent before), with where they are; by value. */
  private known = new Map<string, string>();
  private fieldErrors = new Map<string, number>();
  private liveCache: number[] | null = null;
  private errorCache: number[] | null = null;

  constructor(options: ImportOptions) {
    this.options = options;
  }

  /** A file's header and rows; `mapping` (a template, the user's choices) over the matching. */
  load(
    headers: readonly string[],
    rows: string[][],
    mapping: Record<string, string> = {},
    rowNumbers: readonly number[] = [],
    dateOrder?: DateOrder,
  ): void {
    this.headers = [...headers];
    this.rows = rows.map((row) => padded(row, headers.length));
    this.rowNumbers = rowNumbers;
    this.copied.clear();
    this.mapping = { ...mapping };
    this.dateOrder = dateOrder ?? null;
    this.edits.clear();
    this.removed.clear();
    this.mapAndCheck();
  }

  /** Back to where the user left off: the file as read, then their changes. */
  restore(source: ImportSource, state: ImportState): void {
    this.headers = [...source.headers];
    this.rows = source.rows.map((row) => padded(row, source.headers.length));
    this.rowNumbers = source.rowNumbers ?? [];
    this.copied.clear();
    this.mapping = { ...state.mapping };
    this.edits.clear();
    this.removed = new Set(state.removed);
    this.dateOrder = state.dateOrder ?? null;
    for (const [index, column, value] of state.edits) this.setCell(index, column, value);
    this.mapAndCheck();
  }

  /**
   * A row's cells that are sent as something other than what they say, with what is sent (shown
   * in the grid): a choice written as its label (`Contract` → `1`), a date written another way
   * or as a spreadsheet's day number (`46752` → `2027-12-31`).
   */
  private readAs(row: readonly string[]): Record<number, string> {
    const { wire } = this.reader(row);
    const read: Record<number, string> = {};
    for (const column of this.columns) {
      const cell = (row[column.column] ?? '').trim();
      if (column.key === null || cell === '') continue;
      // A cell that could not be read is sent as written: only a real reading differs.
      const sent = wire[column.key];
      if (sent !== undefined && sent !== cell) read[column.column] = sent;
    }
    return read;
  }

  /** The number the spreadsheet shows row `index` at. */
  private rowNumberOf(index: number): number {
    return this.rowNumbers[index] ?? index + 2;
  }

  state(): ImportState {
    return {
      mapping: this.mapping,
      edits: [...this.edits.values()],
      removed: [...this.removed],
      dateOrder: this.dateOrder,
    };
  }

  /** The user's mapping (header → wire key, '' ignored): what a template saves. */
  currentMapping(): Record<string, string> {
    const mapping: Record<string, string> = {};
    for (const column of this.columns) mapping[column.header] = column.key ?? '';
    return mapping;
  }

  /** Identities that are already in the batch or were sent, each with where (for the message). */
  setKnown(known: ReadonlyMap<string, string>): void {
    this.known = new Map();
    for (const [key, where] of known) {
      const value = identityValueOf(this.options.kind, key);
      if (value !== null) this.known.set(value, where);
    }
    this.reshowAll();
  }

  /**
   * Maps a column to a field (or ignores it, with ''), and checks the rows again. A column that
   * filled that field before is ignored from now on: the user's choice wins over a match.
   */
  setColumn(column: number, key: string): void {
    const header = this.headers[column];
    if (header === undefined) return;
    const mapping = { ...this.mapping, [header]: key };
    if (key !== '')
      for (const other of this.columns)
        if (other.key === key && other.column !== column) mapping[other.header] = '';
    this.mapping = mapping;
    this.mapAndCheck();
  }

  /**
   * The requisitions rows are checked against changed (the list was refreshed): rows of a kind
   * checked against their requisition are checked again.
   */
  setRequisitions(requisitions: ReadonlyMap<string, SheetRequisition> | undefined): void {
    this.options = { ...this.options, requisitions };
    if (payloadKindOf(this.options.kind).sheet.requisitionField !== null && this.headers.length > 0)
      this.mapAndCheck();
  }

  /** Applies a whole mapping (a chosen template), with its date order when it has one. */
  setMapping(mapping: Record<string, string>, dateOrder?: DateOrder): void {
    this.mapping = { ...mapping };
    if (dateOrder) this.dateOrder = dateOrder;
    this.mapAndCheck();
  }

  /** The user says how the file writes dates (null: as its columns prove); rows are checked again. */
  setDateOrder(order: DateOrder | null): void {
    this.dateOrder = order;
    this.mapAndCheck();
  }

  editCell(index: number, column: number, value: string): void {
    if (!this.rows[index] || this.removed.has(index) || column < 0 || column >= this.headers.length)
      return;
    this.setCell(index, column, value);
    this.recheck([index]);
  }

  /**
   * Replaces `find` by `replace` in one column's cells (every occurrence, case as typed), in the
   * rows still in the import; returns how many cells changed.
   */
  replaceInColumn(column: number, find: string, replace: string): number {
    if (find === '' || column < 0 || column >= this.headers.length) return 0;
    const changed: number[] = [];
    for (const index of this.liveRows()) {
      const cell = this.rows[index]?.[column] ?? '';
      if (!cell.includes(find)) continue;
      this.setCell(index, column, cell.split(find).join(replace));
      changed.push(index);
    }
    this.recheck(changed);
    return changed.length;
  }

  summary(): ImportSummary {
    const live = this.liveRows();
    const withErrors = this.errorRows().length;
    const catalog = catalogOf(this.options.kind);
    const labels = new Map(catalog.map((def) => [def.key, def.label]));
    const mapped = new Set(this.columns.flatMap((column) => (column.key ? [column.key] : [])));
    const samples = this.samples(live);
    return {
      rows: live.length,
      edited: this.edits.size,
      dateOrder: this.dateOrder,
      withErrors,
      valid: live.length - withErrors,
      columns: this.columns.map((column, position) => ({
        ...column,
        label: column.key ? (labels.get(column.key) ?? column.key) : null,
        samples: samples[position] ?? [],
        errors: column.key ? (this.fieldErrors.get(column.key) ?? 0) : 0,
      })),
      missing: [...this.fieldErrors]
        .filter(([field, count]) => count > 0 && !mapped.has(field))
        .map(([field, errors]) => ({ field, label: labels.get(field) ?? field, errors })),
    };
  }

  /**
   * Each column's first few values (trimmed, distinct, not blank) in the rows of `live`. Rows are
   * read once for all columns, not once per column: a column with fewer values than that is read
   * to the end, and reaching a row is much of the cost (the bench's 100,000 rows, four columns of
   * one or two values: ~24 → ~16 ms).
   */
  private samples(live: readonly number[]): string[][] {
    const positions = this.columns.map((column) => column.column);
    const samples = positions.map((): string[] => []);
    let open = positions.length;
    for (let at = 0; at < live.length && open > 0; at += 1) {
      const row = this.rows[live[at] ?? -1] ?? [];
      for (let column = 0; column < positions.length; column += 1) {
        const list = samples[column] ?? [];
        if (list.length === sampleCount) continue;
        const cell = (row[positions[column] ?? -1] ?? '').trim();
        if (cell === '' || list.includes(cell)) continue;
        list.push(cell);
        if (list.length === sampleCount) open -= 1;
      }
    }
    return samples;
  }

  /** `count` rows from `start` of the rows in the import (or of those with errors). */
  window(start: number, count: number, onlyErrors: boolean): { total: number; rows: GridRow[] } {
    const list = onlyErrors ? this.errorRows() : this.liveRows();
    return {
      total: list.length,
      rows: list.slice(start, start + count).map((index) => ({
        index,
        rowNumber: this.rowNumberOf(index),
        cells: this.rows[index] ?? [],
        errors: [...(this.shown[index] ?? none)],
        readAs: this.readAs(this.rows[index] ?? []),
      })),
    };
  }

  /**
   * One byte per row of the list (the rows in the import, or those with errors): 1 where the row
   * has errors. The grid sizes its rows from it without measuring them.
   */
  errorFlags(onlyErrors: boolean): Uint8Array {
    const list = onlyErrors ? this.errorRows() : this.liveRows();
    const flags = new Uint8Array(list.length);
    list.forEach((index, position) => {
      if ((this.shown[index] ?? none).length > 0) flags[position] = 1;
    });
    return flags;
  }

  /** Up to `limit` rows without errors (of `only`, when given), each with what is sent for it. */
  validItems(
    limit: number,
    only?: readonly number[],
  ): Array<{ index: number; rowNumber: number; wire: Record<string, string> }> {
    const items: Array<{ index: number; rowNumber: number; wire: Record<string, string> }> = [];
    const chosen = only ? only.filter((index) => !this.removed.has(index)) : this.liveRows();
    for (const index of chosen) {
      if (items.length >= limit) break;
      const row = this.rows[index];
      if (!row || (this.shown[index] ?? none).length > 0) continue;
      items.push({ index, rowNumber: this.rowNumberOf(index), wire: this.check(row).wire });
    }
    return items;
  }

  /** Rows now in the batch leave the import; their identities are then known to be there. */
  markAdded(indices: readonly number[], where: string): void {
    const affected = new Set<number>();
    for (const index of indices) {
      if (this.removed.has(index) || !this.rows[index]) continue;
      this.setShown(index, none);
      this.removed.add(index);
      const identity = this.identities[index] ?? '';
      if (identity === '') continue;
      this.known.set(identity, where);
      const list = this.rowsWith(identity);
      list.splice(list.indexOf(index), 1);
      this.setRowsWith(identity, list);
      for (const other of list) affected.add(other);
    }
    this.liveCache = null;
    this.errorCache = null;
    for (const index of affected) this.reshow(index);
  }

  /** The rows with errors as a CSV: the file's columns (as edited) and an Errors column. */
  errorCsv(): string {
    // Messages in the sheet's column order (fields without a column last), as the user reads it.
    const position = new Map(
      this.columns.flatMap((column) => (column.key ? [[column.key, column.column]] : [])),
    );
    const at = (issue: SheetIssue) => position.get(issue.field) ?? Number.MAX_SAFE_INTEGER;
    // One cell per header, so the messages land under Errors even in a row with extra cells.
    const lines = this.errorRows().map((index) => [
      ...this.headers.map((_, column) => this.rows[index]?.[column] ?? ''),
      [...(this.shown[index] ?? none)]
        .sort((a, b) => at(a) - at(b))
        .map((issue) => `${issue.column || this.labelOf(issue.field)}: ${issue.message}`)
        .join('\n'),
    ]);
    return Papa.unparse({ fields: [...this.headers, 'Errors'], data: lines });
  }

  private labelOf(field: string): string {
    return catalogOf(this.options.kind).find((def) => def.key === field)?.label ?? field;
  }

  private setCell(index: number, column: number, value: string): void {
    const current = this.rows[index];
    if (!current) return;
    const row = this.copied.has(index) ? (current as string[]) : [...current];
    this.copied.add(index);
    this.rows[index] = row;
    row[column] = value;
    this.edits.set(`${index}:${column}`, [index, column, value]);
  }

  private mapAndCheck(): void {
    this.columns = mapHeaders(this.headers, catalogOf(this.options.kind), this.mapping);
    this.columnOf = new Map(
      this.columns.flatMap((column) => (column.key === null ? [] : [[column.key, column.header]])),
    );
    // Which way round each date column writes dates that read either way, as its cells prove.
    const catalog = catalogOf(this.options.kind);
    this.orders = columnReadings(this.rows, this.columns, catalog, this.dateOrder);
    this.reader = rowReader(this.columns, catalog, this.options.dateFormat, {}, this.orders);
    this.check = sheetRowChecker(this.options.kind, this.columns, {
      ...this.options,
      readings: this.orders,
    });
    this.checkAll();
  }

  private checkAll(): void {
    const count = this.rows.length;
    this.own = new Array<readonly SheetIssue[]>(count);
    this.identities = new Array<string>(count);
    this.shown = new Array<readonly SheetIssue[]>(count).fill(none);
    this.byIdentity.clear();
    this.repeated.clear();
    this.fieldErrors.clear();
    this.liveCache = null;
    this.errorCache = null;
    for (let index = 0; index < count; index += 1) {
      const row = this.rows[index];
      if (!row || this.removed.has(index)) {
        this.own[index] = none;
        this.identities[index] = '';
        continue;
      }
      const { errors, identityValue: identity } = this.check.problems(row);
      this.own[index] = errors.length === 0 ? none : errors;
      this.identities[index] = identity;
      if (identity !== '') {
        const entry = this.byIdentity.get(identity);
        // Rows are visited in order: pushing keeps each list ascending.
        if (entry === undefined) this.byIdentity.set(identity, index);
        else if (typeof entry === 'number') {
          this.byIdentity.set(identity, [entry, index]);
          this.repeated.add(identity);
        } else entry.push(index);
      }
    }
    this.reshowAll();
  }

  /**
   * Works out what every row shows. Only rows that can show something are visited: those with
   * problems of their own, those repeating another row, those repeating a known item; the rest
   * (nearly all of a good file) show nothing, as they already do.
   */
  private reshowAll(): void {
    for (let index = 0; index < this.own.length; index += 1) {
      if ((this.own[index] ?? none).length > 0 || (this.shown[index] ?? none).length > 0)
        this.reshow(index);
    }
    for (const identity of this.repeated)
      for (const index of this.rowsWith(identity)) this.reshow(index);
    for (const identity of this.known.keys()) {
      const entry = this.byIdentity.get(identity);
      if (typeof entry === 'number') this.reshow(entry);
    }
  }

  /** Checks rows again after their cells changed, with the rows sharing an identity with them. */
  private recheck(indices: readonly number[]): void {
    const affected = new Set<number>();
    for (const index of indices) {
      const row = this.rows[index];
      if (!row || this.removed.has(index)) continue;
      const before = this.identities[index] ?? '';
      const { errors, identityValue: identity } = this.check.problems(row);
      this.own[index] = errors.length === 0 ? none : errors;
      affected.add(index);
      if (before === identity) continue;
      if (before !== '') {
        const list = this.rowsWith(before);
        list.splice(list.indexOf(index), 1);
        this.setRowsWith(before, list);
        for (const other of list) affected.add(other);
      }
      this.identities[index] = identity;
      if (identity !== '') {
        const list = this.rowsWith(identity);
        insertSorted(list, index);
        this.setRowsWith(identity, list);
        for (const other of list) affected.add(other);
      }
    }
    for (const index of affected) this.reshow(index);
  }

  /** What a row shows: its own problems, or a repeat of an earlier row or of a known item first. */
  private reshow(index: number): void {
    const own = this.own[index] ?? none;
    const identity = this.identities[index] ?? '';
    let shown = own;
    if (identity !== '') {
      const entry = this.byIdentity.get(identity);
      const first = typeof entry === 'number' ? entry : entry?.[0];
      const where = this.known.get(identity);
      if (where !== undefined) {
        const [field = '', value = ''] = identityKeyOf(this.options.kind, identity).split('\u0000');
        shown = [
          {
            field,
            column: this.columnOf.get(field) ?? '',
            message: `“${value}” ${where}, and may be sent once; remove this row or change it.`,
          },
          ...own.filter((issue) => issue.field !== field),
        ];
      } else if (first !== undefined && first !== index) {
        shown = withRepeat(
          own,
          this.rowNumberOf(first),
          identityKeyOf(this.options.kind, identity),
          this.columnOf,
        );
      }
    }
    this.setShown(index, shown);
  }

  private setShown(index: number, shown: readonly SheetIssue[]): void {
    const before = this.shown[index] ?? none;
    if (before === shown) return;
    for (const issue of before)
      this.fieldErrors.set(issue.field, (this.fieldErrors.get(issue.field) ?? 0) - 1);
    for (const issue of shown)
      this.fieldErrors.set(issue.field, (this.fieldErrors.get(issue.field) ?? 0) + 1);
    if ((before.length === 0) !== (shown.length === 0)) this.errorCache = null;
    this.shown[index] = shown;
  }

  private liveRows(): number[] {
    if (this.liveCache) return this.liveCache;
    const live: number[] = [];
    for (let index = 0; index < this.rows.length; index += 1)
      if (!this.removed.has(index)) live.push(index);
    return (this.liveCache = live);
  }

  private errorRows(): number[] {
    if (this.errorCache) return this.errorCache;
    return (this.errorCache = this.liveRows().filter(
      (index) => (this.shown[index] ?? none).length > 0,
    ));
  }
}
