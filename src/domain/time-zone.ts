/**
 * Wall-clock times in an IANA time zone and the UTC instants they stand for, from the offsets the
 * runtime's own tz database gives through `Intl.DateTimeFormat` (Node and every browser ship
 * one). A VMS that writes local times without an offset is read through these.
 *
 * `formatToParts` costs a few microseconds, and a list can hold a hundred thousand date-times,
 * so offsets are kept per zone and UTC day: a day whose first and last second have the same
 * offset has it throughout (a zone changes its offset at most twice a year, never twice in a
 * day), and only a day with a change is asked second by second.
 */

const DAY_MS = 86_400_000;
const formatters = new Map<string, Intl.DateTimeFormat>();
const dayOffsets = new Map<string, Map<number, number>>();
/** A day with a change of offset: asked for each instant. */
const CHANGES = Number.NaN;

function isUtc(zone: string): boolean {
  return zone === 'UTC' || zone === 'Etc/UTC';
}

function formatterOf(zone: string): Intl.DateTimeFormat {
  let formatter = formatters.get(zone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    formatters.set(zone, formatter);
  }
  return formatter;
}

/** Why `zone` is not a time zone the runtime knows, or null when it is. */
export function timeZoneProblem(zone: string): string | null {
  if (isUtc(zone)) return null;
  try {
    formatterOf(zone);
    return null;
  } catch {
    return `"${zone}" is not one this runtime knows (UTC, Europe/Berlin, America/New_York…)`;
  }
}

/**
 * The instant of a wall-clock time read as if it were UTC, for a real date. By arithmetic (Howard
 * Hinnant's days_from_civil) rather than `Date.UTC`, which reads years 0–99 as 1900–1999 and is a
 * call into the runtime for each of a list's values.
 */
export function wallClockMs(
  year: number,
  month: number,
  day: number,
  hour = 0,
  minute = 0,
  second = 0,
  millisecond = 0,
): number {
  const y = month <= 2 ? year - 1 : year;
  const era = Math.floor(y / 400);
  const yearOfEra = y - era * 400;
  const dayOfYear = Math.floor((153 * (month > 2 ? month - 3 : month + 9) + 2) / 5) + day - 1;
  const dayOfEra =
    yearOfEra * 365 + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100) + dayOfYear;
  const days = era * 146_097 + dayOfEra - 719_468;
  return days * DAY_MS + hour * 3_600_000 + minute * 60_000 + second * 1000 + millisecond;
}

function exactOffset(zone: string, utcMs: number): number {
  const second = utcMs - (((utcMs % 1000) + 1000) % 1000);
  let year = 0;
  let month = 1;
  let day = 1;
  let hour = 0;
  let minute = 0;
  let sec = 0;
  for (const part of formatterOf(zone).formatToParts(second)) {
    if (part.type === 'year') year = Number(part.value);
    else if (part.type === 'month') month = Number(part.value);
    else if (part.type === 'day') day = Number(part.value);
    else if (part.type === 'hour') hour = Number(part.value);
    else if (part.type === 'minute') minute = Number(part.value);
    else if (part.type === 'second') sec = Number(part.value);
  }
  return wallClockMs(year, month, day, hour, minute, sec) - second;
}

/** How far `zone`'s wall clock is ahead of UTC at `utcMs`, in ms. */
export function offsetAt(zone: string, utcMs: number): number {
  if (isUtc(zone)) return 0;
  let days = dayOffsets.get(zone);
  if (!days) {
    days = new Map();
    dayOffsets.set(zone, days);
  }
  const dayNumber = Math.floor(utcMs / DAY_MS);
  let offset = days.get(dayNumber);
  if (offset === undefined) {
    // Bounded: a list spans some thousands of days, never millions.
    if (days.size > 50_000) days.clear();
    const first = exactOffset(zone, dayNumber * DAY_MS);
    offset = first === exactOffset(zone, dayNumber * DAY_MS + DAY_MS - 1000) ? first : CHANGES;
    days.set(dayNumber, offset);
  }
  return Number.isNaN(offset) ? exactOffset(zone, utcMs) : offset;
}

/** The wall-clock time (as if UTC) `zone` shows at `utcMs`. */
export function utcToWallClock(zone: string, utcMs: number): number {
  return utcMs + offsetAt(zone, utcMs);
}

/**
 * The instant `zone` shows the wall-clock time `wallMs` (as if UTC); null when its clocks skip
 * that time (the hour lost when summer time starts): no VMS wrote it, so it is not read as another.
 * A time shown twice (the hour repeated when summer time ends) is its first showing, the earlier
 * instant, as JavaScript's Temporal reads it by default.
 */
export function wallClockToUtc(zone: string, wallMs: number): number | null {
  if (isUtc(zone)) return wallMs;
  const before = wallMs - offsetAt(zone, wallMs - DAY_MS);
  const after = wallMs - offsetAt(zone, wallMs + DAY_MS);
  // The same offset a day either side: no change between them (a zone never changes twice in
  // two days), so that is the one.
  if (before === after) return before;
  const fits = (utcMs: number) => utcToWallClock(zone, utcMs) === wallMs;
  const first = Math.min(before, after);
  const second = Math.max(before, after);
  if (fits(first)) return first;
  return fits(second) ? second : null;
}
