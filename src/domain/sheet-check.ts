import type { RequisitionContext } from './candidate-wire';
import type { DateFormat } from './catalog-types';
import { payloadKindOf, type PayloadKind } from './payload-kind';
import type { DateOrder, CellReading } from './sheet-cells';
import { columnReadings } from './sheet-cells';
import type { MappedColumn } from './sheet-headers';
import {
  sheetDefaults,
  rowReader,
  cellPlan,
  identityKeyOf,
  readCells,
  catalogOf,
  repeatedItems,
} from './spreadsheet';

/**
 * A sheet checked row by row, as the validator's CLI and the import page show it: each row's
 * problems where a spreadsheet user finds them, and rows that repeat an earlier one's identity.
 */

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

/** What a sheet's rows are read with and checked against, wherever they are checked. */
export interface SheetOptions {
  dateFormat: DateFormat;
  /** The client org the rows are for (filled in where a sheet has no Org ID column). */
  org?: string | undefined;
  /**
   * The client org's requisitions by Req ID, when known (the browser's copy of the list):
   * a candidate row is then checked against its requisition's skills and questions, as the
   * form is, and one for a requisition that is not there or takes no candidates is flagged.
   */
  requisitions?: ReadonlyMap<string, SheetRequisition> | undefined;
}

/**
 * Checks rows one at a time through `columns`, by the domain's rules for `kind` (the same as the
 * forms, the tray and the proxy): the CLI checks a whole file with it, the import page's worker
 * a whole file once and then each row the user edits.
 */
export function sheetRowChecker(
  kind: PayloadKind,
  columns: readonly MappedColumn[],
  options: SheetOptions & {
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
  options: Omit<SheetOptions, 'requisitions'> & {
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
