import type { ResultRow } from './batch-kind';

/**
 * How often a batch's results are asked for while some rows are Pending: soon at first (the
 * sandbox answers within a second), then backing off by half each time up to 5 s, so a batch
 * that takes minutes costs a few requests a minute. Stops as soon as nothing is Pending.
 */
export const firstPollMs = 500;
export const pollGrowth = 1.5;
export const maxPollMs = 5_000;

export function isSettled(rows: readonly ResultRow[]): boolean {
  return rows.length > 0 && rows.every((row) => !row.pending);
}

/** The wait before the next poll; false when the results are final. `polls` counts answers. */
export function nextPollDelay(
  rows: readonly ResultRow[] | undefined,
  polls: number,
): number | false {
  if (rows && isSettled(rows)) return false;
  return Math.min(maxPollMs, Math.round(firstPollMs * pollGrowth ** Math.max(0, polls - 1)));
}
