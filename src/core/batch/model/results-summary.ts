import type { Tone } from '@/shared/ui/status-badge';
import type { ResultRow } from './batch-kind';

export interface StatusCount {
  status: string;
  tone: Tone;
  count: number;
}

export interface ResultsSummary {
  /** One entry per status the VMS gave, finished outcomes first, Pending last. */
  counts: StatusCount[];
  /** Rows no longer Pending. */
  done: number;
  total: number;
}

// Successes first, then what needs the user (errors, incomplete…), then what is still going on.
const toneOrder: Record<Tone, number> = {
  success: 0,
  error: 1,
  warning: 2,
  neutral: 3,
  pending: 4,
};

/** What a batch's result rows add up to, for the results view and the batch panel. */
export function summarizeResults(rows: readonly ResultRow[]): ResultsSummary {
  const byStatus = new Map<string, StatusCount>();
  let done = 0;
  for (const row of rows) {
    if (!row.pending) done += 1;
    const entry = byStatus.get(row.status);
    if (entry) entry.count += 1;
    else byStatus.set(row.status, { status: row.status, tone: row.tone, count: 1 });
  }
  const counts = [...byStatus.values()].sort(
    (a, b) => toneOrder[a.tone] - toneOrder[b.tone] || a.status.localeCompare(b.status),
  );
  return { counts, done, total: rows.length };
}
