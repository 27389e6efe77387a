/* eslint-disable jsx-a11y/no-redundant-roles, jsx-a11y/no-interactive-element-to-noninteractive-role --
 * The grid's table elements are drawn as blocks and flex rows (app.css: a row redrawn lays out only
 * itself), which drops their table semantics in some browsers' accessibility trees; the roles they
 * have are given again explicitly so the grid stays a table to assistive technology. */
import { startTransition, useEffect, useId, useMemo, useRef, useState } from 'react';
import { importWorker } from '@/core/import/api/import-worker';
import type { ColumnSummary, GridRow } from '@/core/import/model/import-view';
import { filling, nextRowFill, noRowFill } from '@/core/import/model/row-keys';
import { groupDigits } from '@/shared/lib/format';
import type { RowActions, RowCellsProps } from './import-grid-cells';
import { RowCells } from './import-grid-cells';

/** Rows fetched from the worker at a time. */
const blockSize = 100;
/**
 * Row heights, fixed: a row is not measured (measuring 100,000 rows as they scroll by costs more
 * than drawing them); a row with errors has room for two lines of message under its values.
 */
const rowPx = 44;
const errorRowPx = 84;
/**
 * Rows whose cells change in one frame, at most: a jump changes every row drawn, and laying out
 * ~13 rows of cells at once took 50-90 ms at a 4x slowed CPU (decision 024).
 */
const rowsPerFrame = 3;

interface Blocks {
  tag: string;
  rows: Map<number, GridRow[]>;
}

/**
 * The rows of an import, drawn only while in view and fetched from the worker a block at a time,
 * so 100,000 rows cost what 30 do. The windowing is this component's own, not TanStack Virtual
 * (which the requisition list uses): a row's height depends only on whether it has errors, so its
 * offset is found by a binary search over the few error rows, where a general virtualizer keeps a
 * measurement per row and lays out all 100,000 again whenever an edit changes the rows: measured
 * with TanStack Virtual 3.19 in Node on the 2-core CI machine, 3.2 ms for each fixed cell of a
 * 100,000-row file (a slow laptop is several times that), where the search here takes well under
 * a microsecond. Each cell in error shows its message under its value; a cell is edited in place
 * (Enter or leaving it keeps the value, Escape drops it) and its row is checked again.
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
  const wantedFirst = total === 0 ? 0 : Math.max(0, rowAtY(view.top) - overscan);
  const wantedLast =
    total === 0 ? -1 : Math.min(total - 1, rowAtY(view.top + view.height) + overscan);
  // The blocks in view, fetched again whenever the rows may have changed; until they come, the
  // rows fetched before stay drawn (no flicker after an edit).
  const firstBlock = Math.floor(wantedFirst / blockSize);
  const lastBlock = Math.floor(Math.max(wantedFirst, wantedLast) / blockSize);
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
          // Drawn as a transition: React builds the rows in slices of a few milliseconds, so a
          // block that arrives while the grid scrolls is no long task.
          startTransition(() =>
            setBlocks((current) => {
              const map =
                current.tag === tag ? new Map(current.rows) : new Map<number, GridRow[]>();
              map.set(block, rows);
              return { tag, rows: map };
            }),
          );
        },
        () => pending.current.delete(want),
      );
    }
  }, [worker, tag, onlyErrors, firstBlock, lastBlock, total, blocks]);

  const rowAt = (position: number): GridRow | undefined =>
    blocks.rows.get(Math.floor(position / blockSize))?.[position % blockSize];

  // The rows drawn: those in view once their blocks have come. Until then the rows drawn before
  // stay as they were (out of view, so the view shows blank for a frame or two): drawing
  // placeholders and then the rows would build every row twice as the grid scrolls.
  const has = (from: number, to: number) => {
    for (let block = Math.floor(from / blockSize); block <= Math.floor(to / blockSize); block += 1)
      if (!blocks.rows.has(block)) return false;
    return true;
  };
  const [shown, setShown] = useState<{ first: number; last: number } | null>(null);
  const ready = total > 0 && has(wantedFirst, wantedLast);
  if (ready && (shown?.first !== wantedFirst || shown.last !== wantedLast))
    setShown({ first: wantedFirst, last: wantedLast });
  const keep = !ready && shown !== null && shown.last < total && has(shown.first, shown.last);
  const drawnFirst = keep ? shown.first : wantedFirst;
  const drawnLast = keep ? shown.last : wantedLast;
  const waiting = drawnFirst !== wantedFirst || drawnLast !== wantedLast;
  // Keys that move no element as the grid scrolls, and rows filled a few a frame after a jump
  // (row-keys.ts): the frame counts up while rows are being filled.
  const [frame, setFrame] = useState(0);
  const [fill, setFill] = useState(noRowFill);
  const nextFill = nextRowFill(fill, drawnFirst, drawnLast, frame, rowsPerFrame);
  if (nextFill !== fill) setFill(nextFill);
  const stillFilling = filling(nextFill);
  useEffect(() => {
    if (!stillFilling) return;
    const id = requestAnimationFrame(() => setFrame((current) => current + 1));
    return () => cancelAnimationFrame(id);
  }, [stillFilling, frame]);
  const keyOf = (index: number) => nextFill.keys.keys[index - drawnFirst] ?? -1 - index;
  const showsOf = (index: number) => nextFill.shows[index - drawnFirst] ?? index;

  const before = offset(drawnFirst);
  const after = offset(total) - offset(drawnLast + 1);
  const width = columns.length + 1 + (otherProblems ? 1 : 0);

  const rowsToDraw: number[] = [];
  for (let index = drawnFirst; index <= drawnLast; index += 1) rowsToDraw.push(index);

  // What a row may do, behind one object that never changes: a row is drawn again only when its
  // own data, choice or editing changes, not whenever the grid scrolls.
  const latest = useRef({ onSelect, onEdit });
  useEffect(() => {
    latest.current = { onSelect, onEdit };
  });
  const actions = useMemo<RowActions>(
    () => ({
      select: (index, chosen) => latest.current.onSelect(index, chosen),
      startEdit: (index, column) => setEditing({ index, column }),
      stopEdit: () => setEditing(null),
      commit: async (row, column, value) => {
        setEditing(null);
        if (value === (row.cells[column] ?? '')) return;
        await latest.current.onEdit(row.index, column, value);
      },
    }),
    [],
  );

  return (
    <div
      ref={scrollRef}
      className="import-grid"
      role="region"
      aria-label={`Rows of ${fileName}`}
      // The rows scroll in this box: keyboard users reach it to scroll.
      tabIndex={0}
    >
      <table
        role="table"
        className="import-grid__table"
        aria-rowcount={total + 1}
        aria-busy={waiting}
      >
        <thead role="rowgroup">
          <tr role="row">
            <th role="columnheader" scope="col" className="import-grid__row-head">
              Row
            </th>
            {columns.map((column) => (
              <th role="columnheader" scope="col" key={column.column}>
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
            {otherProblems ? (
              <th role="columnheader" scope="col">
                Other problems
              </th>
            ) : null}
          </tr>
        </thead>
        <tbody role="rowgroup">
          <SpacerRow height={before} width={width} />
          {rowsToDraw.map((index) => {
            const shows = showsOf(index);
            const row = rowAt(shows);
            if (!row)
              return (
                <tr role="row" key={keyOf(index)} data-index={index} className="import-grid__row">
                  <td role="cell" colSpan={width} className="import-grid__loading">
                    Loading…
                  </td>
                </tr>
              );
            return (
              <ImportGridRow
                key={keyOf(index)}
                position={shows}
                row={row}
                pending={shows !== index}
                tall={Boolean((shows === index ? row : rowAt(index))?.errors.length)}
                columns={columns}
                otherProblems={otherProblems}
                chosen={selected.has(row.index)}
                editingColumn={editing?.index === row.index ? editing.column : null}
                errorIdBase={errorIdBase}
                actions={actions}
              />
            );
          })}
          <SpacerRow height={after} width={width} />
        </tbody>
      </table>
    </div>
  );
}

/** The height of the rows not drawn, above or below those that are (nothing when none). */
function SpacerRow({ height, width }: { height: number; width: number }) {
  if (height <= 0) return null;
  return (
    <tr role="row" aria-hidden="true">
      <td role="cell" colSpan={width} className="import-grid__spacer" style={{ height }} />
    </tr>
  );
}

/**
 * One row of the grid: its cells, each with its message when in error. The row and its cells are
 * drawn apart: a row hidden or shown while a jump is filled (pending) changes its element alone.
 */
function ImportGridRow({
  position,
  pending,
  tall,
  ...cells
}: {
  /** Its place among the rows listed (the file's, or those with errors). */
  position: number;
  /**
   * Cells kept from before a jump, not yet this place's: hidden (and out of the accessibility
   * tree) until filled, a frame or two later.
   */
  pending: boolean;
  /** Whether the row at this place has errors: its height, filled or not. */
  tall: boolean;
} & RowCellsProps) {
  return (
    <tr
      role="row"
      data-index={position}
      aria-rowindex={position + 2}
      aria-hidden={pending || undefined}
      className={`import-grid__row${tall ? ' import-grid__row--error' : ''}${pending ? ' import-grid__row--pending' : ''}`}
    >
      <RowCells {...cells} />
    </tr>
  );
}
