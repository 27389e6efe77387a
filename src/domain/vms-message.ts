import type { FieldDef } from './catalog-types';
import { escapeRegExp } from './reg-exp';

/**
 * The field a message from the VMS is about, if it names one: by wire name (`reqclassid: 999 is
 * not…`, `answer2 is blank`) or by label ("Req class ID is not valid"), whichever comes first in
 * the message; a longer label wins over a shorter one found at the same place ("Bill rate high"
 * over "Bill rate"). Null when no field is named. Whole words only, any case.
 */
export function fieldNamedIn(message: string, catalog: readonly FieldDef[]): string | null {
  let best: { key: string; at: number; length: number } | null = null;
  const consider = (key: string, name: string) => {
    const match = new RegExp(
      `(?<![\\p{L}\\p{N}_])${escapeRegExp(name)}(?![\\p{L}\\p{N}_])`,
      'iu',
    ).exec(message);
    if (!match) return;
    if (!best || match.index < best.at || (match.index === best.at && name.length > best.length))
      best = { key, at: match.index, length: name.length };
  };
  for (const field of catalog) {
    consider(field.key, field.key);
    consider(field.key, field.label);
  }
  return (best as { key: string } | null)?.key ?? null;
}

/**
 * A message from the VMS in the recruiter's words first: each `wirekey: …` part
 * (`reqclassid: 999 is not a req class…; titlerole: is blank`) starts with the field's label,
 * the wire name second (`Req class ID (reqclassid): 999 is not…`). Other text is kept as it is.
 */
export function withFieldLabels(message: string, catalog: readonly FieldDef[]): string {
  const labels = new Map(catalog.map((field) => [field.key, field.label]));
  const prefixed = message.replace(
    /(^|;\s*)([A-Za-z][A-Za-z0-9_]*):\s*/g,
    (whole, start: string, key: string) => {
      const label = labels.get(key.toLowerCase());
      return label ? `${start}${label} (${key}): ` : whole;
    },
  );
  // A numbered field named anywhere else (`these are blank: answer1, skill2response`) gets its
  // label too: such a word (letters and a number run together) is no word of a sentence. One
  // already labelled above is left as it is.
  return prefixed.replace(
    /(?<![\p{L}\p{N}_(])([a-z]+\d+[a-z]*)(?![\p{L}\p{N}_)])(?!\)?:)/gu,
    (whole, key: string) => {
      const label = labels.get(key);
      return label ? `${label} (${key})` : whole;
    },
  );
}
