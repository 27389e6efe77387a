import { z } from 'zod';
import { wallClockMs, wallClockToUtc, timeZoneProblem, utcToWallClock } from './time-zone';

/**
 * How a VMS writes its dates and date-times: a pattern of tokens and literal separators
 * (`DD/MM/YYYY HH:mm:ss`, `M/D/YYYY h:mm A`), or `iso-8601`, `unix-seconds`,
 * `unix-milliseconds`. Every date of a profile's `dates` goes through this module, so a pattern
 * means the same everywhere: the outbound DATE fields, the records' DATE fields, the created and
 * updated date-times, a list filter on them, and a signature's timestamp when its recipe gives a
 * pattern (always in UTC: see the signature recipe).
 *
 * Reading is strict. A value is read only when it is written exactly as the pattern writes it
 * (so `M` takes `3`, never `03`), and only when it is a real date and time: `31/02/2026`, a month
 * of 21 or `24:00` is unreadable, never rolled over into another date. Each pattern is compiled
 * once into the steps that read it, which a list of a hundred thousand records is read with.
 */

export type PatternKind = 'date' | 'date-time';

/** The named formats: instants, not wall-clock times. A date takes `iso-8601` only (YYYY-MM-DD). */
export const namedDateTimeFormats = ['iso-8601', 'unix-seconds', 'unix-milliseconds'] as const;

/** The tokens, each a run of one letter, with the field it writes and how. */
const tokens = {
  YYYY: { field: 'year', digits: 4, variable: false },
  MM: { field: 'month', digits: 2, variable: false },
  M: { field: 'month', digits: 2, variable: true },
  DD: { field: 'day', digits: 2, variable: false },
  D: { field: 'day', digits: 2, variable: true },
  HH: { field: 'hour', digits: 2, variable: false },
  H: { field: 'hour', digits: 2, variable: true },
  hh: { field: 'hour', digits: 2, variable: false },
  h: { field: 'hour', digits: 2, variable: true },
  A: { field: 'meridiem', digits: 0, variable: false },
  mm: { field: 'minute', digits: 2, variable: false },
  ss: { field: 'second', digits: 2, variable: false },
  SSS: { field: 'millisecond', digits: 3, variable: false },
} as const;
type Token = keyof typeof tokens;
export const patternTokens = Object.keys(tokens) as Token[];

const twelveHour = new Set<Token>(['hh', 'h']);
const timeTokens = new Set<Token>(['HH', 'H', 'hh', 'h', 'A', 'mm', 'ss', 'SSS']);

type Part = { token: Token } | { literal: string };

/** What a value that is not read was: not written in the pattern, or not a real date and time. */
export type Unreadable = 'not-written-so' | 'impossible' | 'skipped-local-time';

/** A date-time's fields as read; `offsetMs` when the value says its offset (ISO 8601, Unix). */
interface Fields {
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

const pad2 = (value: number) => (value < 10 ? `0${value}` : String(value));
const pad3 = (value: number) => String(value).padStart(3, '0');
const pad4 = (value: number) => String(value).padStart(4, '0');

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

// ── Patterns ─────────────────────────────────────────────────────────────────────────────────

const tokenList = `${patternTokens.join(' ')}; other letters go in [brackets]`;

function tokenize(pattern: string): Part[] | string {
  const parts: Part[] = [];
  let literal = '';
  const flush = () => {
    if (literal !== '') parts.push({ literal });
    literal = '';
  };
  for (let i = 0; i < pattern.length;) {
    const char = pattern.charAt(i);
    if (char === '[') {
      const end = pattern.indexOf(']', i + 1);
      if (end < 0) return `opens a literal with "[" at ${i + 1} and never closes it with "]"`;
      const text = pattern.slice(i + 1, end);
      // A digit beside a number would make where one ends a guess.
      if (/\d/.test(text)) return `has a digit in the literal "[${text}]"`;
      literal += text;
      i = end + 1;
    } else if (char === ']') {
      return `has a "]" at ${i + 1} with no "[" before it`;
    } else if (/[A-Za-z]/.test(char)) {
      let end = i + 1;
      while (pattern.charAt(end) === char) end += 1;
      const run = pattern.slice(i, end);
      if (!(run in tokens)) return `has "${run}", which is no token (${tokenList})`;
      flush();
      parts.push({ token: run as Token });
      i = end;
    } else if (/\d/.test(char)) {
      return `has the digit "${char}", which is neither a token nor a separator`;
    } else {
      literal += char;
      i += 1;
    }
  }
  flush();
  return parts;
}

/** Why `parts` cannot be a pattern of `kind`, or null. */
function partsProblem(parts: Part[], kind: PatternKind): string | null {
  const seen = new Map<string, Token>();
  let previous: Part | undefined;
  for (const part of parts) {
    if ('token' in part) {
      const { field, variable } = tokens[part.token];
      const twice = seen.get(field);
      if (twice) return `gives the ${field} twice (${twice} and ${part.token})`;
      seen.set(field, part.token);
      if (kind === 'date' && timeTokens.has(part.token)) {
        return `is a date, with no time: ${part.token} has no place in it`;
      }
      if (previous && 'token' in previous) {
        const before = tokens[previous.token];
        const numbers = before.digits > 0 && tokens[part.token].digits > 0;
        if (numbers && (before.variable || variable)) {
          return `needs a separator between ${previous.token} and ${part.token}: written together they read more than one way`;
        }
      }
    }
    previous = part;
  }
  const missing = ['year', 'month', 'day', ...(kind === 'date-time' ? ['hour'] : [])].filter(
    (field) => !seen.has(field),
  );
  if (missing.length > 0) return `has no ${missing.join(', ')}`;
  const hour = seen.get('hour');
  if (hour && twelveHour.has(hour) && !seen.has('meridiem')) {
    return `has ${hour}, a 12-hour clock, without A (AM or PM)`;
  }
  if (seen.has('meridiem') && !(hour && twelveHour.has(hour))) {
    return `has A (AM or PM) without hh or h, the 12-hour clock`;
  }
  if (seen.has('second') && !seen.has('minute')) return 'has seconds (ss) without minutes (mm)';
  if (seen.has('millisecond') && !seen.has('second')) {
    return 'has milliseconds (SSS) without seconds (ss)';
  }
  return null;
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
function fieldsOfInstant(utcMs: number, into: Fields): void {
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

function instantOf(fields: Fields, offsetMs: number): number {
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

function compile(pattern: string, kind: PatternKind): Compiled | string {
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

function compiledOrThrow(pattern: string, kind: PatternKind): Compiled {
  const entry = compile(pattern, kind);
  if (typeof entry === 'string') throw new Error(`date pattern "${pattern}" ${entry}`);
  return entry;
}

/**
 * Why `pattern` is not a pattern of `kind`, as the end of a sentence that starts with the
 * setting's name (`dates.records "DD/MM/YYY" has "YYY", which is no token…`); null when it is.
 */
export function datePatternProblem(pattern: string, kind: PatternKind): string | null {
  const entry = compile(pattern, kind);
  return typeof entry === 'string' ? `"${pattern}" ${entry}` : null;
}

export { timeZoneProblem };

/**
 * A valid date-time pattern's tokens and literals in order (a named format has none: null), for
 * code that writes the pattern in another language's terms, such as a signing snippet.
 */
export function datePatternParts(
  pattern: string,
): Array<{ token: string } | { literal: string }> | null {
  if ((namedDateTimeFormats as readonly string[]).includes(pattern)) return null;
  compiledOrThrow(pattern, 'date-time');
  return tokenize(pattern) as Part[];
}

const scratch: Fields = {
  year: 0,
  month: 1,
  day: 1,
  hour: 0,
  minute: 0,
  second: 0,
  millisecond: 0,
  offsetMs: null,
};

// ── Dates ────────────────────────────────────────────────────────────────────────────────────

/** A date written in `pattern` → ISO `YYYY-MM-DD`, or why it is unreadable. */
export function readDateOrWhy(text: string, pattern: string): string | Unreadable {
  const why = compiledOrThrow(pattern, 'date').read(text, scratch);
  if (why !== null) return why;
  return `${pad4(scratch.year)}-${pad2(scratch.month)}-${pad2(scratch.day)}`;
}

const isoDatePattern = 'YYYY-MM-DD';

/** A date written in `pattern` → ISO `YYYY-MM-DD`, or null when it is unreadable. */
export function readDate(text: string, pattern: string): string | null {
  return compiledOrThrow(pattern, 'date').read(text, scratch) === null
    ? `${pad4(scratch.year)}-${pad2(scratch.month)}-${pad2(scratch.day)}`
    : null;
}

/** ISO `YYYY-MM-DD` written in `pattern`; null when it is not a real ISO date. */
export function writeDate(iso: string, pattern: string): string | null {
  const date = compiledOrThrow(pattern, 'date');
  if (compiledOrThrow(isoDatePattern, 'date').read(iso, scratch) !== null) return null;
  return date.write(scratch);
}

// ── Date-times ───────────────────────────────────────────────────────────────────────────────

/**
 * A date-time written in `pattern` → its instant (ms since 1970, UTC), or why it is unreadable.
 * A pattern's wall-clock time is `timeZone`'s; ISO 8601 and Unix values say their own offset.
 */
export function readDateTime(text: string, pattern: string, timeZone: string): number | Unreadable {
  const why = compiledOrThrow(pattern, 'date-time').read(text, scratch);
  if (why !== null) return why;
  if (scratch.offsetMs !== null) return instantOf(scratch, scratch.offsetMs);
  const utcMs = wallClockToUtc(timeZone, instantOf(scratch, 0));
  return utcMs === null ? 'skipped-local-time' : utcMs;
}

/** The instant `utcMs` written in `pattern`, as `timeZone`'s clocks show it for a pattern. */
export function writeDateTime(utcMs: number, pattern: string, timeZone: string): string {
  const format = compiledOrThrow(pattern, 'date-time');
  const isNamed = (namedDateTimeFormats as readonly string[]).includes(pattern);
  fieldsOfInstant(isNamed ? utcMs : utcToWallClock(timeZone, utcMs), scratch);
  return format.write(scratch);
}

/** The portal's own way of writing an instant: ISO 8601 in UTC, to the second (`…T09:30:00Z`). */
export function ownDateTime(utcMs: number): string {
  fieldsOfInstant(utcMs, scratch);
  return `${pad4(scratch.year)}-${pad2(scratch.month)}-${pad2(scratch.day)}T${pad2(scratch.hour)}:${pad2(scratch.minute)}:${pad2(scratch.second)}Z`;
}

/**
 * An instant the portal's own dialect wrote (ISO 8601 with Z or an offset, a real date and time),
 * or null: a record's date-time the profile could not read reaches the browser as the VMS wrote
 * it, and must be shown as that, never parsed leniently into another date.
 */
export function readOwnDateTime(value: string): number | null {
  const utcMs = readDateTime(value, 'iso-8601', 'UTC');
  return typeof utcMs === 'number' ? utcMs : null;
}

// ── As a setting ─────────────────────────────────────────────────────────────────────────────

/**
 * The shape of a pattern or a named format, for the JSON Schemas an editor checks a file with;
 * the full rules (a date has no time, a 12-hour clock has A…) are datePatternProblem's.
 */
export const patternShape =
  /^(iso-8601|unix-seconds|unix-milliseconds|(YYYY|MM?|DD?|HH?|hh?|A|mm|ss|SSS|\[[^\]]*\]|[^A-Za-z0-9[\]])+)$/;

/**
 * A pattern setting: a problem is one line that starts with the setting's name, when it is given
 * (a file's reader may name the key itself).
 */
export function datePatternSchema(kind: PatternKind, setting?: string) {
  const rule = `${setting === undefined ? '' : `${setting} `}must be a ${kind} pattern such as ${examples[kind]}`;
  return z
    .string({ error: rule })
    .superRefine((pattern, ctx) => {
      const problem = datePatternProblem(pattern, kind);
      if (problem !== null) ctx.addIssue({ code: 'custom', message: `${rule}: ${problem}` });
    })
    .meta({ pattern: patternShape.source, examples: patternExamples[kind] });
}

/** A time zone setting: an IANA name the runtime knows. */
export function timeZoneSchema(setting?: string) {
  const rule = `${setting === undefined ? '' : `${setting} `}must be an IANA time zone name`;
  return z
    .string({ error: `${rule} such as Europe/Berlin` })
    .superRefine((zone, ctx) => {
      const problem = timeZoneProblem(zone);
      if (problem !== null) ctx.addIssue({ code: 'custom', message: `${rule}: ${problem}` });
    })
    .meta({ examples: ['UTC', 'Europe/Berlin', 'America/New_York'] });
}

const patternExamples: Record<PatternKind, string[]> = {
  date: ['YYYY-MM-DD', 'MM/DD/YYYY', 'DD/MM/YYYY', 'DD.MM.YYYY', 'M/D/YYYY', 'D/M/YYYY'],
  'date-time': [
    'iso-8601',
    'unix-seconds',
    'unix-milliseconds',
    'MM/DD/YYYY HH:mm:ss',
    'DD/MM/YYYY HH:mm:ss',
    'DD.MM.YYYY HH:mm',
    'YYYY-MM-DD HH:mm:ss',
    'M/D/YYYY h:mm A',
  ],
};
const examples: Record<PatternKind, string> = {
  date: 'DD/MM/YYYY',
  'date-time': 'DD/MM/YYYY HH:mm:ss',
};

/** The patterns most VMSs write, tried by the doctor on a VMS's records to suggest one. */
export const commonPatterns: Record<PatternKind, readonly string[]> = patternExamples;
