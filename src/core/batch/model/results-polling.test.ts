import { describe, expect, it } from 'vitest';
import type { ResultRow } from './batch-kind';
import { isSettled, maxPollMs, nextPollDelay } from './results-polling';

const row = (status: string, pending = status === 'Pending'): ResultRow => ({
  row: 1,
  status,
  tone: 'neutral',
  pending,
  failed: status === 'Error',
  message: '',
  createdId: '',
  reference: '',
});

describe('results polling', () => {
  it('polls soon at first, then backs off by half each time, up to 5 s', () => {
    const pending = [row('Pending')];
    const delays = [1, 2, 3, 4, 5, 6, 7, 8].map((polls) => nextPollDelay(pending, polls));
    expect(delays).toEqual([500, 750, 1125, 1688, 2531, 3797, 5000, 5000]);
    expect(nextPollDelay(undefined, 0)).toBe(500);
    expect(Math.max(...delays.map(Number))).toBe(maxPollMs);
  });

  it('stops when nothing is Pending', () => {
    expect(nextPollDelay([row('Success'), row('Error')], 3)).toBe(false);
    expect(nextPollDelay([row('Success'), row('Pending')], 3)).toBe(750 * 1.5);
  });

  it('does not call an empty answer final', () => {
    expect(isSettled([])).toBe(false);
  });
});
