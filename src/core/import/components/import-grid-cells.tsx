/* eslint-disable jsx-a11y/no-interactive-element-to-noninteractive-role --
 * The grid's table elements are drawn as blocks and flex rows (app.css: a row redrawn lays out only
 * itself), which drops their table semantics in some browsers' accessibility trees; the roles they
 * have are given again explicitly so the grid stays a table to assistive technology. */
import type { KeyboardEvent } from 'react';
import { memo, useRef, useState } from 'react';
import type { ColumnSummary, GridRow } from '@/core/import/model/import-view';
import type { SheetIssue } from '@/domain';

/**
 * One row's cells of the import grid (import-grid.tsx), each with its problem, and the editor of
 * the cell being changed. Drawn again only when the row itself changes.
 */

/** What a row does through the grid: choose it, start and end an edit, keep an edited value. */
export interface RowActions {
  select(index: number, chosen: boolean): void;
  startEdit(index: number, column: number): void;
  stopEdit(): void;
  commit(row: GridRow, column: number, value: string): Promise<void>;
}

export interface RowCellsProps {
  row: GridRow;
  columns: readonly ColumnSummary[];
  otherProblems: boolean;
  chosen: boolean;
  editingColumn: number | null;
  errorIdBase: string;
  actions: RowActions;
}

/** A row's header and cells: drawn again only when the row's data, choice or editing changes. */
export const RowCells = memo(function RowCells({
  row,
  columns,
  otherProblems,
  chosen,
  editingColumn,
  errorIdBase,
  actions,
}: RowCellsProps) {
  const byField = new Map<string, SheetIssue>(row.errors.map((issue) => [issue.field, issue]));
  const others = otherProblems
    ? row.errors.filter((issue) => !columns.some((column) => column.key === issue.field))
    : [];
  return (
    <>
      <th role="rowheader" scope="row" className="import-grid__row-head">
        <label>
          <input
            type="checkbox"
            checked={chosen}
            onChange={(event) => actions.select(row.index, event.target.checked)}
            aria-label={`Select row ${row.rowNumber}`}
          />{' '}
          {row.rowNumber}
        </label>
        {row.errors.length > 0 ? (
          <button
            type="button"
            className="link-button import-grid__problems"
            aria-label={`Row ${row.rowNumber}: ${row.errors.length === 1 ? '1 problem' : `${row.errors.length} problems`}; go to the first`}
            onClick={(event) => {
              // The first cell in error may be far to the side: brought into view and focused.
              // A problem no column shows is in the row's last cell.
              const at = columns.findIndex(
                (column) => column.key !== null && byField.has(column.key),
              );
              const cell = event.currentTarget
                .closest('tr')
                ?.querySelector(
                  at < 0 ? 'td:last-of-type' : `td:nth-of-type(${at + 1}) .import-cell__value`,
                );
              if (cell instanceof HTMLElement) {
                cell.scrollIntoView({ block: 'nearest', inline: 'center' });
                cell.focus({ preventScroll: true });
              }
            }}
          >
            {row.errors.length}
          </button>
        ) : null}
      </th>
      {columns.map((column) => {
        const value = row.cells[column.column] ?? '';
        const readAs = row.readAs[column.column];
        const issue = column.key ? byField.get(column.key) : undefined;
        const errorId = `${errorIdBase}-${row.index}-${column.column}`;
        const name = column.label ?? column.header;
        return (
          <td
            role="cell"
            key={column.column}
            className={issue ? 'import-cell import-cell--error' : 'import-cell'}
          >
            {editingColumn === column.column ? (
              <CellEditor
                label={`${name}, row ${row.rowNumber}`}
                value={value}
                describedBy={issue ? errorId : undefined}
                onDone={(next) =>
                  next === null ? actions.stopEdit() : void actions.commit(row, column.column, next)
                }
              />
            ) : (
              <button
                type="button"
                className="import-cell__value"
                aria-label={`${name}, row ${row.rowNumber}: ${value === '' ? 'blank' : value}${readAs === undefined ? '' : `, read as ${readAs}`}`}
                aria-describedby={issue ? errorId : undefined}
                onClick={() => actions.startEdit(row.index, column.column)}
              >
                {value}
                {readAs === undefined ? null : (
                  <span className="import-cell__read-as" aria-hidden="true">
                    {' '}
                    → {readAs}
                  </span>
                )}
              </button>
            )}
            {issue ? (
              <span id={errorId} className="import-cell__error" title={issue.message}>
                {issue.message}
              </span>
            ) : null}
          </td>
        );
      })}
      {otherProblems ? (
        <td
          role="cell"
          className={others.length > 0 ? 'import-cell import-cell--error' : 'import-cell'}
        >
          {others.map((issue) => (
            <span key={issue.field} className="import-cell__error" title={issue.message}>
              {issue.message}
            </span>
          ))}
        </td>
      ) : null}
    </>
  );
});

/** A cell being edited: Enter or leaving keeps the value, Escape drops it (null). */
function CellEditor({
  label,
  value,
  describedBy,
  onDone,
}: {
  label: string;
  value: string;
  describedBy: string | undefined;
  onDone(value: string | null): void;
}) {
  const [text, setText] = useState(value);
  const finished = useRef(false);
  const finish = (next: string | null) => {
    if (finished.current) return;
    finished.current = true;
    onDone(next);
  };
  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === 'Enter') {
      event.preventDefault();
      finish(text);
    } else if (event.key === 'Escape') {
      event.preventDefault();
      finish(null);
    }
  };
  return (
    <input
      className="import-cell__input"
      aria-label={label}
      aria-describedby={describedBy}
      value={text}
      // Focus follows the click that opened the editor.
      // eslint-disable-next-line jsx-a11y/no-autofocus
      autoFocus
      onChange={(event) => setText(event.target.value)}
      onKeyDown={onKeyDown}
      onBlur={() => finish(text)}
    />
  );
}
