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
    measureElement: (element, entry, instance) => {
      const box = entry?.borderBoxSize[0];
      if (box) return Math.round(box.blockSize);
      // A row just drawn: its size last known, or the estimate. Reading offsetHeight here (the
      // library's default) forces a layout of the whole page in the middle of React's commit, for
      // every mount; the ResizeObserver reports the real size at the frame's own layout instead.
      const key = instance.options.getItemKey(instance.indexFromElement(element));
      return instance.itemSizeCache.get(key) ?? estimatedPx;
    },
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
