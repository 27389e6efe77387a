import { describe, expect, it } from 'vitest';
import { countOf, formatDateTime, groupDigits } from './format';

describe('numbers for people', () => {
  it('groups digits in threes with commas, as en-US writes them', () => {
    expect([0, 7, 999, 1000, 12345, 100000, 1234567].map(groupDigits)).toEqual([
      '0',
      '7',
      '999',
      '1,000',
      '12,345',
      '100,000',
      '1,234,567',
    ]);
    expect(groupDigits(-1234.5)).toBe('-1,234.5');
    expect(countOf(1, 'row', 'rows')).toBe('1 row');
    expect(countOf(100000, 'row', 'rows')).toBe('100,000 rows');
  });
});

describe('dates and times for people', () => {
  it('gives the minute, or the second when calls moments apart must be told apart', () => {
    const at = '2026-11-21T19:31:07Z';
    const minute = formatDateTime(at);
    const second = formatDateTime(at, { seconds: true });
    expect(second).toContain(':07');
    expect(minute).not.toContain(':07');
    expect(formatDateTime('not a time', { seconds: true })).toBe('not a time');
  });
});
