/**
 * The language of a date pattern (date-patterns.ts): its tokens, each a run of one letter, and
 * literals in [brackets]; a pattern split into them and checked for its kind.
 */

export type PatternKind = 'date' | 'date-time';

/** The named formats: instants, not wall-clock times. A date takes `iso-8601` only (YYYY-MM-DD). */
export const namedDateTimeFormats = ['iso-8601', 'unix-seconds', 'unix-milliseconds'] as const;

/** The tokens, each a run of one letter, with the field it writes and how. */
export const tokens = {
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

export type Part = { token: Token } | { literal: string };

// ── Patterns ─────────────────────────────────────────────────────────────────────────────────

const tokenList = `${patternTokens.join(' ')}; other letters go in [brackets]`;

export function tokenize(pattern: string): Part[] | string {
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
export function partsProblem(parts: Part[], kind: PatternKind): string | null {
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
