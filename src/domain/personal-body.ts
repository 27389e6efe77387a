import { candidateCatalog } from './candidate-catalog';
import type { PersonalKind } from './catalog-types';
import { maskPersonal } from './personal-data';
import { requisitionCatalog } from './requisition-catalog';

/**
 * The personal values of a body the portal sends or receives, masked (decision 058): what the
 * journal, its copies and its exports show to someone who may not see them. The fields are the
 * catalogs' marked ones, by wire key and by the name a VMS record answers with, matched without
 * regard to case (a GET Requisitions record says `AltEmail` where the form sends `altemail`).
 */

const personalNames: ReadonlyMap<string, PersonalKind> = new Map(
  [...requisitionCatalog, ...candidateCatalog].flatMap(({ key, responseName, personal }) =>
    personal
      ? [key, responseName]
          .filter((name): name is string => name !== undefined)
          .map((name) => [name.toLowerCase(), personal] as const)
      : [],
  ),
);

/** Every field the catalogs know, personal or not, by wire key and answer name, lower case. */
export const catalogFieldNames: ReadonlySet<string> = new Set(
  [...requisitionCatalog, ...candidateCatalog].flatMap(({ key, responseName }) =>
    [key, responseName]
      .filter((name): name is string => name !== undefined)
      .map((name) => name.toLowerCase()),
  ),
);

/** The kind of personal value a key holds, whatever its case; undefined for none. */
export function personalKindOf(key: string): PersonalKind | undefined {
  return personalNames.get(key.toLowerCase());
}

/**
 * How a body was read: `json` — parsed and walked, every personal field masked; `text` — not JSON
 * (a body cut at the journal's size limit, or not JSON at all), so its `"key": value` pairs were
 * found in the text and masked where a personal key was seen, which a body of another form
 * (a CSV, a form post) would escape.
 */
export type PersonalBodyReading = 'json' | 'text';

export interface MaskedBody {
  text: string;
  /** How many personal values were masked. */
  masked: number;
  reading: PersonalBodyReading;
}

/** A value not a string (a rate as a number, a list, an object): nothing of it is kept. */
const hidden = maskPersonal('text', 'x');

function maskValue(kind: PersonalKind, value: unknown): { value: unknown; masked: boolean } {
  if (value === null || value === undefined) return { value, masked: false };
  if (typeof value === 'string') {
    const shown = maskPersonal(kind, value);
    return { value: shown, masked: shown !== value };
  }
  return { value: hidden, masked: true };
}

function walk(value: unknown, count: { masked: number }): unknown {
  if (Array.isArray(value)) return value.map((item) => walk(item, count));
  if (value === null || typeof value !== 'object') return value;
  const out: Record<string, unknown> = {};
  for (const [key, inner] of Object.entries(value)) {
    const kind = personalKindOf(key);
    if (kind === undefined) {
      out[key] = walk(inner, count);
      continue;
    }
    const shown = maskValue(kind, inner);
    if (shown.masked) count.masked += 1;
    out[key] = shown.value;
  }
  return out;
}

/**
 * A `"key": value` pair in JSON text, the value a string (maybe cut off at the end of the text),
 * a number, or a literal: what a body cut at the journal's size limit still shows whole.
 */
const pairPattern =
  /"((?:[^"\\]|\\.)*)"(\s*:\s*)("(?:[^"\\]|\\.)*(?:"|$)|-?\d[\d.eE+-]*|true|false)/gu;

function maskPairs(text: string): MaskedBody {
  let masked = 0;
  const shown = text.replace(pairPattern, (pair, key: string, colon: string, raw: string) => {
    const kind = personalKindOf(key);
    if (kind === undefined) return pair;
    let value: string;
    if (raw.startsWith('"')) {
      const whole = raw.length > 1 && raw.endsWith('"');
      const inner = whole ? raw.slice(1, -1) : raw.slice(1);
      try {
        value = JSON.parse(`"${inner}"`) as string;
      } catch {
        // An escape cut in half at the end of the text: its raw characters still say the value.
        value = inner;
      }
      if (value.trim() === '') return pair;
      masked += 1;
      return `"${key}"${colon}${JSON.stringify(maskPersonal(kind, value))}`;
    }
    masked += 1;
    return `"${key}"${colon}${JSON.stringify(hidden)}`;
  });
  return { text: shown, masked, reading: 'text' };
}

/**
 * A body's text with its personal values masked, and how many. JSON is parsed and written back
 * (two-space indented when it came indented, else compact); text that is not JSON has the pairs it
 * shows masked instead. Nothing personal in it: the text as given, `masked` 0.
 */
export function maskPersonalBody(text: string): MaskedBody {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return maskPairs(text);
  }
  const count = { masked: 0 };
  const walked = walk(parsed, count);
  if (count.masked === 0) return { text, masked: 0, reading: 'json' };
  const indented = /^[[{]\s*\n/u.test(text.trimStart());
  return {
    text: JSON.stringify(walked, null, indented ? 2 : undefined),
    masked: count.masked,
    reading: 'json',
  };
}
