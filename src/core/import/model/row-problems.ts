import type { PayloadKind, SheetIssue } from '@/domain';
import { identityKeyOf, identityValueOf, withRepeat } from '@/domain';

/**
 * What each row of an import shows (import-table.ts): its own problems by the domain's rules, or
 * first that it repeats an earlier row of the file or an item already in the batch or sent; and
 * how many rows show a problem with each field. Work is proportional to the change: a file is
 * checked once, an edited row (and the rows sharing its identity) again.
 */

export const none: readonly SheetIssue[] = Object.freeze([]);

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

/** A row's own problems and identity (sheetRowChecker's `problems`). */
type ProblemsOf = (row: readonly string[]) => { errors: SheetIssue[]; identityValue: string };

/** The rows being checked: those not in the list, or removed, are skipped. */
interface Rows {
  rows: readonly (readonly string[] | undefined)[];
  removed: ReadonlySet<number>;
  problemsOf: ProblemsOf;
}

/** What the table tells its rows' problems about itself. */
export interface RowContext {
  kind(): PayloadKind;
  /** The header of the column each field is read from. */
  columnOf(): ReadonlyMap<string, string>;
  /** The number the spreadsheet shows a row at. */
  rowNumberOf(index: number): number;
  /** A row started or stopped showing problems. */
  onErrorRowsChanged(): void;
}

export class RowProblems {
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
  /** Identities outside the file (in the batch, sent before), with where they are; by value. */
  private known = new Map<string, string>();
  private fieldErrors = new Map<string, number>();

  constructor(private readonly context: RowContext) {}

  /** What row `index` shows. */
  shownAt(index: number): readonly SheetIssue[] {
    return this.shown[index] ?? none;
  }

  /** How many rows show a problem with `field`. */
  errorsOf(field: string): number {
    return this.fieldErrors.get(field) ?? 0;
  }

  /** Each field with how many rows show a problem with it. */
  fieldsWithErrors(): Array<[string, number]> {
    return [...this.fieldErrors];
  }

  /** Identities that are already in the batch or were sent, each with where (for the message). */
  setKnown(known: ReadonlyMap<string, string>): void {
    this.known = new Map();
    for (const [key, where] of known) {
      const value = identityValueOf(this.context.kind(), key);
      if (value !== null) this.known.set(value, where);
    }
    this.reshowAll();
  }

  /** Every row checked afresh (the file, its mapping or its rules changed). */
  checkAll({ rows, removed, problemsOf }: Rows): void {
    const count = rows.length;
    this.own = new Array<readonly SheetIssue[]>(count);
    this.identities = new Array<string>(count);
    this.shown = new Array<readonly SheetIssue[]>(count).fill(none);
    this.byIdentity.clear();
    this.repeated.clear();
    this.fieldErrors.clear();
    for (let index = 0; index < count; index += 1) {
      const row = rows[index];
      if (!row || removed.has(index)) {
        this.own[index] = none;
        this.identities[index] = '';
        continue;
      }
      const { errors, identityValue: identity } = problemsOf(row);
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

  /** Checks rows again after their cells changed, with the rows sharing an identity with them. */
  recheck(indices: readonly number[], { rows, removed, problemsOf }: Rows): void {
    const affected = new Set<number>();
    for (const index of indices) {
      const row = rows[index];
      if (!row || removed.has(index)) continue;
      const before = this.identities[index] ?? '';
      const { errors, identityValue: identity } = problemsOf(row);
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

  /** Rows gone to the batch (at `where`): they show nothing, and their identities are known there. */
  added(indices: readonly number[], where: string): void {
    const affected = new Set<number>();
    for (const index of indices) {
      this.setShown(index, none);
      const identity = this.identities[index] ?? '';
      if (identity === '') continue;
      this.known.set(identity, where);
      const list = this.rowsWith(identity);
      list.splice(list.indexOf(index), 1);
      this.setRowsWith(identity, list);
      for (const other of list) affected.add(other);
    }
    for (const index of affected) this.reshow(index);
  }

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

  /** What a row shows: its own problems, or a repeat of an earlier row or of a known item first. */
  private reshow(index: number): void {
    const own = this.own[index] ?? none;
    const identity = this.identities[index] ?? '';
    const kind = this.context.kind();
    let shown = own;
    if (identity !== '') {
      const entry = this.byIdentity.get(identity);
      const first = typeof entry === 'number' ? entry : entry?.[0];
      const where = this.known.get(identity);
      if (where !== undefined) {
        const [field = '', value = ''] = identityKeyOf(kind, identity).split('\u0000');
        shown = [
          {
            field,
            column: this.context.columnOf().get(field) ?? '',
            message: `“${value}” ${where}, and may be sent once; remove this row or change it.`,
          },
          ...own.filter((issue) => issue.field !== field),
        ];
      } else if (first !== undefined && first !== index) {
        shown = withRepeat(
          own,
          this.context.rowNumberOf(first),
          identityKeyOf(kind, identity),
          this.context.columnOf(),
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
    if ((before.length === 0) !== (shown.length === 0)) this.context.onErrorRowsChanged();
    this.shown[index] = shown;
  }
}
