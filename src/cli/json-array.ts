import { isPlainObject } from '@/domain';

/*
 * A JSON array of objects read one item at a time from its text, so that each item can be checked
 * and dropped as soon as it is parsed. JSON.parse of the whole file keeps every item alive until
 * the end (10,000 requisitions: 28 MB of text, about 100 MB of objects), and the garbage collector
 * copies them all while JSON.parse builds them; parsed one by one they die young, which costs
 * next to nothing. For those 10,000 requisitions the validator's peak memory fell from about 250
 * to 115 MB and its time by nearly a third (bench/validator.ts).
 */

/** JSON's four whitespace characters (RFC 8259, section 2): not String.prototype.trim's. */
const isJsonSpace = (code: number) =>
  code === 0x20 || code === 0x0a || code === 0x0d || code === 0x09;

/**
 * Calls `visit` with each item of `text` when it is a JSON array of one or more objects, and says
 * whether it was. On false, `text` is something else (an empty array, an item that is not an
 * object, broken JSON, or an item holding `},{` in a string, which could not be told apart
 * cheaply): whatever was visited must be dropped and the text parsed whole, which says what is
 * wrong with it.
 *
 * The text is cut after every `}` followed by a comma and a `{`, with JSON whitespace around the
 * comma. When every piece parses, the pieces are the array's items: the text is then `[` p1 `,`
 * p2 … `]` with each piece a JSON object, and JSON's grammar reads a text in one way only. A cut
 * inside a string or a nested value leaves a piece that does not parse.
 */
export function eachArrayObject(
  text: string,
  visit: (item: Record<string, unknown>) => void,
): boolean {
  let start = 0;
  let end = text.length;
  while (start < end && isJsonSpace(text.charCodeAt(start))) start += 1;
  while (end > start && isJsonSpace(text.charCodeAt(end - 1))) end -= 1;
  if (text.charCodeAt(start) !== 0x5b || text.charCodeAt(end - 1) !== 0x5d) return false; // [ ]
  start += 1;
  end -= 1;
  while (start < end && isJsonSpace(text.charCodeAt(start))) start += 1;
  while (end > start && isJsonSpace(text.charCodeAt(end - 1))) end -= 1;
  if (end - start < 2 || text.charCodeAt(start) !== 0x7b || text.charCodeAt(end - 1) !== 0x7d)
    return false; // { }

  const parsed = (piece: string): boolean => {
    let item: unknown;
    try {
      item = JSON.parse(piece);
    } catch {
      return false;
    }
    if (!isPlainObject(item)) return false;
    visit(item);
    return true;
  };

  let from = start; // the `{` of the item being read
  for (let close = text.indexOf('}', from); close !== -1 && close < end - 1;) {
    let next = close + 1;
    while (isJsonSpace(text.charCodeAt(next))) next += 1;
    if (text.charCodeAt(next) === 0x2c) {
      next += 1;
      while (isJsonSpace(text.charCodeAt(next))) next += 1;
      if (text.charCodeAt(next) === 0x7b) {
        if (!parsed(text.slice(from, close + 1))) return false;
        from = next;
      }
    }
    close = text.indexOf('}', close + 1);
  }
  return parsed(text.slice(from, end));
}
