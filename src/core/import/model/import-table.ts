import Papa from 'papaparse';
import type { DateOrder, CellReading, MappedColumn, SheetIssue, SheetRequisition } from '@/domain';
import {
  catalogOf,
  columnReadings,
  mapHeaders,
  payloadKindOf,
  rowReader,
  sheetRowChecker,
} from '@/domain';
import type {
  ImportOptions,
  ImportSummary,
  GridRow,
  ImportSource,
  ImportState,
} from './import-view';
import { RowProblems } from './row-problems';

const sampleCount = 3;

/**
 * The table's own copy of a row (edits must not reach the file as read, which the worker keeps
 * and stores), short rows padded so every cell can be edited; longer ones keep their extra cells.
 */
/** A short row padded to the header's width (a new array); a full one as it is. */
const padded = (row: readonly string[], width: number): readonly string[] =>
  row.length >= width ? row : [...row, ...Array<string>(width - row.length).fill('')];

/**
 * A file being imported: its rows as read, the columns as mapped, and each row's
 * problems by the domain's rules. Held in the import's Web Worker; the page asks it for counts
 * and for the rows in view, never for the whole file. Work is proportional to the change: a
 * file is checked once, an edited row (and the rows sharing its identity) again.
 */
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
  /** What each row shows, and how many rows show a problem with each field. */
  private problems = new RowProblems({
    kind: () => this.options.kind,
    columnOf: () => this.columnOf,
    rowNumberOf: (index) => this.rowNumberOf(index),
    onErrorRowsChanged: () => {
      this.errorCache = null;
    },
  });
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
    this.problems.setKnown(known);
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
        errors: column.key ? this.problems.errorsOf(column.key) : 0,
      })),
      missing: this.problems
        .fieldsWithErrors()
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
        errors: [...this.problems.shownAt(index)],
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
      if (this.problems.shownAt(index).length > 0) flags[position] = 1;
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
      if (!row || this.problems.shownAt(index).length > 0) continue;
      items.push({ index, rowNumber: this.rowNumberOf(index), wire: this.check(row).wire });
    }
    return items;
  }

  /** Rows now in the batch leave the import; their identities are then known to be there. */
  markAdded(indices: readonly number[], where: string): void {
    const added = indices.filter((index) => !this.removed.has(index) && this.rows[index]);
    for (const index of added) this.removed.add(index);
    this.problems.added(added, where);
    this.liveCache = null;
    this.errorCache = null;
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
      [...this.problems.shownAt(index)]
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
    this.liveCache = null;
    this.errorCache = null;
    this.problems.checkAll(this.checked());
  }

  private recheck(indices: readonly number[]): void {
    this.problems.recheck(indices, this.checked());
  }

  private checked() {
    return { rows: this.rows, removed: this.removed, problemsOf: this.check.problems };
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
      (index) => this.problems.shownAt(index).length > 0,
    ));
  }
}
