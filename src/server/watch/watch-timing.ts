import type { BatchResultRow } from '@/domain/batch-results';
import type { PayloadKindDescriptor } from '@/domain/payload-kind';

/** How long the watcher waits between checks of one batch (decision 050). */
export interface Backoff {
  /** The wait before the first check; each later wait doubles it. */
  firstMs: number;
  /** No wait is longer. */
  maxMs: number;
}

export const defaultBackoff: Backoff = { firstMs: 1000, maxMs: 60_000 };

/**
 * The wait after `checks` checks of a batch: `firstMs` doubled each time up to `maxMs`, times a
 * random factor in [0.5, 1) ("equal jitter"), so that batches accepted together spread out
 * instead of asking together.
 */
export function backoffMs(checks: number, backoff: Backoff, random: () => number): number {
  const ceiling = Math.min(backoff.maxMs, backoff.firstMs * 2 ** Math.min(checks, 30));
  return Math.round(ceiling * (0.5 + random() / 2));
}

/** A `Retry-After` header (seconds, or an HTTP date) as a wait from `now`; null when none or unreadable. */
export function retryAfterMs(header: string | undefined, now: number): number | null {
  if (header === undefined || header.trim() === '') return null;
  const value = header.trim();
  if (/^\d+$/.test(value)) return Number(value) * 1000;
  const at = Date.parse(value);
  return Number.isNaN(at) ? null : Math.max(0, at - now);
}

/** Whether a batch's rows are all final: at least one row, none whose status means pending. */
export function isSettled(
  kind: Pick<PayloadKindDescriptor, 'statusMeanings'>,
  rows: readonly BatchResultRow[],
): boolean {
  return (
    rows.length > 0 &&
    rows.every(
      (row) =>
        !Object.hasOwn(kind.statusMeanings, row.status) ||
        kind.statusMeanings[row.status] !== 'pending',
    )
  );
}

/** What a given-up batch reads (WATCH_GIVE_UP_HOURS). */
export function stillPendingAfter(giveUpMs: number): string {
  const hours = giveUpMs / 3_600_000;
  return `still pending at the VMS after ${Number.isInteger(hours) ? hours : hours.toFixed(1)} h`;
}
