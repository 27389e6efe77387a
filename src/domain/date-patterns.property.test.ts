import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  datePatternProblem,
  readDate,
  readDateOrWhy,
  readDateTime,
  timeZoneProblem,
  writeDate,
  writeDateTime,
} from './date-patterns';

/*
 * The pattern reader and writer against what the patterns mean: every pattern writes an instant
 * that it reads back, it reads nothing it would not write, and a date that is not real is
 * unreadable rather than rolled over. Calendars are asked of `Date` and offsets of Intl, never of
 * the code under test.
 */

const dateTimePatterns = [
  'DD/MM/YYYY HH:mm:ss',
  'MM/DD/YYYY HH:mm:ss',
  'DD.MM.YYYY HH:mm',
  'YYYY-MM-DD HH:mm:ss',
  'M/D/YYYY h:mm A',
  'D/M/YYYY H:mm:ss',
  'YYYY-MM-DD[T]HH:mm:ss.SSS',
  'hh:mm:ss A, DD MM YYYY',
  'YYYYMMDDHHmmss',
  'iso-8601',
  'unix-seconds',
  'unix-milliseconds',
];
const datePatterns = [
  'YYYY-MM-DD',
  'DD/MM/YYYY',
  'MM/DD/YYYY',
  'DD.MM.YYYY',
  'M/D/YYYY',
  'iso-8601',
];
// UTC; two zones with summer time either side of the equator; a half-hour zone; and Lord Howe
// Island, whose summer time moves the clocks by half an hour.
const zones = ['UTC', 'America/New_York', 'Europe/Berlin', 'Asia/Kolkata', 'Australia/Lord_Howe'];

/** The smallest unit a pattern writes, in ms. */
function precisionMs(pattern: string): number {
  if (pattern === 'unix-milliseconds' || pattern === 'iso-8601' || pattern.includes('SSS')) {
    return 1;
  }
  if (pattern === 'unix-seconds' || pattern.includes('ss')) return 1000;
  return pattern.includes('mm') ? 60_000 : 3_600_000;
}

/** How far `zone`'s clocks are ahead of UTC at `utcMs`, asked of Intl directly. */
const intlFormats = new Map<string, Intl.DateTimeFormat>();
function intlOffset(zone: string, utcMs: number): number {
  const format =
    intlFormats.get(zone) ??
    new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
  intlFormats.set(zone, format);
  const parts = format.formatToParts(utcMs);
  const part = (type: string) => Number(parts.find((p) => p.type === type)?.value);
  const wall = Date.UTC(
    part('year'),
    part('month') - 1,
    part('day'),
    part('hour'),
    part('minute'),
    part('second'),
  );
  return wall - Math.floor(utcMs / 1000) * 1000;
}

// 1970–2100: after the zones' local mean times, within what Unix values write.
const instants = fc.integer({ min: 0, max: Date.UTC(2100, 0, 1) });

describe('every date-time pattern', () => {
  it.each(dateTimePatterns.flatMap((pattern) => zones.map((zone) => [pattern, zone])))(
    '%s in %s reads back the instant it wrote',
    (pattern, zone) => {
      fc.assert(
        fc.property(instants, (raw) => {
          const unit = precisionMs(pattern);
          const utcMs = Math.floor(raw / unit) * unit;
          const text = writeDateTime(utcMs, pattern, zone);
          const read = readDateTime(text, pattern, zone);
          expect(typeof read).toBe('number');
          // The text reads back to the same text, always.
          expect(writeDateTime(read as number, pattern, zone)).toBe(text);
          // And to the same instant, unless the clocks show that time twice (summer time ending):
          // then the first showing, an hour (or half an hour) earlier.
          const steady = [-3, 3].every(
            (hours) => intlOffset(zone, utcMs + hours * 3_600_000) === intlOffset(zone, utcMs),
          );
          if (steady || zone === 'UTC') expect(read).toBe(utcMs);
          else expect(read as number).toBeLessThanOrEqual(utcMs);
        }),
        { numRuns: 200 },
      );
    },
  );

  it('writes a pattern’s wall clock in its zone, as Intl shows it', () => {
    fc.assert(
      fc.property(instants, fc.constantFrom(...zones), (utcMs, zone) => {
        const text = writeDateTime(utcMs, 'YYYY-MM-DD HH:mm:ss', zone);
        const expected = new Intl.DateTimeFormat('sv-SE', {
          timeZone: zone,
          year: 'numeric',
          month: '2-digit',
          day: '2-digit',
          hour: '2-digit',
          minute: '2-digit',
          second: '2-digit',
          hourCycle: 'h23',
        }).format(utcMs);
        expect(text).toBe(expected);
      }),
      { numRuns: 500 },
    );
  });
});

describe('every date pattern', () => {
  const realDates = fc
    .date({ min: new Date('0001-01-01T00:00:00Z'), max: new Date('9999-12-31T00:00:00Z') })
    .filter((date) => !Number.isNaN(date.getTime()))
    .map((date) => date.toISOString().slice(0, 10));

  it.each(datePatterns)('%s reads back every real date it writes', (pattern) => {
    fc.assert(
      fc.property(realDates, (iso) => {
        const text = writeDate(iso, pattern);
        expect(text).not.toBeNull();
        expect(readDate(text as string, pattern)).toBe(iso);
      }),
      { numRuns: 1000 },
    );
  });
});

describe('reading is strict', () => {
  const pad = (value: number, width = 2) => String(value).padStart(width, '0');
  /** Whether `Date` keeps these fields as they are (it rolls 31 February into March). */
  const isReal = (year: number, month: number, day: number) => {
    const date = new Date(Date.UTC(2000, month - 1, day));
    date.setUTCFullYear(year);
    return (
      month >= 1 &&
      month <= 12 &&
      date.getUTCFullYear() === year &&
      date.getUTCMonth() === month - 1 &&
      date.getUTCDate() === day
    );
  };

  it('a day-first date is read only when it is real, and then as written', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 9999 }),
        fc.integer({ min: 0, max: 99 }),
        fc.integer({ min: 0, max: 99 }),
        (year, month, day) => {
          const read = readDate(`${pad(day)}/${pad(month)}/${pad(year, 4)}`, 'DD/MM/YYYY');
          expect(read).toBe(
            isReal(year, month, day) ? `${pad(year, 4)}-${pad(month)}-${pad(day)}` : null,
          );
        },
      ),
      { numRuns: 3000 },
    );
  });

  it('31/02/2026 and a month of 21 are unreadable, never another date', () => {
    expect(readDateOrWhy('31/02/2026', 'DD/MM/YYYY')).toBe('impossible');
    expect(readDateOrWhy('01/21/2026', 'DD/MM/YYYY')).toBe('impossible');
    expect(readDateOrWhy('29/02/2025', 'DD/MM/YYYY')).toBe('impossible');
    expect(readDate('29/02/2024', 'DD/MM/YYYY')).toBe('2024-02-29');
    expect(readDateTime('21/11/2026 24:00:00', 'DD/MM/YYYY HH:mm:ss', 'UTC')).toBe('impossible');
    expect(readDateTime('21/11/2026 09:60:00', 'DD/MM/YYYY HH:mm:ss', 'UTC')).toBe('impossible');
    expect(readDateTime('11/21/2026 09:30:00', 'DD/MM/YYYY HH:mm:ss', 'UTC')).toBe('impossible');
    expect(readDateTime('2026-02-30T10:00:00Z', 'iso-8601', 'UTC')).toBe('impossible');
  });

  it('a time of day is read only in range, and a 12-hour clock only from 1 to 12', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 99 }),
        fc.integer({ min: 0, max: 99 }),
        fc.constantFrom('AM', 'PM'),
        (hour, minute, meridiem) => {
          const twentyFour = readDateTime(
            `2026-11-21 ${pad(hour)}:${pad(minute)}`,
            'YYYY-MM-DD HH:mm',
            'UTC',
          );
          expect(twentyFour).toBe(
            hour <= 23 && minute <= 59 ? Date.UTC(2026, 10, 21, hour, minute) : 'impossible',
          );
          const twelve = readDateTime(
            `11/21/2026 ${hour}:${pad(minute)} ${meridiem}`,
            'MM/DD/YYYY h:mm A',
            'UTC',
          );
          const inRange = hour >= 1 && hour <= 12 && minute <= 59;
          const hour24 = (hour % 12) + (meridiem === 'PM' ? 12 : 0);
          expect(twelve).toBe(
            !inRange
              ? hour >= 100
                ? 'not-written-so'
                : 'impossible'
              : Date.UTC(2026, 10, 21, hour24, minute),
          );
        },
      ),
      { numRuns: 2000 },
    );
  });

  it('reads nothing a pattern would not write: what it reads, it writes back the same', () => {
    const alphabet = fc.constantFrom(...'0123456789/:. -APM'.split(''));
    fc.assert(
      fc.property(
        fc.constantFrom(...dateTimePatterns.filter((p) => !p.startsWith('unix'))),
        instants,
        fc.nat(30),
        alphabet,
        (pattern, utcMs, at, char) => {
          const written = writeDateTime(utcMs, pattern, 'UTC');
          // One character changed, dropped or added: what still reads was written that way.
          for (const text of [
            written.slice(0, at) + char + written.slice(at + 1),
            written.slice(0, at) + written.slice(at + 1),
            written.slice(0, at) + char + written.slice(at),
          ]) {
            const read = readDateTime(text, pattern, 'UTC');
            if (typeof read === 'number' && pattern !== 'iso-8601') {
              expect(writeDateTime(read, pattern, 'UTC')).toBe(text);
            }
          }
        },
      ),
      { numRuns: 3000 },
    );
  });

  it('a one-digit token takes no leading zero, and a two-digit token takes no single digit', () => {
    expect(readDate('3/5/2026', 'M/D/YYYY')).toBe('2026-03-05');
    expect(readDate('03/05/2026', 'M/D/YYYY')).toBeNull();
    expect(readDate('3/5/2026', 'MM/DD/YYYY')).toBeNull();
    expect(readDate('12/31/2026', 'M/D/YYYY')).toBe('2026-12-31');
  });

  it('a local time the clocks skip is unreadable; one they show twice is its first showing', () => {
    const newYork = 'America/New_York';
    // 8 March 2026: New York's clocks go from 2:00 to 3:00 AM.
    expect(readDateTime('3/8/2026 2:30 AM', 'M/D/YYYY h:mm A', newYork)).toBe('skipped-local-time');
    expect(readDateTime('3/8/2026 3:30 AM', 'M/D/YYYY h:mm A', newYork)).toBe(
      Date.UTC(2026, 2, 8, 7, 30),
    );
    // 1 November 2026: 1:30 AM comes twice, first in summer time (UTC−4).
    expect(readDateTime('11/1/2026 1:30 AM', 'M/D/YYYY h:mm A', newYork)).toBe(
      Date.UTC(2026, 10, 1, 5, 30),
    );
  });
});

describe('every token', () => {
  // 5 March 2026, 14:07:09.042 UTC, and the same in New York (09:07:09, UTC−5).
  const instant = Date.UTC(2026, 2, 5, 14, 7, 9, 42);
  it.each([
    ['YYYY-MM-DD HH:mm:ss.SSS', '2026-03-05 14:07:09.042'],
    ['M/D/YYYY H:mm', '3/5/2026 14:07'],
    ['D.M.YYYY hh:mm A', '5.3.2026 02:07 PM'],
    ['YYYY M D h A', '2026 3 5 2 PM'],
    ['DD/MM/YYYY[ at ]HH[h]mm', '05/03/2026 at 14h07'],
  ])('%s writes %s, and reads it back', (pattern, expected) => {
    expect(writeDateTime(instant, pattern, 'UTC')).toBe(expected);
    const unit = precisionMs(pattern);
    expect(readDateTime(expected, pattern, 'UTC')).toBe(Math.floor(instant / unit) * unit);
  });

  it('writes the hours of a 12-hour clock around midnight and noon', () => {
    const at = (hour: number) =>
      ['YYYY h A', 'YYYY hh A']
        .map((pattern) => writeDateTime(Date.UTC(2026, 0, 1, hour), `D/M/${pattern}`, 'UTC'))
        .map((text) => text.slice('1/1/2026 '.length))
        .join('|');
    expect([at(0), at(1), at(11), at(12), at(13), at(23)]).toEqual([
      '12 AM|12 AM',
      '1 AM|01 AM',
      '11 AM|11 AM',
      '12 PM|12 PM',
      '1 PM|01 PM',
      '11 PM|11 PM',
    ]);
  });

  it('writes the named formats', () => {
    expect(writeDateTime(instant, 'iso-8601', 'America/New_York')).toBe('2026-03-05T14:07:09.042Z');
    expect(writeDateTime(instant, 'unix-seconds', 'UTC')).toBe('1772719629');
    expect(writeDateTime(instant, 'unix-milliseconds', 'UTC')).toBe('1772719629042');
    expect(writeDateTime(instant, 'M/D/YYYY h:mm:ss A', 'America/New_York')).toBe(
      '3/5/2026 9:07:09 AM',
    );
  });
});

describe('a pattern that cannot be', () => {
  it.each([
    ['DD/MM/YYY', 'date', '"YYY", which is no token'],
    ['yyyy-MM-dd', 'date', '"yyyy", which is no token'],
    ['DD/MM/YYYY HH:mm', 'date', 'HH has no place in it'],
    ['unix-seconds', 'date', 'writes an instant'],
    ['DD/MM/YYYY hh:mm', 'date-time', 'without A'],
    ['DD/MM/YYYY HH:mm A', 'date-time', 'A (AM or PM) without hh or h'],
    ['DD/MM/YYYY', 'date-time', 'has no hour'],
    ['MM/YYYY', 'date', 'has no day'],
    ['MD/YYYY', 'date', 'needs a separator between M and D'],
    ['DD/MM/YYYY/DD', 'date', 'gives the day twice'],
    ['DD/MM/YYYY [T', 'date', 'never closes it'],
    ['DD/MM/YYYY HH:ss', 'date-time', 'seconds (ss) without minutes'],
    ['', 'date', 'is empty'],
  ] as const)('%s (%s): %s', (pattern, kind, words) => {
    expect(datePatternProblem(pattern, kind)).toContain(words);
  });

  it('the given ones are patterns', () => {
    for (const pattern of dateTimePatterns)
      expect(datePatternProblem(pattern, 'date-time')).toBe(null);
    for (const pattern of datePatterns) expect(datePatternProblem(pattern, 'date')).toBe(null);
  });

  it('a time zone is an IANA name', () => {
    expect(timeZoneProblem('Europe/Berlin')).toBeNull();
    expect(timeZoneProblem('UTC')).toBeNull();
    expect(timeZoneProblem('Mars/Olympus_Mons')).toContain('is not one this runtime knows');
  });
});
