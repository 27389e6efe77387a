import type { BatchTray } from '@/core/batch/hooks/use-batch-tray';
import type { BatchKind } from '@/core/batch/model/batch-kind';
import type { TrayItem } from '@/core/batch/model/tray-state';
import { useVirtualRows } from '@/shared/ui/use-virtual-rows';
import { TrayItemRow, type TrayItemRowProps } from './tray-item-row';

/** An estimate for items not yet drawn; each drawn item is measured. */
const estimatedItemPx = 120;

export interface TrayItemListProps extends Pick<
  TrayItemRowProps,
  'kind' | 'sending' | 'onEdit' | 'onRemove' | 'onResolve'
> {
  kind: BatchKind;
  items: readonly TrayItem[];
  checks: ReadonlyArray<readonly string[] | null>;
  editingItemId?: string | undefined;
  /** The items of a lost send (locked). */
  lockedIds?: readonly string[] | undefined;
  tray: BatchTray;
}

/**
 * The tray's items in a box of their own that draws only the items in view (TanStack Virtual),
 * so a 500-item batch costs the page what a dozen do. The list keeps its numbering (`value`).
 */
export function TrayItemList({
  kind,
  items,
  checks,
  editingItemId,
  lockedIds,
  sending,
  tray,
  onEdit,
  onRemove,
  onResolve,
}: TrayItemListProps) {
  const { scrollRef, drawn, measure, before, after } = useVirtualRows({
    rows: items,
    keyOf: (item) => item.id,
    estimatedPx: estimatedItemPx,
    overscan: 4,
  });
  const locked = new Set(lockedIds ?? []);

  return (
    <div ref={scrollRef} className="tray__scroll">
      <ol className="tray__items" style={{ paddingTop: before, paddingBottom: after }}>
        {drawn.map((row) => {
          const item = items[row.index];
          if (!item) return null;
          return (
            <TrayItemRow
              key={row.key}
              measureRef={measure}
              kind={kind}
              item={item}
              index={row.index}
              problems={checks[row.index] ?? null}
              editing={item.id === editingItemId}
              locked={locked.has(item.id)}
              sending={sending}
              onEdit={onEdit}
              onRemove={onRemove}
              onResolve={onResolve}
              onSplit={tray.split}
              onDuplicate={tray.duplicate}
            />
          );
        })}
      </ol>
    </div>
  );
}
