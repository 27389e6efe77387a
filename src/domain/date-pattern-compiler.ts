import type { PatternKind, Part } from './date-pattern-tokens';
import { namedDateTimeFormats, tokens, tokenize, partsProblem } from './date-pattern-tokens';
import { wallClockMs } from './time-zone';

/**
 * The compiler behind date-patterns.ts: a pattern's parts compiled once into the steps that read
 * and write it (kept per pattern, since a list of a hundred thousand records is read with one).
 */

/** What a value that is not read was: not written in the pattern, or not a real date and time. */
export type Unreadable = 'not-written-so' | 'impossible' | 'skipped-local-time';

/** A date-time's fields as read; `offsetMs` when the value says its offset (ISO 8601, Unix). */
export interface Fields {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
  millisecond: number;
  offsetMs: number | null;
}

interface Compiled {
  /** The fields `text` writes, into `into`; or why it is unreadable. */
  read(text: string, into: Fields): Unreadable | null;
  /** `fields` (an offset of 0: UTC) written in the pattern. */
  write(fields: Fields): string;
}

const daysInMonth = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

/** Proleptic Gregorian, as `Date` counts; years 1 to 9999 (what four digits write). */
export function isRealDate(year: number, month: number, day: number): boolean {
  if (year < 1 || year > 9999 || month < 1 || month > 12 || day < 1) return false;
  const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
  return day <= (month === 2 && leap ? 29 : (daysInMonth[month - 1] ?? 0));
}

export const pad2 = (value: number) => (value < 10 ? `0${value}` : String(value));

const pad3 = (value: number) => String(value).padStart(3, '0');

export const pad4 = (value: number) => String(value).padStart(4, '0');

/** The number written by the ASCII digits of `text`. */
function number(text: string): number {
  let value = 0;
  for (let i = 0; i < text.length; i += 1) value = value * 10 + text.charCodeAt(i) - 48;
  return value;
}

function inRange(fields: Fields): boolean {
  return (
    isRealDate(fields.year, fields.month, fields.day) &&
    fields.hour <= 23 &&
    fields.minute <= 59 &&
    fields.second <= 59
  );
}

const isDigit = (code: number) => code >= 48 && code <= 57;

/** One step of reading: a literal, or a token with where its value goes. */
type Step =
  | { literal: string }
  | { field: Exclude<keyof Fields, 'offsetMs'>; digits: number; variable: boolean }
  | { meridiem: true };

/**
 * Reads by walking the steps over the text's character codes: nothing is allocated, which keeps a
 * list of a hundred thousand dates in tens of milliseconds. A variable token (M, D, H, h) takes
 * one digit and a second when there is one; partsProblem has made sure a separator or the end
 * follows it, so that is the only reading.
 */
function compileParts(parts: Part[]): Compiled {
  const steps: Step[] = parts.map((part) => {
    if ('literal' in part) return { literal: part.literal };
    if (part.token === 'A') return { meridiem: true };
    const { field, digits, variable } = tokens[part.token];
    return { field: field as Exclude<keyof Fields, 'offsetMs'>, digits, variable };
  });
  return {
    read(text, into) {
      into.year = 0;
      into.month = 1;
      into.day = 1;
      into.hour = 0;
      into.minute = 0;
      into.second = 0;
      into.millisecond = 0;
      into.offsetMs = null;
      let at = 0;
      let afternoon = -1;
      for (const step of steps) {
        if ('literal' in step) {
          const { literal } = step;
          for (let i = 0; i < literal.length; i += 1) {
            if (text.charCodeAt(at + i) !== literal.charCodeAt(i)) return 'not-written-so';
          }
          at += literal.length;
        } else if ('meridiem' in step) {
          const first = text.charCodeAt(at);
          if ((first !== 65 && first !== 80) || text.charCodeAt(at + 1) !== 77) {
            return 'not-written-so';
          }
          afternoon = first === 80 ? 1 : 0;
          at += 2;
        } else {
          let value = 0;
          let length = 0;
          const most = step.digits;
          while (length < most && isDigit(text.charCodeAt(at + length))) {
            value = value * 10 + text.charCodeAt(at + length) - 48;
            length += 1;
          }
          if (step.variable) {
            // One digit, or two without a leading zero: as the pattern writes it.
            if (length === 0 || (length === 2 && text.charCodeAt(at) === 48)) {
              return 'not-written-so';
            }
          } else if (length !== most) {
            return 'not-written-so';
          }
          into[step.field] = value;
          at += length;
        }
      }
      if (at !== text.length) return 'not-written-so';
      if (afternoon >= 0) {
        if (into.hour < 1 || into.hour > 12) return 'impossible';
        into.hour = (into.hour % 12) + afternoon * 12;
      }
      return inRange(into) ? null : 'impossible';
    },
    write(fields) {
      let text = '';
      for (const part of parts) {
        if ('literal' in part) {
          text += part.literal;
          continue;
        }
        switch (part.token) {
          case 'YYYY':
            text += pad4(fields.year);
            break;
          case 'MM':
            text += pad2(fields.month);
            break;
          case 'M':
            text += String(fields.month);
            break;
          case 'DD':
            text += pad2(fields.day);
            break;
          case 'D':
            text += String(fields.day);
            break;
          case 'HH':
            text += pad2(fields.hour);
            break;
          case 'H':
            text += String(fields.hour);
            break;
          case 'hh':
            text += pad2(fields.hour % 12 || 12);
            break;
          case 'h':
            text += String(fields.hour % 12 || 12);
            break;
          case 'A':
            text += fields.hour < 12 ? 'AM' : 'PM';
            break;
          case 'mm':
            text += pad2(fields.minute);
            break;
          case 'ss':
            text += pad2(fields.second);
            break;
          case 'SSS':
            text += pad3(fields.millisecond);
            break;
        }
      }
      return text;
    },
  };
}

// ── The named formats ────────────────────────────────────────────────────────────────────────

/** RFC 3339's profile of ISO 8601: a date, a time, and Z or an offset. */
const isoDateTime =
  /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?(?:(Z)|([+-])(\d{2}):?(\d{2}))$/;

const isoDateTimeFormat: Compiled = {
  read(text, into) {
    const match = isoDateTime.exec(text);
    if (!match) return 'not-written-so';
    const at = (i: number) => number(match[i] ?? '0');
    into.year = at(1);
    into.month = at(2);
    into.day = at(3);
    into.hour = at(4);
    into.minute = at(5);
    into.second = at(6);
    into.millisecond = number((match[7] ?? '').padEnd(3, '0').slice(0, 3));
    const offsetHours = at(10);
    const offsetMinutes = at(11);
    if (offsetHours > 23 || offsetMinutes > 59) return 'impossible';
    into.offsetMs =
      match[8] === 'Z'
        ? 0
        : (match[9] === '-' ? -1 : 1) * (offsetHours * 60 + offsetMinutes) * 60_000;
    return inRange(into) ? null : 'impossible';
  },
  write(fields) {
    const fraction = fields.millisecond === 0 ? '' : `.${pad3(fields.millisecond)}`;
    return `${pad4(fields.year)}-${pad2(fields.month)}-${pad2(fields.day)}T${pad2(fields.hour)}:${pad2(fields.minute)}:${pad2(fields.second)}${fraction}Z`;
  },
};

/** The last instant four-digit years write: 9999-12-31T23:59:59.999Z. */
const LATEST_MS = 253_402_300_799_999;

const DAY_MS = 86_400_000;

/**
 * The UTC fields of an instant, by arithmetic rather than a `Date` and its seven getters, on the
 * path of every date-time a list reads: the days since 1970 to a civil date as in Howard
 * Hinnant's "chrono-Compatible Low-Level Date Algorithms" (civil_from_days).
 */
export function fieldsOfInstant(utcMs: number, into: Fields): void {
  const days = Math.floor(utcMs / DAY_MS);
  let rest = utcMs - days * DAY_MS;
  into.hour = Math.floor(rest / 3_600_000);
  rest -= into.hour * 3_600_000;
  into.minute = Math.floor(rest / 60_000);
  rest -= into.minute * 60_000;
  into.second = Math.floor(rest / 1000);
  into.millisecond = rest - into.second * 1000;
  const z = days + 719_468;
  const era = Math.floor(z / 146_097);
  const dayOfEra = z - era * 146_097;
  const yearOfEra = Math.floor(
    (dayOfEra -
      Math.floor(dayOfEra / 1460) +
      Math.floor(dayOfEra / 36_524) -
      Math.floor(dayOfEra / 146_096)) /
      365,
  );
  const dayOfYear =
    dayOfEra - (365 * yearOfEra + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100));
  const shifted = Math.floor((5 * dayOfYear + 2) / 153);
  into.day = dayOfYear - Math.floor((153 * shifted + 2) / 5) + 1;
  into.month = shifted < 10 ? shifted + 3 : shifted - 9;
  into.year = yearOfEra + era * 400 + (into.month <= 2 ? 1 : 0);
}

function unixFormat(unitMs: number, maxDigits: number): Compiled {
  const shape = new RegExp(`^\\d{1,${maxDigits}}$`);
  return {
    read(text, into) {
      if (!shape.test(text) || (text.length > 1 && text.startsWith('0'))) return 'not-written-so';
      const utcMs = Number(text) * unitMs;
      if (utcMs > LATEST_MS) return 'impossible';
      fieldsOfInstant(utcMs, into);
      into.offsetMs = 0;
      return null;
    },
    write(fields) {
      return String(Math.floor(instantOf(fields, 0) / unitMs));
    },
  };
}

const named: Record<PatternKind, Record<string, Compiled>> = {
  date: { 'iso-8601': compileParts(tokenize('YYYY-MM-DD') as Part[]) },
  'date-time': {
    'iso-8601': isoDateTimeFormat,
    'unix-seconds': unixFormat(1000, 12),
    'unix-milliseconds': unixFormat(1, 15),
  },
};

export function instantOf(fields: Fields, offsetMs: number): number {
  const wall = wallClockMs(
    fields.year,
    fields.month,
    fields.day,
    fields.hour,
    fields.minute,
    fields.second,
    fields.millisecond,
  );
  return wall - offsetMs;
}

// ── Compiling, once per pattern ──────────────────────────────────────────────────────────────

const compiled: Record<PatternKind, Map<string, Compiled | string>> = {
  date: new Map(),
  'date-time': new Map(),
};

export function compile(pattern: string, kind: PatternKind): Compiled | string {
  const cache = compiled[kind];
  let entry = cache.get(pattern);
  if (entry === undefined) {
    entry = named[kind][pattern] ?? compileNew(pattern, kind);
    // A pattern comes from a profile or a setting: a handful per process.
    if (cache.size > 1000) cache.clear();
    cache.set(pattern, entry);
  }
  return entry;
}

function compileNew(pattern: string, kind: PatternKind): Compiled | string {
  if (pattern === '') return 'is empty';
  if ((namedDateTimeFormats as readonly string[]).includes(pattern)) {
    return `is a date, with no time: ${pattern} writes an instant (use iso-8601 or a pattern such as YYYY-MM-DD)`;
  }
  const parts = tokenize(pattern);
  if (typeof parts === 'string') return parts;
  return partsProblem(parts, kind) ?? compileParts(parts);
}

export function compiledOrThrow(pattern: string, kind: PatternKind): Compiled {
  const entry = compile(pattern, kind);
  if (typeof entry === 'string') throw new Error(`date pattern "${pattern}" ${entry}`);
  return entry;
}
