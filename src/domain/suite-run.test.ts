import { describe, expect, it } from 'vitest';
import { compareRuns, startRunSchema, verdictCounts } from './suite-run';

describe('compareRuns', () => {
  it('names each case against the run before: newly failing, fixed, still failing, passing, new', () => {
    const before = [
      { id: 'a', passed: true },
      { id: 'b', passed: false },
      { id: 'c', passed: false },
      { id: 'd', passed: true },
      { id: 'gone', passed: true },
    ];
    const now = [
      { id: 'a', passed: false },
      { id: 'b', passed: true },
      { id: 'c', passed: false },
      { id: 'd', passed: true },
      { id: 'e', passed: false },
    ];
    expect(compareRuns(now, before)).toEqual([
      'newly-failing',
      'fixed',
      'still-failing',
      'passing',
      'new',
    ]);
  });

  it('calls every case new when there was no run before', () => {
    expect(compareRuns([{ id: 'a', passed: true }], null)).toEqual(['new']);
  });

  it('counts every verdict, zero included', () => {
    expect(verdictCounts(['passing', 'passing', 'fixed', null])).toEqual({
      'newly-failing': 0,
      fixed: 1,
      'still-failing': 0,
      passing: 2,
      new: 0,
    });
  });
});

describe('startRunSchema', () => {
  it('asks for exactly one of a stored suite, its name or a suite file', () => {
    expect(startRunSchema.safeParse({ suiteId: 3 }).success).toBe(true);
    expect(startRunSchema.safeParse({}).error?.issues[0]?.message).toBe(
      'say what to run: one of suiteId, suiteName or suite',
    );
    expect(startRunSchema.safeParse({ suiteId: 3, suiteName: 'x' }).success).toBe(false);
  });
});
