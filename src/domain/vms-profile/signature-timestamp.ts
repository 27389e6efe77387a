import {
  datePatternParts,
  datePatternProblem,
  readDateTime,
  writeDateTime,
} from '@/domain/date-patterns';

/**
 * A signature's timestamp (signature-recipe.ts): the forms a recipe may write it in, named or a
 * date-time pattern in UTC, written for a request and read back from one.
 */

/**
 * The named forms:
 * - unix-seconds: `1546259837`;
 * - unix-milliseconds: `1546259837000`;
 * - iso-8601: UTC to the whole second, `2026-11-27T10:15:30Z`, no fraction. A fraction would
 *   make the text depend on a clock's precision the server cannot know.
 */
export const timestampForms = ['unix-seconds', 'unix-milliseconds', 'iso-8601'] as const;

export type NamedTimestampForm = (typeof timestampForms)[number];

/**
 * A named form, or a date-time pattern of the date patterns module (`YYYYMMDDHHmmss`), written
 * and read in UTC whatever the profile's `dates.timeZone`: the recipe is all the signer, the
 * sandbox and the finder know, and a local time names two instants in the hour its clocks show
 * twice, which a replay window cannot tell apart.
 */
export type TimestampForm = NamedTimestampForm | (string & {});

export const isNamedForm = (form: string): form is NamedTimestampForm =>
  (timestampForms as readonly string[]).includes(form);

/** The tokens a pattern form writes (none for a named form or one that is no pattern). */
function patternTokensOf(form: string): string[] {
  if (isNamedForm(form) || datePatternProblem(form, 'date-time') !== null) return [];
  return (datePatternParts(form) ?? []).flatMap((part) => ('token' in part ? [part.token] : []));
}

/** Does a form write milliseconds, so that a server could not try every instant around it? */
export const writesMilliseconds = (form: string) =>
  form === 'unix-milliseconds' || patternTokensOf(form).includes('SSS');

// --- time ------------------------------------------------------------------------------------

/** The timestamp text a signer at `nowMs` puts into the message: a pattern's in UTC. */
export function formatTimestamp(form: TimestampForm, nowMs: number): string {
  if (!isNamedForm(form)) return writeDateTime(nowMs, form, 'UTC');
  const seconds = Math.floor(nowMs / 1000);
  if (form === 'unix-seconds') return String(seconds);
  if (form === 'unix-milliseconds') return String(Math.floor(nowMs));
  return new Date(seconds * 1000).toISOString().replace(/\.\d{3}Z$/, 'Z');
}

const formPatterns: Record<NamedTimestampForm, RegExp> = {
  'unix-seconds': /^\d{10}$/,
  'unix-milliseconds': /^\d{13}$/,
  'iso-8601': /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/,
};

/**
 * The instant a received timestamp names, in milliseconds, or null when the text is not written
 * in that form. Only the forms a signer of this recipe writes are read (10 digits until 2286,
 * 13 digits, ISO without fraction, a pattern exactly as it writes a real UTC time), so a
 * timestamp is verified exactly as it was signed.
 */
export function parseTimestamp(form: TimestampForm, text: string): number | null {
  if (!isNamedForm(form)) {
    const at = readDateTime(text, form, 'UTC');
    return typeof at === 'number' ? at : null;
  }
  if (!formPatterns[form].test(text)) return null;
  if (form === 'unix-seconds') return Number(text) * 1000;
  if (form === 'unix-milliseconds') return Number(text);
  const ms = Date.parse(text);
  // Date.parse rolls 2026-02-30 over into March; such a text was not made by formatTimestamp.
  return Number.isNaN(ms) || formatTimestamp('iso-8601', ms) !== text ? null : ms;
}

/**
 * How long one timestamp text lasts, in ms: a pattern without seconds names a whole minute (or
 * hour), so a server accepts it while any instant of it is within its window.
 */
export function timestampPrecisionMs(form: TimestampForm): number {
  if (writesMilliseconds(form)) return 1;
  if (isNamedForm(form)) return 1000;
  const tokens = patternTokensOf(form);
  if (tokens.includes('ss')) return 1000;
  return tokens.includes('mm') ? 60_000 : 3_600_000;
}
