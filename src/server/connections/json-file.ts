import { readFileSync } from 'node:fs';

/**
 * Reads a JSON file and says what is wrong with it without quoting it: a syntax error's own
 * message quotes the text around the mistake, which may be a secret written in by mistake.
 */
export function readJson(path: string): { json: unknown } | { problem: string } {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    const code = error instanceof Error ? Reflect.get(error, 'code') : undefined;
    return {
      problem: `cannot be read${typeof code === 'string' ? ` (${code})` : ''}: check the path`,
    };
  }
  try {
    return { json: JSON.parse(text) };
  } catch {
    const before = text.slice(0, syntaxErrorAt(text)).split('\n');
    return {
      problem: `is not JSON at line ${before.length}, column ${(before.at(-1)?.length ?? 0) + 1}`,
    };
  }
}

/**
 * Where JSON text first goes wrong, found by reading it again: JSON.parse's message does not
 * always say where, and when it does not it quotes the text instead.
 */
function syntaxErrorAt(text: string): number {
  let at = 0;
  const fail = (): never => {
    throw at;
  };
  const space = () => {
    while (at < text.length && ' \t\n\r'.includes(text.charAt(at))) at++;
  };
  const literal = (word: string) => {
    for (const char of word)
      if (text.charAt(at) === char) at++;
      else fail();
  };
  const string = () => {
    at++; // the opening quote
    while (at < text.length && text.charAt(at) !== '"') {
      const code = text.charCodeAt(at);
      if (code < 0x20) fail();
      if (text.charAt(at) === '\\') {
        at++;
        if (text.charAt(at) === 'u') {
          at++;
          for (let i = 0; i < 4; i++, at++) if (!/[0-9a-fA-F]/.test(text.charAt(at))) fail();
          continue;
        }
        if (!'"\\/bfnrt'.includes(text.charAt(at)) || at >= text.length) fail();
      }
      at++;
    }
    if (at >= text.length) fail();
    at++;
  };
  const number = () => {
    const match = /^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?/.exec(text.slice(at));
    if (!match) fail();
    at += match?.[0].length ?? 0;
  };
  const value = (): void => {
    space();
    const char = text.charAt(at);
    if (char === '{') {
      at++;
      space();
      if (text.charAt(at) === '}') return void at++;
      for (;;) {
        space();
        if (text.charAt(at) !== '"') fail();
        string();
        space();
        if (text.charAt(at) !== ':') fail();
        at++;
        value();
        space();
        if (text.charAt(at) === ',') at++;
        else if (text.charAt(at) === '}') return void at++;
        else fail();
      }
    }
    if (char === '[') {
      at++;
      space();
      if (text.charAt(at) === ']') return void at++;
      for (;;) {
        value();
        space();
        if (text.charAt(at) === ',') at++;
        else if (text.charAt(at) === ']') return void at++;
        else fail();
      }
    }
    if (char === '"') return string();
    if (char === 't') return literal('true');
    if (char === 'f') return literal('false');
    if (char === 'n') return literal('null');
    return number();
  };
  try {
    value();
    space();
    return at < text.length ? at : text.length;
  } catch (position) {
    return typeof position === 'number' ? position : 0;
  }
}
