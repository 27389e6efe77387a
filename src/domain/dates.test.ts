import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatWireDate, parseWireDate, wireDateToIso } from './dates';

/**
 * What a real date is, asked of `Date` itself: the calendar parseWireDate must agree with. (Its
 * own arithmetic replaced match groups and `Date` objects for the validator's speed; this is the
 * definition it replaced.)
 */
function calendarIso(year: number, month: number, day: number): string | null {
  if (year < 1 || month < 1 || month > 12 || day < 1) return null;
  if (day > new Date(Date.UTC(year, month, 0)).getUTCDate()) return null;
  const pad = (value: number, width: number) => String(value).padStart(width, '0');
  return `${pad(year, 4)}-${pad(month, 2)}-${pad(day, 2)}`;
}

const pad = (value: number, width: number) => String(value).padStart(width, '0');
const dateFormats = ['YYYY-MM-DD', 'MM/DD/YYYY', 'DD/MM/YYYY'] as const;
const written = (
  format: (typeof dateFormats)[number],
  year: number,
  month: number,
  day: number,
) => {
  switch (format) {
    case 'YYYY-MM-DD':
      return `${pad(year, 4)}-${pad(month, 2)}-${pad(day, 2)}`;
    case 'MM/DD/YYYY':
      return `${pad(month, 2)}/${pad(day, 2)}/${pad(year, 4)}`;
    case 'DD/MM/YYYY':
      return `${pad(day, 2)}/${pad(month, 2)}/${pad(year, 4)}`;
  }
};

// Years where calendars go wrong: 0 and the two-digit years `Date` maps to 19xx, centuries (leap
// only every 400), ordinary leap years, the last four-digit years.
const years = [
  ...Array.from({ length: 105 }, (_, i) => i),
  1899,
  1900,
  1901,
  1904,
  1999,
  2000,
  2001,
  2023,
  2024,
  2100,
  2400,
  9996,
  9999,
];

describe.each(dateFormats)('parseWireDate (%s)', (format) => {
  it('agrees with Date on every day 0–32 of months 0–13 of the tricky years', () => {
    for (const year of years) {
      for (let month = 0; month <= 13; month += 1) {
        for (let day = 0; day <= 32; day += 1) {
          expect(parseWireDate(written(format, year, month, day), format)).toBe(
            calendarIso(year, month, day),
          );
        }
      }
    }
  });

  it('agrees with Date on any four-digit year', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 9999 }),
        fc.integer({ min: 0, max: 99 }),
        fc.integer({ min: 0, max: 99 }),
        (year, month, day) => {
          expect(parseWireDate(written(format, year, month, day), format)).toBe(
            calendarIso(year, month, day),
          );
        },
      ),
      { numRuns: 2000 },
    );
  });

  it('refuses anything not written exactly in the format', () => {
    const other = format === 'YYYY-MM-DD' ? '03/31/2026' : '2026-03-31';
    for (const value of [
      '',
      ' ',
      other,
      `${written(format, 2026, 3, 31)} `,
      ` ${written(format, 2026, 3, 31)}`,
      `${written(format, 2026, 3, 31)}\n`,
      written(format, 2026, 3, 31).replace('3', '٣'), // a digit, but not an ASCII one
      written(format, 2026, 3, 31).slice(1),
      '２０２６-03-31',
      '2026-3-31',
      '3/31/2026',
      '20260-03-31',
      '2026/03/31',
    ]) {
      expect(parseWireDate(value, format)).toBeNull();
    }
  });
});

describe('the dates built on parseWireDate', () => {
  it('formatWireDate and wireDateToIso go there and back', () => {
    expect(formatWireDate('2024-02-29', 'MM/DD/YYYY')).toBe('02/29/2024');
    expect(wireDateToIso('02/29/2024', 'MM/DD/YYYY')).toBe('2024-02-29');
    expect(formatWireDate('2023-02-29', 'MM/DD/YYYY')).toBe('2023-02-29');
    expect(wireDateToIso('02/29/2023', 'MM/DD/YYYY')).toBe('02/29/2023');
    expect(formatWireDate('2024-02-29', 'DD/MM/YYYY')).toBe('29/02/2024');
    expect(wireDateToIso('29/02/2024', 'DD/MM/YYYY')).toBe('2024-02-29');
    expect(wireDateToIso('02/29/2024', 'DD/MM/YYYY')).toBe('02/29/2024');
  });
});
