import type { DateFormat } from '@/domain';
import { withDateFormat } from '@/domain';
import type { BatchKind } from './batch-kind';
import { itemIssues } from './result-fields';
import type { TrayItem } from './tray-state';

export interface CopyPlan {
  /** The items as the other connection's tray gets them: new ids, its date format. */
  copied: TrayItem[];
  /** Amends loaded from this VMS: they change a record of this VMS only, so they stay. */
  amendsLeft: number;
  /** Copied items the other connection's checks find problems in, to fix there before sending. */
  needFixing: number;
}

/**
 * A batch copied to another connection's tray, re-checked under that connection's settings: each
 * item is a new one (a new id, no send key, none of this VMS's results), its dates written as the
 * other VMS reads them. Nothing leaves this tray.
 */
export function planCopy(
  kind: Pick<BatchKind, 'id' | 'itemIssues'>,
  items: readonly TrayItem[],
  from: DateFormat,
  to: DateFormat,
  now: string,
  newId: () => string,
): CopyPlan {
  const movable = items.filter((item) => item.loaded === undefined);
  const copied = movable.map((item): TrayItem => ({
    id: newId(),
    wire: withDateFormat(kind.id, item.wire, from, to),
    addedAt: now,
    ...(item.raw === undefined ? {} : { raw: item.raw }),
  }));
  return {
    copied,
    amendsLeft: items.length - movable.length,
    needFixing: copied.filter(
      (item) => item.raw !== undefined || itemIssues(kind, item.wire, to).length > 0,
    ).length,
  };
}
