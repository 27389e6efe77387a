/**
 * JSON Pointers (RFC 6901): where a profile says a value sits in a VMS's answer, e.g. `/batchid`,
 * `/data/rows`, or `` for the whole body.
 */

/** A pointer's reference tokens, unescaped (`~1` is `/`, `~0` is `~`); null when malformed. */
export function pointerTokens(pointer: string): string[] | null {
  if (pointer === '') return [];
  if (!pointer.startsWith('/')) return null;
  return pointer
    .slice(1)
    .split('/')
    .map((token) => token.replaceAll('~1', '/').replaceAll('~0', '~'));
}

export function isJsonPointer(pointer: string): boolean {
  return pointerTokens(pointer) !== null && !/~[^01]|~$/.test(pointer);
}

/** The value at `pointer` in `document`, or undefined when there is none. */
export function readPointer(document: unknown, pointer: string): unknown {
  const tokens = pointerTokens(pointer);
  if (tokens === null) return undefined;
  let value: unknown = document;
  for (const token of tokens) {
    if (Array.isArray(value)) {
      if (!/^(0|[1-9]\d*)$/.test(token)) return undefined;
      value = value[Number(token)];
    } else if (typeof value === 'object' && value !== null && Object.hasOwn(value, token)) {
      value = (value as Record<string, unknown>)[token];
    } else {
      return undefined;
    }
  }
  return value;
}

/** A document with `value` at `pointer`, objects made along the way (the sandbox writes answers so). */
export function writePointer(pointer: string, value: unknown): unknown {
  const tokens = pointerTokens(pointer) ?? [];
  let result: unknown = value;
  for (const token of [...tokens].reverse()) result = { [token]: result };
  return result;
}

/**
 * `document` with `value` also at `pointer`, objects made along the way (an answer holding both
 * its records and their count). A pointer through something that is not an object leaves it as
 * it is.
 */
export function writePointerInto(document: unknown, pointer: string, value: unknown): unknown {
  const tokens = pointerTokens(pointer) ?? [];
  const [head, ...rest] = tokens;
  if (head === undefined) return value;
  const isObject = typeof document === 'object' && document !== null && !Array.isArray(document);
  if (!isObject && document !== undefined) return document;
  const base = (document ?? {}) as Record<string, unknown>;
  const restPointer = rest.map((token) => `/${token.replaceAll('~', '~0').replaceAll('/', '~1')}`);
  return { ...base, [head]: writePointerInto(base[head], restPointer.join(''), value) };
}
