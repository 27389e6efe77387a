import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { eachArrayObject } from './json-array';

/*
 * eachArrayObject must read exactly what JSON.parse reads, or step aside (false) for the whole
 * text to be parsed: never an item more, less or different.
 */
function itemsOf(text: string): Record<string, unknown>[] | null {
  const items: Record<string, unknown>[] = [];
  return eachArrayObject(text, (item) => items.push(item)) ? items : null;
}

/** JSON.parse's reading: the items, or null when the text is not an array of objects. */
function parsedWhole(text: string): unknown[] | null {
  try {
    const value: unknown = JSON.parse(text);
    return Array.isArray(value) ? value : null;
  } catch {
    return null;
  }
}

// Strings made to trip a splitter: separators, braces, quotes and escapes inside values.
const tricky = fc.oneof(
  fc.string(),
  fc.constantFrom(
    '},{',
    '} , {',
    '}\n,\n{',
    '"},{"',
    '\\',
    '\\"},{\\"',
    '{',
    '}',
    '[{}]',
    '},{"a":"b"}',
    '\u2028',
    '\ufeff',
  ),
);
const jsonish: fc.Arbitrary<unknown> = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: 'small' },
    tricky,
    fc.integer(),
    fc.double({ noNaN: true, noDefaultInfinity: true }),
    fc.boolean(),
    fc.constant(null),
    fc.array(tie('value'), { maxLength: 3 }),
    fc.dictionary(tricky, tie('value'), { maxKeys: 3 }),
  ),
})).value;
const object = fc.dictionary(tricky, jsonish, { maxKeys: 6 });
const spacing = fc.constantFrom(undefined, 0, 1, 2, '\t', ' \r\n');

describe('eachArrayObject', () => {
  it('reads every item of an array of objects, however it is spaced, as JSON.parse does', () => {
    fc.assert(
      fc.property(fc.array(object, { minLength: 1, maxLength: 6 }), spacing, (items, space) => {
        const text = JSON.stringify(items, null, space);
        const read = itemsOf(text);
        // Either read exactly, or left to JSON.parse when a value holds a separator.
        if (read !== null) expect(read).toEqual(JSON.parse(text));
        else expect(text).toMatch(/\}[ \t\n\r]*,[ \t\n\r]*\{/);
      }),
      { numRuns: 2000 },
    );
  });

  it('reads plain arrays of flat objects, as the validator gets them, without stepping aside', () => {
    fc.assert(
      fc.property(
        fc.array(fc.dictionary(fc.string(), fc.string({ unit: 'binary' })), {
          minLength: 1,
          maxLength: 20,
        }),
        spacing,
        (items, space) => {
          const text = JSON.stringify(items, null, space);
          // No key or value that looks like the cut between two items.
          fc.pre(text.split(/\}[ \t\n\r]*,[ \t\n\r]*\{/).length === items.length);
          expect(itemsOf(text)).toEqual(JSON.parse(text));
        },
      ),
      { numRuns: 1000 },
    );
  });

  it('never reads anything JSON.parse would not read the same way', () => {
    // Any text, and arrays of objects cut, spliced or padded at random.
    const mangled = fc
      .tuple(
        fc.array(object, { minLength: 1, maxLength: 4 }),
        fc.nat(),
        fc.nat(4),
        fc.string({ maxLength: 4 }),
      )
      .map(([items, at, drop, insert]) => {
        const text = JSON.stringify(items);
        const cut = at % (text.length + 1);
        return text.slice(0, cut) + insert + text.slice(cut + drop);
      });
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.json(), mangled), (text) => {
        const read = itemsOf(text);
        if (read !== null) expect(read).toEqual(parsedWhole(text));
      }),
      { numRuns: 5000 },
    );
  });

  it('steps aside for what is not a non-empty array of objects', () => {
    for (const text of [
      '',
      '   ',
      '{}',
      '{"a":"b"}',
      '[]',
      ' [ ] ',
      '[1]',
      '[{"a":"b"},1]',
      '[1,{"a":"b"}]',
      '[{"a":"b"},[]]',
      '[{"a":"b"},null,{"c":"d"}]',
      '[{"a":"b"}',
      '{"a":"b"}]',
      '[{"a":"b"},]',
      '[,{"a":"b"}]',
      '[{"a":"b"}{"c":"d"}]',
      '[{"a":"b"},,{"c":"d"}]',
      '\ufeff[{"a":"b"}]',
      '[{"a":"b"}]\u00a0',
      '[{"a":"b"}] x',
    ]) {
      expect(itemsOf(text), text).toBeNull();
    }
  });

  it('steps aside when a value holds what looks like the cut between two items, nested objects too', () => {
    expect(itemsOf('[{"a":"},{"}]')).toBeNull();
    expect(itemsOf('[{"a":"x} ,\n{y"},{"b":"c"}]')).toBeNull();
    expect(itemsOf('[{"a":{"b":[{"c":1},{"d":2}]}},{"e":[]}]')).toBeNull();
  });

  it('reads one item, many items and JSON whitespace around them', () => {
    expect(itemsOf('[{}]')).toEqual([{}]);
    expect(itemsOf(' \n[\r\n\t{"a":"}"} ,\n {"b":"{"}\n]\n')).toEqual([{ a: '}' }, { b: '{' }]);
    expect(itemsOf('[{"a":{"b":[{"c":1}]}},{"e":[]}]')).toEqual([
      { a: { b: [{ c: 1 }] } },
      { e: [] },
    ]);
    expect(itemsOf('[{"__proto__":"x","a":"1","a":"2"}]')).toEqual(
      JSON.parse('[{"__proto__":"x","a":"1","a":"2"}]'),
    );
  });
});
