import type { Key, ReactNode } from 'react';

/** A column's heading: read out but not shown when hidden (a column of row actions, "Action"). */
export interface ColumnHeading {
  heading: string;
  headingHidden?: boolean;
}

/** One column of a DataTable: its heading and what each row shows in it. */
export interface Column<Row> extends ColumnHeading {
  /** `user-text` for what a person typed (names, e-mails), which keeps its own direction. */
  className?: string;
  /** The column that names its row (scope="row"), so a row is read out by it. */
  rowHeader?: boolean;
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
  labelledBy,
  caption,
}: {
  rows: readonly Row[];
  columns: readonly Column<Row>[];
  rowKey(row: Row): Key;
  isCurrent?: (row: Row) => boolean;
  /** The id of the heading that names the table, when its section holds more than the table. */
  labelledBy?: string;
  /** The table's own title, shown above it and naming it, when no heading of the page does. */
  caption?: string;
}) {
  return (
    <table className="inspector__table" aria-labelledby={labelledBy}>
      {caption !== undefined && <caption>{caption}</caption>}
      <TableHead columns={columns} />
      <tbody>
        {rows.map((row) => (
          <tr key={rowKey(row)} aria-current={isCurrent?.(row) ? 'true' : undefined}>
            {columns.map((column) => {
              const Cell = column.rowHeader ? 'th' : 'td';
              return (
                <Cell
                  key={column.heading}
                  scope={column.rowHeader ? 'row' : undefined}
                  className={column.className}
                >
                  {column.cell(row)}
                </Cell>
              );
            })}
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/**
 * The heading row of a portal table, one `scope="col"` heading a column; also for a table whose
 * rows are components of their own (each with its own state), which DataTable's cells do not fit.
 */
export function TableHead({ columns }: { columns: readonly ColumnHeading[] }) {
  return (
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
  );
}
