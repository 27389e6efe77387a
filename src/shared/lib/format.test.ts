import { describe, expect, it } from 'vitest';
import { countOf, formatDateTime, formatRecordDateTime, groupDigits } from './format';

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

  it('shows a date-time it cannot read as it is written, never as another date', () => {
    // `new Date` reads both, as 1 December and as 3 March 2026 in the browser's zone.
    expect(formatDateTime('12/01/2026 09:00:00')).toBe('12/01/2026 09:00:00');
    expect(formatDateTime('2026-03-02 14:30')).toBe('2026-03-02 14:30');
    expect(formatDateTime('2026-02-30T10:00:00Z')).toBe('2026-02-30T10:00:00Z');
    expect(formatDateTime('2026-03-02T15:30:00+01:00')).toBe(
      formatDateTime('2026-03-02T14:30:00Z'),
    );
  });
});

describe('a record’s time for its reader', () => {
  it('is on the reader’s clock, with the zone named, summer time included', () => {
    // 09:30 UTC is 10:30 in Berlin in November (UTC+1), 11:30 in July (UTC+2).
    expect(
      formatRecordDateTime('2026-11-21T09:30:00Z', { timeZone: 'Europe/Berlin', locale: 'en-GB' }),
    ).toBe('21 Nov 2026, 10:30 CET');
    expect(
      formatRecordDateTime('2026-07-01T09:30:00Z', { timeZone: 'Europe/Berlin', locale: 'en-GB' }),
    ).toBe('1 Jul 2026, 11:30 CEST');
    // The same instant read in New York, where it is still the small hours.
    expect(
      formatRecordDateTime('2026-11-21T09:30:00Z', {
        timeZone: 'America/New_York',
        locale: 'en-US',
      }),
    ).toBe('Nov 21, 2026, 04:30 AM EST');
  });

  it('leaves text it cannot read as it is', () => {
    expect(formatRecordDateTime('21/11/2026 09:30', { timeZone: 'Europe/Berlin' })).toBe(
      '21/11/2026 09:30',
    );
  });
});
