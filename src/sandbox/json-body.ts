import { ApiError } from '@/domain/api-error';
/**
 * The deepest nesting a body may have. The interface takes an array of flat objects whose values
 * are strings (depth 2); a little room is left for QA's odd bodies, none for a stack-sized one.
 */
export const maxJsonDepth = 32;

/** How deep the brackets of a JSON text go, strings skipped; stops counting past `limit`. */
export function jsonDepth(text: string, limit: number): number {
  let depth = 0;
  let deepest = 0;
  let inString = false;
  for (let i = 0; i < text.length; i += 1) {
    const char = text.charCodeAt(i);
    if (inString) {
      if (char === 92 /* \ */) i += 1;
      else if (char === 34 /* " */) inString = false;
    } else if (char === 34) {
      inString = true;
    } else if (char === 91 /* [ */ || char === 123 /* { */) {
      depth += 1;
      if (depth > deepest) {
        deepest = depth;
        if (deepest > limit) return deepest;
      }
    } else if (char === 93 /* ] */ || char === 125 /* } */) {
      depth -= 1;
    }
  }
  return deepest;
}

/**
 * Reads a JSON body with the platform's own parser. `__proto__` is an ordinary key to
 * `JSON.parse` (an own property, never the prototype), so such an item is judged like any item
 * with an unknown field instead of being called "not valid JSON". Depth is checked first: a body
 * nested thousands deep is refused with a reason rather than exhausting the stack later.
 */
export function parseJsonBody(text: string): unknown {
  if (text.trim() === '') {
    throw new ApiError(
      'malformed_request',
      'The body is empty; send a JSON array of objects, one per item.',
    );
  }
  if (jsonDepth(text, maxJsonDepth) > maxJsonDepth) {
    throw new ApiError(
      'malformed_request',
      `The body is nested more than ${maxJsonDepth} levels deep; send a JSON array of flat objects whose values are strings ([{"field": "value"}]).`,
    );
  }
  try {
    return JSON.parse(text);
  } catch {
    throw new ApiError(
      'malformed_request',
      'The body is not valid JSON; send a JSON array of objects, one per item (check quotes, commas and brackets).',
    );
  }
}
