import { describe, expect, it } from 'vitest';
import {
  describeRecipe,
  encodingsOf,
  everyRecipe,
  sandboxSignatureRecipe,
  signatureRecipeSchema,
  timestampFormsOf,
} from './signature-recipe';
import { formatTimestamp, parseTimestamp, timestampPrecisionMs } from './signature-timestamp';

/** The messages of a refused recipe. */
function refusal(input: unknown): string[] {
  const result = signatureRecipeSchema.safeParse(input);
  if (result.success) throw new Error(`accepted ${JSON.stringify(input)}`);
  return result.error.issues.map((issue) => issue.message);
}

describe('signatureRecipeSchema', () => {
  it('gives the sandbox recipe for an empty object, so a profile without one signs as before', () => {
    expect(signatureRecipeSchema.parse({})).toEqual({
      hash: 'sha256',
      order: ['key', 'secret', 'timestamp'],
      timestamp: { form: 'unix-seconds', travel: 'none' },
      encoding: 'hex',
      keyHeader: 'x-api-key',
      signatureHeader: 'x-signature',
    });
    expect(signatureRecipeSchema.parse(sandboxSignatureRecipe)).toEqual(sandboxSignatureRecipe);
  });

  it('accepts an HMAC recipe with the body and a timestamp header, and lowercases header names', () => {
    const recipe = signatureRecipeSchema.parse({
      hash: 'hmac-sha512',
      order: ['timestamp', 'body', 'key'],
      timestamp: { form: 'unix-milliseconds', travel: { header: 'X-Request-Time' } },
      encoding: 'base64',
      keyHeader: 'X-Key',
      signatureHeader: 'Authorization-Sig',
    });
    expect(recipe.timestamp.travel).toEqual({ header: 'x-request-time' });
    expect(recipe.keyHeader).toBe('x-key');
    expect(recipe.signatureHeader).toBe('authorization-sig');
  });

  it('accepts a timestamp in the query and an ISO timestamp that does not travel', () => {
    expect(
      signatureRecipeSchema.safeParse({ timestamp: { form: 'iso-8601', travel: { query: 'ts' } } })
        .success,
    ).toBe(true);
    expect(signatureRecipeSchema.safeParse({ timestamp: { form: 'iso-8601' } }).success).toBe(true);
  });

  it.each([
    [{ hash: 'md5' }, 'signature.hash must be one of sha256, sha512, hmac-sha256, hmac-sha512'],
    [{ encoding: 'base32' }, 'signature.encoding must be one of hex, HEX, base64'],
    [
      { timestamp: { form: 'rfc-2822' } },
      'signature.timestamp.form must be unix-seconds, unix-milliseconds, iso-8601 or a date-time pattern such as YYYYMMDDHHmmss (UTC): "rfc-2822" has "r", which is no token',
    ],
    [
      { timestamp: { form: 'YYYYMMDDhhmmss', travel: { header: 'x-ts' } } },
      'signature.timestamp.form must be unix-seconds, unix-milliseconds, iso-8601 or a date-time pattern such as YYYYMMDDHHmmss (UTC): "YYYYMMDDhhmmss" has hh, a 12-hour clock, without A',
    ],
    [
      { timestamp: { form: 'YYYY-MM-DD' } },
      'signature.timestamp.form must be unix-seconds, unix-milliseconds, iso-8601 or a date-time pattern such as YYYYMMDDHHmmss (UTC): "YYYY-MM-DD" has no hour',
    ],
    [
      { timestamp: { form: 'YYYYMMDDHHmmssSSS', travel: 'none' } },
      'signature.timestamp.travel cannot be "none" with YYYYMMDDHHmmssSSS: it writes milliseconds',
    ],
    [{ order: ['key', 'nonce'] }, 'signature.order may only contain key, secret, timestamp, body'],
    [{ order: 'key+secret' }, 'signature.order must be a list of parts'],
    [{ order: ['key', 'secret', 'timestamp', 'key'] }, 'signature.order names key more than once'],
    [{ order: ['key', 'secret'] }, 'signature.order must include timestamp'],
    [{ order: ['secret', 'timestamp'] }, 'signature.order must include key'],
    [{ order: ['key', 'timestamp'] }, 'signature.order must include secret with sha256'],
    [{ hash: 'hmac-sha256' }, 'signature.order must not include secret with hmac-sha256'],
    [
      { timestamp: { form: 'unix-milliseconds', travel: 'none' } },
      'signature.timestamp.travel cannot be "none" with unix-milliseconds',
    ],
    [{ timestamp: { travel: { cookie: 't' } } }, 'signature.timestamp.travel must be "none"'],
    [{ timestamp: { travel: { query: 'a b' } } }, 'signature.timestamp.travel'],
    [{ keyHeader: 'x api key' }, 'signature.keyHeader must be a header name'],
    [{ signatureHeader: '' }, 'signature.signatureHeader must be a header name'],
    [{ signatureHeader: 'X-API-Key' }, 'signature.signatureHeader must differ'],
    [
      { timestamp: { travel: { header: 'x-signature' } } },
      'signature.timestamp.travel.header must differ',
    ],
    [{ salt: 'x' }, 'signature has unknown keys (salt)'],
    [{ timestamp: { form: 'iso-8601', zone: 'UTC' } }, 'signature.timestamp has unknown keys'],
    ['sha256', 'signature must be an object'],
  ])('refuses %j, naming the key', (input, message) => {
    const messages = refusal(input);
    expect(
      messages.some((text) => text.startsWith(message)),
      messages.join(' | '),
    ).toBe(true);
  });
});

describe('describeRecipe', () => {
  it('says the sandbox recipe in one sentence', () => {
    expect(describeRecipe(sandboxSignatureRecipe)).toBe(
      'lowercase hex SHA-256 of key + secret + Unix seconds, timestamp not sent',
    );
  });

  it('says an HMAC recipe, where its timestamp travels and headers that are not the usual ones', () => {
    expect(
      describeRecipe({
        hash: 'hmac-sha512',
        order: ['key', 'timestamp', 'body'],
        timestamp: { form: 'iso-8601', travel: { query: 'ts' } },
        encoding: 'base64',
        keyHeader: 'x-key',
        signatureHeader: 'x-sig',
      }),
    ).toBe(
      'base64 HMAC-SHA512 keyed with the secret of key + ISO 8601 UTC time to the second + body, ' +
        'timestamp sent as the ts query parameter, key in x-key, signature in x-sig',
    );
    expect(
      describeRecipe({
        ...sandboxSignatureRecipe,
        encoding: 'HEX',
        timestamp: { form: 'unix-milliseconds', travel: { header: 'x-ts' } },
      }),
    ).toBe(
      'uppercase hex SHA-256 of key + secret + Unix milliseconds, timestamp sent in the x-ts header',
    );
  });
});

describe('timestamps', () => {
  // 2026-11-27T10:15:30Z is 1795774530 (date -u -d 2026-11-27T10:15:30Z +%s).
  const at = 1_795_774_530_456;

  it('writes each form', () => {
    expect(formatTimestamp('unix-seconds', at)).toBe('1795774530');
    expect(formatTimestamp('unix-milliseconds', at)).toBe('1795774530456');
    expect(formatTimestamp('iso-8601', at)).toBe('2026-11-27T10:15:30Z');
    expect(formatTimestamp('YYYYMMDDHHmmss', at)).toBe('20261127101530');
    expect(formatTimestamp('DD.MM.YYYY h:mm A', at)).toBe('27.11.2026 10:15 AM');
    expect(formatTimestamp('YYYY-MM-DD HH:mm:ss.SSS', at)).toBe('2026-11-27 10:15:30.456');
  });

  it('reads a pattern back in UTC, strictly, and says how long its text lasts', () => {
    expect(parseTimestamp('YYYYMMDDHHmmss', '20261127101530')).toBe(1_795_774_530_000);
    expect(parseTimestamp('YYYY-MM-DD HH:mm', '2026-11-27 10:15')).toBe(1_795_774_500_000);
    expect(parseTimestamp('YYYYMMDDHHmmss', '2026112710153')).toBeNull();
    expect(parseTimestamp('YYYYMMDDHHmmss', '20261131101530')).toBeNull();
    expect(parseTimestamp('YYYY-MM-DD HH:mm:ss', '2026-11-27T10:15:30Z')).toBeNull();
    expect(timestampPrecisionMs('YYYYMMDDHHmmss')).toBe(1000);
    expect(timestampPrecisionMs('YYYYMMDDHHmm')).toBe(60_000);
    expect(timestampPrecisionMs('YYYYMMDDHH')).toBe(3_600_000);
    expect(timestampPrecisionMs('YYYYMMDDHHmmssSSS')).toBe(1);
    // A literal's letters are no tokens: this one writes whole minutes.
    expect(timestampPrecisionMs('YYYY-MM-DD HH:mm [ss]')).toBe(60_000);
  });

  it('reads each form back, and only text written in that form', () => {
    expect(parseTimestamp('unix-seconds', '1795774530')).toBe(1_795_774_530_000);
    expect(parseTimestamp('unix-milliseconds', '1795774530456')).toBe(at);
    expect(parseTimestamp('iso-8601', '2026-11-27T10:15:30Z')).toBe(1_795_774_530_000);
    expect(parseTimestamp('iso-8601', '2026-11-27T10:15:30.456Z')).toBeNull();
    expect(parseTimestamp('iso-8601', '2026-02-30T10:15:30Z')).toBeNull();
    expect(parseTimestamp('unix-seconds', '1795774530456')).toBeNull();
    expect(parseTimestamp('unix-seconds', ' 1795774530')).toBeNull();
  });

  it('says which forms an example timestamp can be', () => {
    expect(timestampFormsOf('1546259837')).toEqual(['unix-seconds']);
    expect(timestampFormsOf('1546259837000')).toEqual(['unix-milliseconds']);
    expect(timestampFormsOf('2026-11-27T10:15:30Z')).toEqual(['iso-8601']);
    expect(timestampFormsOf('20261127101530')).toEqual(['YYYYMMDDHHmmss']);
    expect(timestampFormsOf('2026-11-27T10:15:30')).toEqual(['YYYY-MM-DD[T]HH:mm:ss']);
    // Both orders of day and month read it, and the signature is over the text: either.
    expect(timestampFormsOf('05/03/2026 10:15:30')).toEqual([
      'MM/DD/YYYY HH:mm:ss',
      'DD/MM/YYYY HH:mm:ss',
    ]);
    expect(timestampFormsOf('yesterday')).toEqual([]);
  });
});

describe('encodingsOf', () => {
  it('reads the encoding from the text', () => {
    expect(encodingsOf('fce2e802')).toEqual(['hex', 'base64']);
    expect(encodingsOf('FCE2E802')).toEqual(['HEX', 'base64']);
    expect(encodingsOf('/OLoAlPNQ4tmY0EXbzS95JkRa2NxniSC2ullVRj/0xY=')).toEqual(['base64']);
    expect(encodingsOf('not a signature')).toEqual([]);
  });
});

describe('everyRecipe', () => {
  const recipes = everyRecipe();

  it('is hash × order × timestamp form × encoding, each recipe valid and different', () => {
    // Plain hashes: key, secret, timestamp in any order (3!), or with the body (4!); HMAC: key and
    // timestamp (2!) or with the body (3!). Three named forms and seven patterns, three encodings.
    expect(recipes).toHaveLength((2 * (6 + 24) + 2 * (2 + 6)) * (3 + 7) * 3);
    expect(new Set(recipes.map((r) => r.timestamp.form))).toEqual(
      new Set([
        'unix-seconds',
        'unix-milliseconds',
        'iso-8601',
        'YYYYMMDDHHmmss',
        'YYYY-MM-DD[T]HH:mm:ss',
        'YYYY-MM-DD HH:mm:ss',
        'MM/DD/YYYY HH:mm:ss',
        'DD/MM/YYYY HH:mm:ss',
        'DD.MM.YYYY HH:mm',
        'M/D/YYYY h:mm A',
      ]),
    );
    for (const recipe of recipes) expect(signatureRecipeSchema.parse(recipe)).toEqual(recipe);
    const ids = new Set(
      recipes.map((r) => `${r.hash} ${r.order.join('+')} ${r.timestamp.form} ${r.encoding}`),
    );
    expect(ids.size).toBe(recipes.length);
  });

  it('includes the sandbox recipe', () => {
    expect(recipes).toContainEqual(sandboxSignatureRecipe);
  });
});
