import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { scanObjectArray } from './json-scan';

/** What the scanner must agree with: JSON.parse of the latin1 text, as checkBatchBody reads it. */
function reference(bytes: Buffer): number {
  let parsed: unknown;
  try {
    parsed = JSON.parse(bytes.toString('latin1'));
  } catch {
    return -1;
  }
  if (!Array.isArray(parsed) || parsed.length === 0) return -1;
  const allObjects = parsed.every(
    (item: unknown) => typeof item === 'object' && item !== null && !Array.isArray(item),
  );
  return allObjects ? parsed.length : -1;
}

function agrees(text: string | Buffer): void {
  const bytes = typeof text === 'string' ? Buffer.from(text, 'latin1') : text;
  expect(scanObjectArray(bytes), JSON.stringify(bytes.toString('latin1'))).toBe(reference(bytes));
}

describe('scanObjectArray', () => {
  it.each([
    ['[{}]', 1],
    [' \t\r\n[ {} , {"a":1} ]\n', 2],
    ['[{"a":[1,-2.5e+3,0,-0,1E-7,true,false,null,"x",{"b":[]}]}]', 1],
    ['[{"s":"\\" \\\\ \\/ \\b \\f \\n \\r \\t \\u00e9 \\uD83D\\uDE80"}]', 1],
    ['[{"":""}]', 1],
    ['[{"é":"日本語 🚀"}]', 1],
  ])('accepts %j (%i items)', (text, count) => {
    expect(scanObjectArray(Buffer.from(text, 'utf8'))).toBe(count);
    agrees(Buffer.from(text, 'utf8'));
  });

  it.each([
    '',
    ' ',
    '[]',
    '{}',
    '[{}',
    '[{}]]',
    '[{},]',
    '[,{}]',
    '[{}{}]',
    '[{} x]',
    '[{"a"}]',
    '[{"a":}]',
    '[{"a":1,}]',
    '[{a:1}]',
    "[{'a':1}]",
    '[{"a":01}]',
    '[{"a":1.}]',
    '[{"a":.5}]',
    '[{"a":+1}]',
    '[{"a":1e}]',
    '[{"a":-}]',
    '[{"a":tru}]',
    '[{"a":nul}]',
    '[{"a":NaN}]',
    '[{"a":"\\x"}]',
    '[{"a":"\\u12G4"}]',
    '[{"a":"\\u12"}]',
    '[{"a":"tab\there"}]',
    '[{"a":"line\nbreak"}]',
    '[{"a":"open}]',
    '[{}] {}',
    '[{}]\u000b',
    '[{}, null]',
    '[{}, []]',
    '[{}, "x"]',
    '[{}, 1]',
    '[[{}]]',
    '\u00a0[{}]',
  ])('refuses %j', (text) => {
    expect(scanObjectArray(Buffer.from(text, 'latin1'))).toBe(-1);
    agrees(text);
  });

  it('handles nesting far deeper than the call stack allows', () => {
    const depth = 200_000;
    agrees(`[{"a":${'['.repeat(depth)}${']'.repeat(depth)}}]`);
    agrees(`[{"a":${'['.repeat(depth)}${']'.repeat(depth - 1)}}]`);
  });

  it('counts the 100-item benchmark batch', () => {
    const batch = JSON.stringify(
      Array.from({ length: 100 }, (_, i) => ({ titlerole: `Ingénieur ${i}`, n: i, ok: true })),
    );
    expect(scanObjectArray(Buffer.from(batch, 'utf8'))).toBe(100);
  });
});

// Property tests against JSON.parse. Only false acceptances would be harmful (checkBatchBody
// re-checks everything the scanner refuses), but the scanner is meant to agree exactly.
const jsonAlphabet = [...'[]{},:" \t\n\r\\/-+.0123456789eEtrufalsnbu\u0000\u001fAé'];
const jsonish = fc
  .array(fc.constantFrom(...jsonAlphabet), { maxLength: 40 })
  .map((chars) => chars.join(''));

/** Valid JSON texts shaped like batches: arrays of objects, with odd whitespace. */
const whitespace = fc.stringMatching(/^[ \t\n\r]{0,3}$/);
const batchText = fc
  .tuple(
    fc.array(fc.dictionary(fc.string(), fc.jsonValue()), { minLength: 1, maxLength: 5 }),
    whitespace,
    whitespace,
  )
  .map(([items, before, after]) => `${before}${JSON.stringify(items, null, 1)}${after}`);

/** A valid text with a few characters changed, inserted or removed. */
const mutated = fc
  .tuple(
    fc.oneof(batchText, fc.json()),
    fc.array(
      fc.tuple(
        fc.nat(),
        fc.constantFrom('replace', 'insert', 'delete'),
        fc.constantFrom(...jsonAlphabet),
      ),
      { minLength: 1, maxLength: 3 },
    ),
  )
  .map(([text, edits]) => {
    let out = text;
    for (const [at, kind, char] of edits) {
      const i = out.length === 0 ? 0 : at % out.length;
      if (kind === 'replace') out = out.slice(0, i) + char + out.slice(i + 1);
      else if (kind === 'insert') out = out.slice(0, i) + char + out.slice(i);
      else out = out.slice(0, i) + out.slice(i + 1);
    }
    return out;
  });

// Generous timeouts: the machine's other test runs can slow these several-fold.
describe('scanObjectArray agrees with JSON.parse', { timeout: 60_000 }, () => {
  it('on arrays of objects', () => {
    fc.assert(
      fc.property(batchText, (text) => agrees(Buffer.from(text, 'utf8'))),
      {
        numRuns: 2000,
      },
    );
  });

  it('on any JSON value, wrapped in an array or not', () => {
    fc.assert(
      fc.property(fc.json(), fc.boolean(), (text, wrap) => agrees(wrap ? `[${text}]` : text)),
      { numRuns: 2000 },
    );
  });

  it('on mutated JSON', () => {
    fc.assert(
      fc.property(mutated, (text) => agrees(Buffer.from(text, 'utf8'))),
      {
        numRuns: 10_000,
      },
    );
  });

  it('on JSON-like noise inside an array of objects', () => {
    fc.assert(
      fc.property(jsonish, jsonish, (a, b) => {
        agrees(`[{${a}}]`);
        agrees(`[{"k":${a}}, {${b}}]`);
        agrees(`${a}${b}`);
      }),
      { numRuns: 20_000 },
    );
  });

  it('on arbitrary bytes', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 40 }), (bytes) => {
        agrees(Buffer.concat([Buffer.from('[{"a":"'), bytes, Buffer.from('"}]')]));
        agrees(Buffer.from(bytes));
      }),
      { numRuns: 5000 },
    );
  });
});
