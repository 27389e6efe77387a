/**
 * A JSON syntax check that allocates nothing: `scanObjectArray(bytes)` says whether `bytes` is a
 * well-formed JSON array whose items are all objects, and how many there are, without building
 * the values. It exists for the proxy's hot path (bench/proxy.ts: `JSON.parse` of a 30 KB batch
 * was the largest single cost per forwarded call); `checkBatchBody` falls back to `JSON.parse`
 * for anything it does not accept, so it only ever has to be right about what it accepts.
 *
 * The grammar is RFC 8259 as `JSON.parse` applies it to the body read as latin1 (which is how
 * `checkBatchBody` parses): whitespace is space, tab, LF and CR; strings may hold any byte from
 * 0x20 up except `"` and `\`, whose escapes are `\" \\ \/ \b \f \n \r \t \uXXXX`. The fuzz tests
 * in json-scan.test.ts compare it with `JSON.parse` on millions of generated and mutated inputs.
 */

const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;
const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const COLON = 0x3a;
const MINUS = 0x2d;
const PLUS = 0x2b;
const DOT = 0x2e;
const ZERO = 0x30;
const NINE = 0x39;

/** Bytes allowed after a backslash: " \ / b f n r t (u is handled apart). */
const simpleEscape = new Uint8Array(256);
for (const c of '"\\/bfnrt') simpleEscape[c.charCodeAt(0)] = 1;

/** Bytes that are string content as they stand: anything from 0x20 up except `"` and `\`. */
const plainInString = new Uint8Array(256);
for (let c = 0x20; c < 256; c += 1) plainInString[c] = c === QUOTE || c === BACKSLASH ? 0 : 1;

const hexDigit = new Uint8Array(256);
for (const c of '0123456789abcdefABCDEF') hexDigit[c.charCodeAt(0)] = 1;

function isWhitespace(c: number): boolean {
  return c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;
}

function skipWhitespace(b: Uint8Array, i: number): number {
  const n = b.length;
  while (i < n && isWhitespace(b[i] as number)) i += 1;
  return i;
}

/** `i` is at an opening quote; returns the index after the closing one, or -1. */
function scanString(b: Uint8Array, i: number): number {
  const n = b.length;
  i += 1;
  while (i < n) {
    // The common case first: a run of ordinary characters, one table look-up each.
    while (i < n && plainInString[b[i] as number]) i += 1;
    if (i >= n) return -1;
    const c = b[i] as number;
    if (c === QUOTE) return i + 1;
    if (c < 0x20) return -1;
    if (c === BACKSLASH) {
      const e = b[i + 1];
      if (e === undefined) return -1;
      if (e === 0x75 /* u */) {
        if (
          i + 5 >= n ||
          !hexDigit[b[i + 2] as number] ||
          !hexDigit[b[i + 3] as number] ||
          !hexDigit[b[i + 4] as number] ||
          !hexDigit[b[i + 5] as number]
        ) {
          return -1;
        }
        i += 6;
      } else if (simpleEscape[e]) {
        i += 2;
      } else {
        return -1;
      }
    } else {
      i += 1;
    }
  }
  return -1;
}

function isDigit(c: number | undefined): boolean {
  return c !== undefined && c >= ZERO && c <= NINE;
}

/** `i` is at `-` or a digit; returns the index after the number, or -1. */
function scanNumber(b: Uint8Array, i: number): number {
  if (b[i] === MINUS) i += 1;
  if (b[i] === ZERO) {
    i += 1;
  } else if (isDigit(b[i])) {
    while (isDigit(b[i])) i += 1;
  } else {
    return -1;
  }
  if (b[i] === DOT) {
    i += 1;
    if (!isDigit(b[i])) return -1;
    while (isDigit(b[i])) i += 1;
  }
  if (b[i] === 0x65 /* e */ || b[i] === 0x45 /* E */) {
    i += 1;
    if (b[i] === PLUS || b[i] === MINUS) i += 1;
    if (!isDigit(b[i])) return -1;
    while (isDigit(b[i])) i += 1;
  }
  return i;
}

function matches(b: Uint8Array, i: number, word: string): boolean {
  for (let k = 0; k < word.length; k += 1) {
    if (b[i + k] !== word.charCodeAt(k)) return false;
  }
  return true;
}

const IN_ARRAY = 0;
const IN_OBJECT = 1;

/**
 * `i` is at the first byte of a value; returns the index after it, or -1 when it is not
 * well-formed. Iterative, with an explicit stack, so deep nesting cannot overflow the call stack
 * (`JSON.parse` accepts it too).
 */
function scanValue(b: Uint8Array, i: number): number {
  const stack: number[] = [];
  for (;;) {
    // A value starts at i.
    const c = b[i];
    if (c === OPEN_BRACE) {
      i = skipWhitespace(b, i + 1);
      if (b[i] === CLOSE_BRACE) {
        i += 1;
      } else {
        stack.push(IN_OBJECT);
        i = scanKey(b, i);
        if (i < 0) return -1;
        continue;
      }
    } else if (c === OPEN_BRACKET) {
      i = skipWhitespace(b, i + 1);
      if (b[i] === CLOSE_BRACKET) {
        i += 1;
      } else {
        stack.push(IN_ARRAY);
        continue;
      }
    } else if (c === QUOTE) {
      i = scanString(b, i);
    } else if (c === MINUS || isDigit(c)) {
      i = scanNumber(b, i);
    } else if (c === 0x74 /* t */ && matches(b, i, 'true')) {
      i += 4;
    } else if (c === 0x66 /* f */ && matches(b, i, 'false')) {
      i += 5;
    } else if (c === 0x6e /* n */ && matches(b, i, 'null')) {
      i += 4;
    } else {
      return -1;
    }
    if (i < 0) return -1;

    // A value ended at i: close containers until one continues with a comma.
    for (;;) {
      const top = stack.at(-1);
      if (top === undefined) return i;
      i = skipWhitespace(b, i);
      const next = b[i];
      if (next === COMMA) {
        i = skipWhitespace(b, i + 1);
        if (top === IN_OBJECT) {
          i = scanKey(b, i);
          if (i < 0) return -1;
        }
        break;
      }
      if (next !== (top === IN_OBJECT ? CLOSE_BRACE : CLOSE_BRACKET)) return -1;
      stack.pop();
      i += 1;
    }
  }
}

/** `i` is where an object's key should start; returns the index of its value, or -1. */
function scanKey(b: Uint8Array, i: number): number {
  if (b[i] !== QUOTE) return -1;
  i = scanString(b, i);
  if (i < 0) return -1;
  i = skipWhitespace(b, i);
  if (b[i] !== COLON) return -1;
  return skipWhitespace(b, i + 1);
}

/**
 * The number of items when `bytes` is a well-formed JSON array of one or more objects (surrounding
 * whitespace allowed), else -1: not JSON, not an array, empty, or an item that is not an object.
 */
export function scanObjectArray(bytes: Uint8Array): number {
  let i = skipWhitespace(bytes, 0);
  if (bytes[i] !== OPEN_BRACKET) return -1;
  i = skipWhitespace(bytes, i + 1);
  let count = 0;
  for (;;) {
    if (bytes[i] !== OPEN_BRACE) return -1;
    i = scanValue(bytes, i);
    if (i < 0) return -1;
    count += 1;
    i = skipWhitespace(bytes, i);
    const next = bytes[i];
    if (next === COMMA) {
      i = skipWhitespace(bytes, i + 1);
    } else if (next === CLOSE_BRACKET) {
      return skipWhitespace(bytes, i + 1) === bytes.length ? count : -1;
    } else {
      return -1;
    }
  }
}
