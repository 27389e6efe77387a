import { describe, expect, it } from 'vitest';
import { scheduledRunTitle } from './notifications';

const run = {
  suiteName: 'UAT regression',
  connectionLabel: 'UAT',
  newlyFailing: [] as string[],
  fixed: [] as string[],
  passed: 12,
  total: 12,
  interrupted: false,
};

describe('a scheduled run’s notification title', () => {
  it('names the newly failing cases, then the fixed ones', () => {
    expect(
      scheduledRunTitle({
        ...run,
        newlyFailing: ['Create req', 'Candidate 2'],
        fixed: ['Old bug'],
        passed: 10,
      }),
    ).toBe(
      "Suite 'UAT regression' on UAT: 2 newly failing: Create req, Candidate 2; 1 fixed: Old bug",
    );
  });

  it('names five and counts the rest', () => {
    const names = ['a', 'b', 'c', 'd', 'e', 'f', 'g'];
    expect(scheduledRunTitle({ ...run, newlyFailing: names, passed: 5 })).toBe(
      "Suite 'UAT regression' on UAT: 7 newly failing: a, b, c, d, e and 2 more",
    );
  });

  it('says when nothing changed, and when the run was cut short', () => {
    expect(scheduledRunTitle({ ...run, passed: 11 })).toBe(
      "Suite 'UAT regression' on UAT: no change, 11 of 12 passing",
    );
    expect(scheduledRunTitle({ ...run, passed: 3, interrupted: true })).toBe(
      "Suite 'UAT regression' on UAT: interrupted, 3 of 12 passing",
    );
  });
});
