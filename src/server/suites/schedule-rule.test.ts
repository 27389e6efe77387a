import { describe, expect, it } from 'vitest';
import {
  checkScheduleRule,
  missedOccurrence,
  nextOccurrence,
  type ScheduleRule,
} from './schedule-rule';

const weekdaysLondon: ScheduleRule = { cron: '0 6 * * 1-5', timeZone: 'Europe/London' };

describe('a schedule rule', () => {
  it('runs weekdays at 06:00 London time, in winter (UTC+0) and in summer (UTC+1)', () => {
    // Friday 27 November 2026, noon UTC: next is Monday the 30th at 06:00 GMT.
    expect(nextOccurrence(weekdaysLondon, new Date('2026-11-27T12:00:00Z'))?.toISOString()).toBe(
      '2026-11-30T06:00:00.000Z',
    );
    // Summer time starts on Sunday 28 March 2027: Monday the 29th at 06:00 BST is 05:00 UTC.
    expect(nextOccurrence(weekdaysLondon, new Date('2027-03-26T12:00:00Z'))?.toISOString()).toBe(
      '2027-03-29T05:00:00.000Z',
    );
  });

  it('is checked when typed, with the next occurrence for the page', () => {
    expect(
      checkScheduleRule(
        { cron: ' 0  6 * * 1-5 ', timeZone: 'Europe/London' },
        new Date('2026-11-29T16:00:00Z'),
      ),
    ).toEqual({
      rule: weekdaysLondon,
      next: new Date('2026-11-30T06:00:00Z'),
    });
  });

  it.each([
    [
      '61 * * * *',
      'UTC',
      'The schedule "61 * * * *" cannot be read (Invalid value for minute: 61); write five fields',
    ],
    ['0 6 * *', 'UTC', 'The schedule "0 6 * *" cannot be read'],
    ['every weekday at six', 'UTC', 'e.g. "0 6 * * 1-5" for weekdays at 06:00'],
    ['0 0 6 * * 1-5', 'UTC', 'The schedule "0 0 6 * * 1-5" cannot be read'],
    ['0 0 31 2 *', 'UTC', 'The schedule "0 0 31 2 *" never comes round'],
    [
      '0 6 * * 1-5',
      'Europe/Londn',
      '"Europe/Londn" is not a time zone; use a name such as Europe/London',
    ],
    ['0 6 * * 1-5', '', '"" is not a time zone'],
  ])('refuses %s in %s', (cron, timeZone, message) => {
    const checked = checkScheduleRule({ cron, timeZone }, new Date('2026-11-29T16:00:00Z'));
    expect('problem' in checked ? checked.problem : '').toContain(message);
  });
});

describe('an occurrence missed while the portal was down', () => {
  const everyMinute: ScheduleRule = { cron: '* * * * *', timeZone: 'UTC' };

  it('is the latest one since the last, however many were missed', () => {
    const lastDue = new Date('2026-11-27T06:00:00Z'); // Friday's run
    // Down from Friday afternoon to Tuesday 10:00: Monday and Tuesday 06:00 were missed; Tuesday's is run.
    expect(
      missedOccurrence(weekdaysLondon, lastDue, new Date('2026-12-01T10:00:00Z'))?.toISOString(),
    ).toBe('2026-12-01T06:00:00.000Z');
    expect(
      missedOccurrence(
        everyMinute,
        new Date('2026-11-29T16:00:00Z'),
        new Date('2026-11-29T16:07:30Z'),
      )?.toISOString(),
    ).toBe('2026-11-29T16:07:00.000Z');
  });

  it('is none when nothing came due since the last', () => {
    expect(
      missedOccurrence(
        weekdaysLondon,
        new Date('2026-11-30T06:00:00Z'),
        new Date('2026-11-30T18:00:00Z'),
      ),
    ).toBeNull();
    // Exactly at an occurrence that was the last one run: nothing missed.
    expect(
      missedOccurrence(
        everyMinute,
        new Date('2026-11-29T16:07:00Z'),
        new Date('2026-11-29T16:07:00Z'),
      ),
    ).toBeNull();
  });

  it('counts an occurrence due at this very second as due, and not one due a moment after now', () => {
    expect(
      missedOccurrence(
        everyMinute,
        new Date('2026-11-29T16:05:00Z'),
        new Date('2026-11-29T16:06:59.500Z'),
      )?.toISOString(),
    ).toBe('2026-11-29T16:06:00.000Z');
    expect(
      missedOccurrence(
        everyMinute,
        new Date('2026-11-29T16:06:00Z'),
        new Date('2026-11-29T16:07:00Z'),
      )?.toISOString(),
    ).toBe('2026-11-29T16:07:00.000Z');
  });
});
