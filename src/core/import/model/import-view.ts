import type { DateOrder, MappedColumn, PayloadKind, SheetIssue, SheetOptions } from '@/domain';

/**
 * What the import page and its Web Worker exchange about a file being imported (import-table.ts
 * holds it): the options it is read with, the summary and the rows in view the page shows, and
 * the file and the user's changes as they are kept.
 */

export interface ImportOptions extends SheetOptions {
  kind: PayloadKind;
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
