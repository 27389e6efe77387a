import type { BatchKind, WireItem } from '@/core/batch/model/batch-kind';
import type { DraftOrigin } from '@/core/batch/model/drafts';
import type { LoadedRecord } from '@/domain';
import { countOf } from '@/shared/lib/format';
import { useBatchTray } from './use-batch-tray';

/** The submit button of a workspace form that adds a new item. */
export const addToBatchLabel = 'Add to batch';

/**
 * Where a workspace form's "Add to batch" puts its item: a new tray item, or the item the form is
 * editing (Edit in the tray), replaced in place. Gives the submit button's label and the note
 * said afterwards.
 */
export function useTrayTarget(kind: BatchKind, clientOrgId: number, origin: DraftOrigin) {
  const tray = useBatchTray(kind.id, clientOrgId, { suspend: false });
  const items = tray.state.items;
  const editingId =
    origin.type === 'tray-item' && items.some((item) => item.id === origin.itemId)
      ? origin.itemId
      : null;
  const editingIndex = editingId ? items.findIndex((item) => item.id === editingId) : -1;
  return {
    tray,
    editingId,
    submitLabel: editingId ? `Update item ${editingIndex + 1} in the batch` : addToBatchLabel,
    /** Adds or replaces the item; returns the note that says so, naming it by `name`. */
    put(wire: WireItem, name: string, loaded?: LoadedRecord): string {
      const count = items.length + (editingId ? 0 : 1);
      if (editingId) tray.replace(editingId, wire, loaded);
      else
        tray.add(
          wire,
          loaded,
          // Fix: the item sends a failed row again, and that row will say so.
          origin.type === 'result'
            ? { batchId: origin.batchId, row: origin.row, message: origin.message ?? '' }
            : undefined,
        );
      return `${editingId ? 'Updated' : 'Added'} ${name} ${editingId ? 'in' : 'to'} the batch, which now holds ${countOf(count, kind.noun.one, kind.noun.many)}. Send it from the batch panel, or fill in another.`;
    },
  };
}
