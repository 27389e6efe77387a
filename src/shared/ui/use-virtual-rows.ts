import { useVirtualizer } from '@tanstack/react-virtual';
import { useRef } from 'react';

/**
 * Rows drawn only while in view (TanStack Virtual), for a list or table that scrolls in its own
 * box: the box's ref, the rows to draw, each row's `measure` ref (rows are measured, so they may
 * wrap), and the space to leave before and after them (padding or spacer rows).
 */
export function useVirtualRows<T>({
  rows,
  keyOf,
  estimatedPx,
  overscan,
}: {
  rows: readonly T[];
  keyOf: (row: T) => string;
  estimatedPx: number;
  overscan: number;
}) {
  const scrollRef = useRef<HTMLDivElement>(null);
  // The compiler leaves users of this hook unmemoized; their rows are memo'd instead.
  // eslint-disable-next-line react-hooks/incompatible-library
  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => estimatedPx,
    getItemKey: (index) => {
      const row = rows[index];
      return row === undefined ? index : keyOf(row);
    },
    overscan,
  });
  const drawn = virtualizer.getVirtualItems();
  return {
    scrollRef,
    drawn,
    measure: virtualizer.measureElement,
    before: drawn[0]?.start ?? 0,
    after: virtualizer.getTotalSize() - (drawn.at(-1)?.end ?? 0),
  };
}
