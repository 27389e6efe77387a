import type { Key, ReactNode } from 'react';

/** One column of a DataTable: its heading and what each row shows in it. */
export interface Column<Row> {
  heading: string;
  /** The heading is read out but not shown (a column of row actions, "Action"). */
  headingHidden?: boolean;
  /** `user-text` for what a person typed (names, e-mails), which keeps its own direction. */
  className?: string;
  cell(row: Row): ReactNode;
}

/**
 * The table the portal's lists use: a heading per column (scope="col"), a row per entry, the
 * entry shown beside the page marked `aria-current`. A row's actions (open, view, restore) are
 * cells like any other, a link or a button named after what it does.
 */
export function DataTable<Row>({
  rows,
  columns,
  rowKey,
  isCurrent,
}: {
  rows: readonly Row[];
  columns: readonly Column<Row>[];
  rowKey(row: Row): Key;
  isCurrent?: (row: Row) => boolean;
}) {
  return (
    <table className="inspector__table">
      <thead>
        <tr>
          {columns.map((column) => (
            <th key={column.heading} scope="col">
              {column.headingHidden ? (
                <span className="visually-hidden">{column.heading}</span>
              ) : (
                column.heading
              )}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {rows.map((row) => (
          <tr key={rowKey(row)} aria-current={isCurrent?.(row) ? 'true' : undefined}>
            {columns.map((column) => (
              <td key={column.heading} className={column.className}>
                {column.cell(row)}
              </td>
            ))}
          </tr>
        ))}
      </tbody>
    </table>
  );
}
