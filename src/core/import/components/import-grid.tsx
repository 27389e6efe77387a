import type { KeyboardEvent } from 'react';
import { useEffect, useId, useMemo, useRef, useState } from 'react';
import type { SheetIssue } from '../../../domain';
import { importWorker } from '../api/import-worker';
import type { ColumnSummary, GridRow } from '../model/import-table';
import { groupDigits } from '../../../shared/lib/format';

/** Rows fetched from the worker at a time. */
const blockSize = 100;
/**
 * Row heights, fixed: a row is not measured (measuring 100,000 rows as they scroll by costs more
 * than drawing them); a row with errors has room for two lines of message under its values.
 */
const rowPx = 44;
const errorRowPx = 84;

interface Blocks {
  tag: string;
  rows: Map<number, GridRow[]>;
}

/**
 * The rows of an import (issue 13, point 3), drawn only while in view (TanStack Virtual) and
 * fetched from the worker a block at a time, so 100,000 rows cost what 30 do. Each cell in error
 * shows its message under its value; a cell is edited in place (Enter or leaving it keeps the
 * value, Escape drops it) and its row is checked again.
 */
export function ImportGrid({
  fileName,
  columns,
  otherProblems,
  total,
  onlyErrors,
  version,
  selected,
  onSelect,
  onEdit,
}: {
  fileName: string;
  /** The file's columns that fill a field, in file order. */
  columns: readonly ColumnSummary[];
  /** Whether some rows have problems in fields no column fills (shown in a last column). */
  otherProblems: boolean;
  total: number;
  onlyErrors: boolean;
  version: number;
  /** Rows chosen to go to the batch on their own. */
  selected: ReadonlySet<number>;
  onSelect(index: number, chosen: boolean): void;
  onEdit(index: number, column: number, value: string): Promise<void>;
}) {
  const worker = importWorker();
  const scrollRef = useRef<HTMLDivElement>(null);
  const tag = `${version}:${onlyErrors}`;
  const [blocks, setBlocks] = useState<Blocks>({ tag: '', rows: new Map() });
  const [editing, setEditing] = useState<{ index: number; column: number } | null>(null);
  const errorIdBase = useId();

  // Which rows have errors, for their heights: one byte per row, fetched when the rows change.
  const [flags, setFlags] = useState<{ tag: string; flags: Uint8Array } | null>(null);
  useEffect(() => {
    let current = true;
    void worker.errorFlags(onlyErrors).then(
      (next) => {
        if (current) setFlags({ tag, flags: next });
      },
      () => undefined,
    );
    return () => {
      current = false;
    };
  }, [worker, tag, onlyErrors]);

  // Where each row starts, from the rows with errors alone (few, sorted): a row's offset is its
  // position times the plain height plus the extra height of the error rows above it. Finding
  // the rows in view is a binary search, so a 100,000-row grid costs what a 30-row one does (a
  // general virtualizer lays out a list of every row whenever the rows change).
  const errorPositions = useMemo(() => {
    if (onlyErrors || !flags) return null;
    const positions: number[] = [];
    flags.flags.forEach((flag, position) => {
      if (flag === 1) positions.push(position);
    });
    return positions;
  }, [flags, onlyErrors]);
  const offset = (position: number): number => {
    if (onlyErrors) return position * errorRowPx;
    if (!errorPositions) return position * rowPx;
    let low = 0;
    let high = errorPositions.length;
    while (low < high) {
      const mid = (low + high) >> 1;
      if ((errorPositions[mid] ?? 0) < position) low = mid + 1;
      else high = mid;
    }
    return position * rowPx + low * (errorRowPx - rowPx);
  };
  /** The row at `y` pixels from the top (the last one past the end). */
  const rowAtY = (y: number): number => {
    let low = 0;
    let high = Math.max(0, total - 1);
    while (low < high) {
      const mid = (low + high + 1) >> 1;
      if (offset(mid) <= y) low = mid;
      else high = mid - 1;
    }
    return low;
  };
  const [view, setView] = useState({ top: 0, height: 600 });
  useEffect(() => {
    const box = scrollRef.current;
    if (!box) return;
    let frame = 0;
    const read = () => {
      frame = 0;
      setView({ top: box.scrollTop, height: box.clientHeight });
    };
    const onScroll = () => {
      frame ||= requestAnimationFrame(read);
    };
    read();
    box.addEventListener('scroll', onScroll, { passive: true });
    const resized = new ResizeObserver(onScroll);
    resized.observe(box);
    return () => {
      box.removeEventListener('scroll', onScroll);
      resized.disconnect();
      if (frame) cancelAnimationFrame(frame);
    };
  }, []);
  const overscan = 1;
  const drawnFirst = total === 0 ? 0 : Math.max(0, rowAtY(view.top) - overscan);
  const drawnLast =
    total === 0 ? -1 : Math.min(total - 1, rowAtY(view.top + view.height) + overscan);
  const drawn: Array<{ index: number; key: number }> = [];
  for (let index = drawnFirst; index <= drawnLast; index += 1) drawn.push({ index, key: index });
  const first = drawnFirst;
  const last = Math.max(drawnFirst, drawnLast);

  // The blocks in view, fetched again whenever the rows may have changed; until they come, the
  // rows fetched before stay drawn (no flicker after an edit).
  const firstBlock = Math.floor(first / blockSize);
  const lastBlock = Math.floor(last / blockSize);
  const pending = useRef(new Set<string>());
  useEffect(() => {
    for (let block = firstBlock; block <= lastBlock && total > 0; block += 1) {
      const want = `${tag}#${block}`;
      if (blocks.tag === tag && blocks.rows.has(block)) continue;
      if (pending.current.has(want)) continue;
      pending.current.add(want);
      void worker.window(block * blockSize, blockSize, onlyErrors).then(
        ({ rows }) => {
          pending.current.delete(want);
          setBlocks((current) => {
            const map = current.tag === tag ? new Map(current.rows) : new Map<number, GridRow[]>();
            map.set(block, rows);
            return { tag, rows: map };
          });
        },
        () => pending.current.delete(want),
      );
    }
  }, [worker, tag, onlyErrors, firstBlock, lastBlock, total, blocks]);

  const rowAt = (position: number): GridRow | undefined =>
    blocks.rows.get(Math.floor(position / blockSize))?.[position % blockSize];

  const before = offset(drawnFirst);
  const after = offset(total) - offset(drawnLast + 1);
  const width = columns.length + 1 + (otherProblems ? 1 : 0);
  const mapped = new Set(columns.map((column) => column.key));

  const commit = async (row: GridRow, column: number, value: string) => {
    setEditing(null);
    if (value === (row.cells[column] ?? '')) return;
    await onEdit(row.index, column, value);
  };

  return (
    <div
      ref={scrollRef}
      className="import-grid"
      role="region"
      aria-label={`Rows of ${fileName}`}
      // The rows scroll in this box: keyboard users reach it to scroll.
      tabIndex={0}
    >
      <table className="import-grid__table" aria-rowcount={total + 1}>
        <thead>
          <tr>
            <th scope="col" className="import-grid__row-head">
              Row
            </th>
            {columns.map((column) => (
              <th scope="col" key={column.column}>
                <span className="import-grid__label">{column.label}</span>
                {column.header !== column.label ? (
                  <span className="import-grid__header">“{column.header}”</span>
                ) : null}
                {column.errors > 0 ? (
                  <span className="import-grid__count">
                    {column.errors === 1 ? '1 error' : `${groupDigits(column.errors)} errors`}
                  </span>
                ) : null}
              </th>
            ))}
            {otherProblems ? <th scope="col">Other problems</th> : null}
          </tr>
        </thead>
        <tbody>
          {before > 0 ? (
            <tr aria-hidden="true">
              <td colSpan={width} className="import-grid__spacer" style={{ height: before }} />
            </tr>
          ) : null}
          {drawn.map((item) => {
            const row = rowAt(item.index);
            if (!row)
              return (
                <tr key={item.key} data-index={item.index} className="import-grid__row">
                  <td colSpan={width} className="import-grid__loading">
                    Loading…
                  </td>
                </tr>
              );
            const byField = new Map<string, SheetIssue>(
              row.errors.map((issue) => [issue.field, issue]),
            );
            const others = row.errors.filter((issue) => !mapped.has(issue.field));
            return (
              <tr
                key={item.key}
                data-index={item.index}
                aria-rowindex={item.index + 2}
                className={
                  row.errors.length > 0
                    ? 'import-grid__row import-grid__row--error'
                    : 'import-grid__row'
                }
              >
                <th scope="row" className="import-grid__row-head">
                  <label>
                    <input
                      type="checkbox"
                      checked={selected.has(row.index)}
                      onChange={(event) => onSelect(row.index, event.target.checked)}
                      aria-label={`Select row ${row.rowNumber}`}
                    />{' '}
                    {row.rowNumber}
                  </label>
                </th>
                {columns.map((column) => {
                  const value = row.cells[column.column] ?? '';
                  const issue = column.key ? byField.get(column.key) : undefined;
                  const errorId = `${errorIdBase}-${row.index}-${column.column}`;
                  const isEditing =
                    editing?.index === row.index && editing.column === column.column;
                  return (
                    <td
                      key={column.column}
                      className={issue ? 'import-cell import-cell--error' : 'import-cell'}
                    >
                      {isEditing ? (
                        <CellEditor
                          label={`${column.label ?? column.header}, row ${row.rowNumber}`}
                          value={value}
                          describedBy={issue ? errorId : undefined}
                          onDone={(next) =>
                            next === null ? setEditing(null) : void commit(row, column.column, next)
                          }
                        />
                      ) : (
                        <button
                          type="button"
                          className="import-cell__value"
                          aria-label={`${column.label ?? column.header}, row ${row.rowNumber}: ${value === '' ? 'blank' : value}`}
                          aria-describedby={issue ? errorId : undefined}
                          onClick={() => setEditing({ index: row.index, column: column.column })}
                        >
                          {value}
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
                    className={others.length > 0 ? 'import-cell import-cell--error' : 'import-cell'}
                  >
                    {others.map((issue) => (
                      <span key={issue.field} className="import-cell__error" title={issue.message}>
                        {issue.message}
                      </span>
                    ))}
                  </td>
                ) : null}
              </tr>
            );
          })}
          {after > 0 ? (
            <tr aria-hidden="true">
              <td colSpan={width} className="import-grid__spacer" style={{ height: after }} />
            </tr>
          ) : null}
        </tbody>
      </table>
    </div>
  );
}

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
