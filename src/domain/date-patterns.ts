import { z } from 'zod';
import type { Unreadable, Fields } from './date-pattern-compiler';
import {
  pad2,
  pad4,
  fieldsOfInstant,
  instantOf,
  compile,
  compiledOrThrow,
} from './date-pattern-compiler';
import type { PatternKind, Part } from './date-pattern-tokens';
import { namedDateTimeFormats, tokenize } from './date-pattern-tokens';
import { wallClockToUtc, timeZoneProblem, utcToWallClock } from './time-zone';

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

export type { Unreadable } from './date-pattern-compiler';
export type { PatternKind } from './date-pattern-tokens';

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
