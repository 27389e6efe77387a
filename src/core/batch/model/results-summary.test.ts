import { describe, expect, it } from 'vitest';
import type { ResultRow } from './batch-kind';
import { summarizeResults } from './results-summary';

/** The counts as the results view shows them, in order. */
const shown = (summary: ReturnType<typeof summarizeResults>) =>
  summary.counts.map((entry) => `${entry.count} ${entry.status}`).join(' · ');

const row = (n: number, status: string, tone: ResultRow['tone']): ResultRow => ({
  row: n,
  status,
  tone,
  pending: status === 'Pending',
  failed: tone === 'error',
  message: '',
  createdId: '',
  reference: `R-${n}`,
});

describe('summarizeResults', () => {
  it('counts each status, successes first and Pending last, and says how many are done', () => {
    const rows = [
      row(1, 'Pending', 'pending'),
      row(2, 'Error', 'error'),
      row(3, 'Success', 'success'),
      row(4, 'Pending', 'pending'),
      row(5, 'Success', 'success'),
      row(6, 'Success', 'success'),
    ];
    const summary = summarizeResults(rows);
    expect(shown(summary)).toBe('3 Success · 1 Error · 2 Pending');
    expect(summary.done).toBe(4);
    expect(summary.total).toBe(6);
    expect(summary.counts.map((entry) => entry.tone)).toEqual(['success', 'error', 'pending']);
  });

  it('keeps statuses it does not know, such as Incomplete, between failures and Pending', () => {
    const summary = summarizeResults([
      row(1, 'Pending', 'pending'),
      row(2, 'Incomplete', 'warning'),
      row(3, 'Error', 'error'),
    ]);
    expect(shown(summary)).toBe('1 Error · 1 Incomplete · 1 Pending');
  });

  it('is empty for a batch with no rows yet', () => {
    expect(summarizeResults([])).toEqual({ counts: [], done: 0, total: 0 });
  });
});
