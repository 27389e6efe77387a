import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  CredentialScrubber,
  redactedMark,
  scrub,
  scrubText,
  SecretNeedles,
} from './credential-scrub';

const needles = SecretNeedles.of(['key-123456', 'secret-abcdef', null, 'abc']);

/** A key shaped like the ones VMSs hand out: base64 with `+`, `/` and padding. */
const key = 'ops+key/AbC==';
const secret = 'sh/h+S3cr3t~x';

/** `\uXXXX` for one UTF-16 code unit, in the case asked for. */
function unicodeEscape(character: string, upper: boolean): string {
  const hex = character.charCodeAt(0).toString(16).padStart(4, '0');
  return `\\u${upper ? hex.toUpperCase() : hex}`;
}

function percent(character: string, upper: boolean): string {
  return [...Buffer.from(character, 'utf8')]
    .map((byte) => {
      const hex = byte.toString(16).padStart(2, '0');
      return `%${upper ? hex.toUpperCase() : hex}`;
    })
    .join('');
}

describe('scrub', () => {
  it('returns the same buffer when there is nothing to replace', () => {
    const bytes = Buffer.from('nothing here, abc included');
    expect(scrub(bytes, needles)).toBe(bytes);
  });

  it('returns the same buffer when a body has escapes but no secret', () => {
    const bytes = Buffer.from(String.raw`{"note":"50% off \u00e9t\u00E9 a\/b"}`);
    expect(scrub(bytes, SecretNeedles.of([key, secret]))).toBe(bytes);
  });

  it('replaces secrets in text too', () => {
    expect(scrubText('/api/vms/requisitions?x=secret-abcdef', needles)).toBe(
      '/api/vms/requisitions?x=[redacted]',
    );
  });

  it('finds a secret JSON-escaped and percent-encoded as well as it is', () => {
    const awkward = 'a"b\\c/d e+f';
    const body = Buffer.from(
      JSON.stringify({ raw: awkward, url: `?s=${encodeURIComponent(awkward)}` }),
    );
    expect(scrub(body, SecretNeedles.of([awkward])).toString('utf8')).toBe(
      '{"raw":"[redacted]","url":"?s=[redacted]"}',
    );
  });

  // The two ways the trials saw a VMS echo a key: PHP's json_encode escapes every slash, and
  // .NET's System.Text.Json writes `+` as \u002B.
  it.each([
    ['PHP', String.raw`{"error":"bad key ops+key\/AbC=="}`],
    ['.NET', String.raw`{"error":"bad key ops\u002Bkey/AbC=="}`],
    ['.NET in lower case', String.raw`{"error":"bad key ops\u002bkey\/AbC\u003d\u003D"}`],
    [
      'every character escaped',
      `{"error":"bad key ${[...key].map((c) => unicodeEscape(c, true)).join('')}"}`,
    ],
    ['JSON inside a JSON string', String.raw`{"error":"{\"key\":\"ops\\u002Bkey\\\/AbC==\"}"}`],
    ['percent-encoded in lower case', `{"url":"?k=ops%2bkey%2fAbC%3d%3d"}`],
    ['percent-encoded twice', `{"url":"?k=ops%252Bkey%252FAbC%253D%253D"}`],
    ['percent and JSON escapes mixed', String.raw`{"url":"?k=ops%2Bkey\/AbC%3D="}`],
    ['base64', `{"auth":"${Buffer.from(key).toString('base64')}"}`],
    ['base64 without padding, URL-safe', `{"auth":"${Buffer.from(key).toString('base64url')}"}`],
  ])('finds the key as %s writes it, and JSON.parse then reads no key', (_, text) => {
    const clean = scrub(Buffer.from(text), SecretNeedles.of([key, secret])).toString('utf8');
    expect(clean).toContain(redactedMark);
    expect(JSON.stringify(JSON.parse(clean))).not.toContain(key);
    expect(clean).not.toContain(Buffer.from(key).toString('base64').replace(/=+$/, ''));
  });

  it('finds any mix of plain, escaped and encoded characters that decodes to a secret', () => {
    const secrets = [key, secret];
    const scrubbed = SecretNeedles.of(secrets);
    // Each character of the secret written one of five ways, chosen by the property.
    const writing = fc.array(fc.integer({ min: 0, max: 4 }), {
      minLength: secret.length,
      maxLength: secret.length,
    });
    fc.assert(
      fc.property(fc.constantFrom(...secrets), writing, fc.boolean(), (target, ways, upper) => {
        const written = [...target]
          .map((character, at) => {
            const way = ways[at] ?? 0;
            if (way === 1) return unicodeEscape(character, upper);
            if (way === 2 && character === '/') return '\\/';
            if (way === 3) return percent(character, upper);
            // Encoded twice, as a URL quoted in another URL's query: each `%` written `%25`.
            if (way === 4) return percent(character, upper).replaceAll('%', '%25');
            return character;
          })
          .join('');
        const body = Buffer.from(`{"echo":"before ${written} after"}`);
        const clean = scrub(body, scrubbed).toString('utf8');
        // What a browser reads, after JSON and (for the encoded ways) URL decoding.
        const read = JSON.parse(clean) as { echo: string };
        expect(read.echo).toBe(`before ${redactedMark} after`);
      }),
      { numRuns: 500 },
    );
  });

  it('cleans header values of escaped and encoded forms', () => {
    expect(scrubText('ops%2Bkey%2FAbC%3D%3D', SecretNeedles.of([key]))).toBe(redactedMark);
    expect(scrubText('x ops\\u002Bkey/AbC== y', SecretNeedles.of([key]))).toBe(
      `x ${redactedMark} y`,
    );
  });

  it('keeps non-ASCII text around a secret whole', () => {
    const body = Buffer.from('{"note":"Zürich ops\\u002Bkey\\/AbC== 東京"}');
    expect(scrub(body, SecretNeedles.of([key])).toString('utf8')).toBe(
      `{"note":"Zürich ${redactedMark} 東京"}`,
    );
  });

  it('finds a secret with non-ASCII characters escaped as UTF-16 units or encoded as UTF-8', () => {
    const accented = 'clé-secrète-😀';
    const escaped = JSON.stringify(accented).replace(/[^\x20-\x7e]/gu, (character) =>
      [...character]
        .flatMap((c) => (c.length === 2 ? [c.charCodeAt(0), c.charCodeAt(1)] : [c.charCodeAt(0)]))
        .map((unit) => `\\u${unit.toString(16).padStart(4, '0')}`)
        .join(''),
    );
    const body = Buffer.from(`{"a":${escaped},"b":"${encodeURIComponent(accented)}"}`);
    expect(JSON.parse(scrub(body, SecretNeedles.of([accented])).toString('utf8'))).toEqual({
      a: redactedMark,
      b: redactedMark,
    });
  });
});

describe('CredentialScrubber', () => {
  const scrubber = new CredentialScrubber(['key-123456', 'secret-abcdef']);
  const signature = 'f'.repeat(64);

  it('cleans the body and headers of the key, the secret and that call’s signature', () => {
    const answer = scrubber.answer(
      { 'content-type': 'text/plain', 'retry-after': signature },
      Buffer.from(`bad key-123456 / secret-abcdef / ${signature}`),
      signature,
    );
    expect(answer.body.toString('utf8')).toBe('bad [redacted] / [redacted] / [redacted]');
    expect(answer.headers).toEqual({ 'content-type': 'text/plain', 'retry-after': '[redacted]' });
    expect(answer.redacted).toBe(true);
  });

  it('cleans a base64 signature echoed with its slashes escaped', () => {
    const base64Signature = 'q/Zr+8aB0cD1eF2gH3iJ4kL5mN6oP7qR8sT9uV0wX1y=';
    const answer = scrubber.answer(
      {},
      Buffer.from(JSON.stringify({ got: base64Signature }).replaceAll('/', '\\/')),
      base64Signature,
    );
    expect(answer.body.toString('utf8')).toBe(`{"got":"${redactedMark}"}`);
  });

  it('passes a clean answer on as the same buffer, and an older signature is not this call’s', () => {
    const body = Buffer.from(`[{"Status":"Success","Note":"${'e'.repeat(64)}"}]`);
    const answer = scrubber.answer({ 'content-type': 'application/json' }, body, signature);
    expect(answer.body).toBe(body);
    expect(answer.redacted).toBe(false);
  });

  it('says redacted when only a header held a credential', () => {
    const answer = scrubber.answer({ 'retry-after': 'key-123456' }, Buffer.from('{}'), null);
    expect(answer.redacted).toBe(true);
    expect(answer.body.toString()).toBe('{}');
  });
});
