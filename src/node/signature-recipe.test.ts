import { createHash, createHmac, randomBytes } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type {
  SignatureEncoding,
  SignatureHash,
  SignaturePart,
  SignatureRecipe,
  TimestampTravel,
} from '@/domain/vms-profile/signature-recipe';
import { everyRecipe, sandboxSignatureRecipe } from '@/domain/vms-profile/signature-recipe';
import type { TimestampForm } from '@/domain/vms-profile/signature-timestamp';
import { findRecipes, signRequest, verifyRequest } from './signature';

/*
 * Expected signatures are computed here from node:crypto directly, by string concatenation, not
 * through the module under test; timestamps are written out by hand.
 */
function reference(
  hash: SignatureHash,
  encoding: SignatureEncoding,
  message: string,
  secret: string,
): string {
  const raw = hash.startsWith('hmac-')
    ? createHmac(hash.slice(5), secret).update(message, 'utf8').digest()
    : createHash(hash).update(message, 'utf8').digest();
  if (encoding === 'base64') return raw.toString('base64');
  return encoding === 'HEX' ? raw.toString('hex').toUpperCase() : raw.toString('hex');
}

// 2026-11-27T10:15:30.456Z; 1795774530 from `date -u -d 2026-11-27T10:15:30Z +%s`.
const now = 1_795_774_530_456;
const written: Record<TimestampForm, string> = {
  'unix-seconds': '1795774530',
  'unix-milliseconds': '1795774530456',
  'iso-8601': '2026-11-27T10:15:30Z',
};
const apiKey = 'demo-key';
const secret = 's3cret';
const body = '[{"Req_Id":"R-1","Title":"Nurse – ICU"}]';

const hashes: SignatureHash[] = ['sha256', 'sha512', 'hmac-sha256', 'hmac-sha512'];
const encodings: SignatureEncoding[] = ['hex', 'HEX', 'base64'];
const forms: TimestampForm[] = ['unix-seconds', 'unix-milliseconds', 'iso-8601'];
const travels: TimestampTravel[] = ['none', { header: 'x-ts' }, { query: 'ts' }];

const cases = hashes.flatMap((hash) =>
  encodings.flatMap((encoding) =>
    forms.flatMap((form) =>
      travels
        // Milliseconds that do not travel are refused by the schema.
        .filter((travel) => !(form === 'unix-milliseconds' && travel === 'none'))
        .map((travel) => ({ hash, encoding, form, travel })),
    ),
  ),
);

function recipeOf(c: (typeof cases)[number]): SignatureRecipe {
  const order: SignaturePart[] = c.hash.startsWith('hmac-')
    ? ['timestamp', 'key', 'body']
    : ['body', 'secret', 'timestamp', 'key'];
  return {
    hash: c.hash,
    order,
    timestamp: { form: c.form, travel: c.travel },
    encoding: c.encoding,
    keyHeader: 'x-api-key',
    signatureHeader: 'x-signature',
  };
}

/** The timestamp as the server receives it from a signed request. */
function received(recipe: SignatureRecipe, signed: ReturnType<typeof signRequest>) {
  const { travel } = recipe.timestamp;
  if (travel === 'none') return undefined;
  return 'header' in travel ? signed.headers[travel.header] : signed.query[travel.query];
}

/** The same signature with its first character replaced by another of its own alphabet. */
function changed(text: string, encoding: SignatureEncoding): string {
  const replacement = text[0] === 'a' || text[0] === 'A' ? 'b' : 'a';
  return (encoding === 'HEX' ? replacement.toUpperCase() : replacement) + text.slice(1);
}

describe.each(cases)('$hash, $encoding, $form, travel $travel', (c) => {
  const recipe = recipeOf(c);
  const signed = signRequest(recipe, { apiKey, secret, now, body });
  const stamp = written[c.form];
  if (stamp === undefined) throw new Error(`no written timestamp for ${c.form}`);
  const message = c.hash.startsWith('hmac-')
    ? `${stamp}${apiKey}${body}`
    : `${body}${secret}${stamp}${apiKey}`;

  it('signs as the recipe says, and sends the timestamp where it says', () => {
    const headers: Record<string, string> = {
      'x-api-key': apiKey,
      'x-signature': reference(c.hash, c.encoding, message, secret),
    };
    const query: Record<string, string> = {};
    if (typeof c.travel === 'object' && 'header' in c.travel) headers['x-ts'] = stamp;
    if (typeof c.travel === 'object' && 'query' in c.travel) query.ts = stamp;
    expect(signed).toEqual({ headers, query });
  });

  it('verifies what it signed, and nothing changed', () => {
    const signature = signed.headers['x-signature'] ?? '';
    const timestamp = received(recipe, signed);
    const base = { apiKey, secret, signature, body, now, ...(timestamp && { timestamp }) };
    expect(verifyRequest(recipe, base)).toBe(true);
    expect(verifyRequest(recipe, { ...base, signature: changed(signature, c.encoding) })).toBe(
      false,
    );
    expect(verifyRequest(recipe, { ...base, body: `${body} ` })).toBe(false);
    expect(verifyRequest(recipe, { ...base, secret: 's3creT' })).toBe(false);
    expect(verifyRequest(recipe, { ...base, apiKey: 'demo-kez' })).toBe(false);
    if (timestamp !== undefined) {
      const other = signRequest(recipe, { apiKey, secret, now: now + 1000, body });
      // A timestamp that is not the one signed, though well within the window.
      expect(verifyRequest(recipe, { ...base, timestamp: received(recipe, other) ?? '' })).toBe(
        false,
      );
      expect(verifyRequest(recipe, { apiKey, secret, signature, body, now })).toBe(false);
    }
  });
});

describe('the skew window', () => {
  const secondsAgo = (recipe: SignatureRecipe, seconds: number) => {
    const signed = signRequest(recipe, { apiKey, secret, now: now - seconds * 1000 });
    const timestamp = received(recipe, signed);
    return verifyRequest(recipe, {
      apiKey,
      secret,
      now,
      signature: signed.headers['x-signature'] ?? '',
      ...(timestamp && { timestamp }),
    });
  };

  it.each([
    ['Unix seconds, not sent', sandboxSignatureRecipe],
    [
      'ISO, not sent',
      { ...sandboxSignatureRecipe, timestamp: { form: 'iso-8601', travel: 'none' } },
    ],
    [
      'Unix seconds in a header',
      {
        ...sandboxSignatureRecipe,
        timestamp: { form: 'unix-seconds', travel: { header: 'x-ts' } },
      },
    ],
    [
      'ISO in the query',
      { ...sandboxSignatureRecipe, timestamp: { form: 'iso-8601', travel: { query: 'ts' } } },
    ],
    [
      'milliseconds in a header',
      {
        ...sandboxSignatureRecipe,
        timestamp: { form: 'unix-milliseconds', travel: { header: 'x-ts' } },
      },
    ],
    [
      'a pattern with seconds, not sent',
      { ...sandboxSignatureRecipe, timestamp: { form: 'YYYYMMDDHHmmss', travel: 'none' } },
    ],
    [
      'a pattern with milliseconds in a header',
      {
        ...sandboxSignatureRecipe,
        timestamp: { form: 'YYYY-MM-DD HH:mm:ss.SSS', travel: { header: 'x-ts' } },
      },
    ],
  ] satisfies Array<[string, SignatureRecipe]>)(
    '%s: ±300 s accepted, 301 s refused',
    (_, recipe) => {
      expect(secondsAgo(recipe, 0)).toBe(true);
      expect(secondsAgo(recipe, 300)).toBe(true);
      expect(secondsAgo(recipe, -300)).toBe(true);
      expect(secondsAgo(recipe, 301)).toBe(false);
      expect(secondsAgo(recipe, -301)).toBe(false);
    },
  );

  it('takes a narrower window when asked', () => {
    const recipe: SignatureRecipe = {
      ...sandboxSignatureRecipe,
      timestamp: { form: 'unix-seconds', travel: { header: 'x-ts' } },
    };
    const signed = signRequest(recipe, { apiKey, secret, now: now - 31_000 });
    const options = {
      apiKey,
      secret,
      now,
      signature: signed.headers['x-signature'] ?? '',
      timestamp: signed.headers['x-ts'] ?? '',
    };
    expect(verifyRequest(recipe, { ...options, skewSeconds: 31 })).toBe(true);
    expect(verifyRequest(recipe, { ...options, skewSeconds: 30 })).toBe(false);
  });

  it.each([
    ['not sent', 'none'],
    ['in a header', { header: 'x-ts' }],
  ] satisfies Array<[string, TimestampTravel]>)(
    'accepts a pattern without seconds, %s, while any second of its minute is in the window',
    (_, travel) => {
      const recipe: SignatureRecipe = {
        ...sandboxSignatureRecipe,
        timestamp: { form: 'YYYY-MM-DD HH:mm', travel },
      };
      // The server's second is 10:15:30, so the window is 10:10:30 to 10:20:30.
      const verifies = (minute: string) =>
        verifyRequest(recipe, {
          apiKey,
          secret,
          now,
          signature: reference('sha256', 'hex', `${apiKey}${secret}2026-11-27 ${minute}`, secret),
          timestamp: `2026-11-27 ${minute}`,
        });
      expect(verifies('10:15')).toBe(true);
      expect(verifies('10:10')).toBe(true);
      expect(verifies('10:20')).toBe(true);
      expect(verifies('10:09')).toBe(false);
      expect(verifies('10:21')).toBe(false);
    },
  );

  it('refuses a hand-built recipe with milliseconds that do not travel rather than scan them', () => {
    const recipe: SignatureRecipe = {
      ...sandboxSignatureRecipe,
      timestamp: { form: 'unix-milliseconds', travel: 'none' },
    };
    const signature = reference(
      'sha256',
      'hex',
      `${apiKey}${secret}${written['unix-milliseconds']}`,
      secret,
    );
    expect(verifyRequest(recipe, { apiKey, secret, signature, now })).toBe(false);
  });
});

describe('signatures not written as the recipe writes them', () => {
  const signed = (recipe: SignatureRecipe) =>
    signRequest(recipe, { apiKey, secret, now }).headers['x-signature'] ?? '';

  it('are refused, not thrown on: wrong length, wrong case, other padding', () => {
    const hex = signed(sandboxSignatureRecipe);
    const verify = (recipe: SignatureRecipe, signature: string) =>
      verifyRequest(recipe, { apiKey, secret, signature, now });
    expect(verify(sandboxSignatureRecipe, hex)).toBe(true);
    expect(verify(sandboxSignatureRecipe, hex.slice(0, 62))).toBe(false);
    expect(verify(sandboxSignatureRecipe, `${hex}00`)).toBe(false);
    expect(verify(sandboxSignatureRecipe, '')).toBe(false);
    expect(verify(sandboxSignatureRecipe, hex.toUpperCase())).toBe(false);
    const base64Recipe: SignatureRecipe = { ...sandboxSignatureRecipe, encoding: 'base64' };
    const base64 = signed(base64Recipe);
    expect(verify(base64Recipe, base64)).toBe(true);
    expect(verify(base64Recipe, base64.replace(/=$/, ''))).toBe(false);
    // A 32-byte value in base64 ends in one character of which only 4 bits count: another
    // character with the same 4 bits decodes to the same bytes but is not what was sent.
    const last = base64.at(-2) ?? 'A';
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
    const sameBits = alphabet[alphabet.indexOf(last) ^ 1] ?? '';
    expect(verify(base64Recipe, `${base64.slice(0, -2)}${sameBits}=`)).toBe(false);
    expect(verify(base64Recipe, Buffer.alloc(64, 1).toString('base64'))).toBe(false);
  });
});

describe('sign then verify, for any recipe and inputs', () => {
  const travel = fc.constantFrom<TimestampTravel>('none', { header: 'x-ts' }, { query: 'ts' });
  const recipe = fc
    .tuple(fc.constantFrom(...everyRecipe()), travel)
    .map(([r, t]): SignatureRecipe =>
      r.timestamp.form === 'unix-milliseconds' && t === 'none'
        ? r
        : { ...r, timestamp: { ...r.timestamp, travel: t } },
    );
  const inputs = fc.record({
    apiKey: fc.string({ minLength: 1 }),
    secret: fc.string({ minLength: 1 }),
    body: fc.oneof(fc.string(), fc.uint8Array({ maxLength: 64 })),
    now: fc.integer({ min: 1_000_000_000_000, max: 4_000_000_000_000 }),
    drift: fc.integer({ min: -300, max: 300 }),
  });

  it('round-trips within the window, and a changed signature character fails', () => {
    fc.assert(
      fc.property(recipe, inputs, fc.nat(), (r, { drift, ...input }, at) => {
        const signed = signRequest(r, input);
        const signature = signed.headers[r.signatureHeader] ?? '';
        const timestamp = received(r, signed);
        const options = {
          ...input,
          signature,
          now: input.now + drift * 1000,
          ...(timestamp !== undefined && { timestamp }),
        };
        expect(verifyRequest(r, options)).toBe(true);
        const index = at % signature.length;
        const char = signature[index] ?? '';
        const alphabet = r.encoding === 'HEX' ? '0123456789ABCDEF' : '0123456789abcdef';
        const swapped = alphabet[(alphabet.indexOf(char) + 1) % alphabet.length] ?? '';
        // base64's last characters may carry padding bits; the first half never does.
        const target = r.encoding === 'base64' ? at % 20 : index;
        const replaced =
          r.encoding === 'base64'
            ? signature.slice(0, target) +
              (signature[target] === 'A' ? 'B' : 'A') +
              signature.slice(target + 1)
            : signature.slice(0, target) + swapped + signature.slice(target + 1);
        expect(verifyRequest(r, { ...options, signature: replaced })).toBe(false);
      }),
      { numRuns: 300 },
    );
  });
});

describe('findRecipes', () => {
  it('finds the published example, and it is exactly the sandbox recipe', () => {
    // The real service's documentation publishes this example.
    const found = findRecipes({
      apiKey: '5bcef48a3f03d311ff27d156630baf849e3b438b8a48fec99239d5c9',
      secret: 'foobar',
      timestamp: '1546259837',
      signature: 'fce2e80253cd438b666341176f34bde499116b63719e2482dae6965518ffd316',
    });
    expect(found).toEqual([sandboxSignatureRecipe]);
  });

  it('finds the same example written in uppercase as the HEX recipe', () => {
    const found = findRecipes({
      apiKey: '5bcef48a3f03d311ff27d156630baf849e3b438b8a48fec99239d5c9',
      secret: 'foobar',
      timestamp: '1546259837',
      signature: 'FCE2E80253CD438B666341176F34BDE499116B63719E2482DAE6965518FFD316',
    });
    expect(found).toEqual([{ ...sandboxSignatureRecipe, encoding: 'HEX' }]);
  });

  it('finds a recipe whose timestamp is a UTC time written in a pattern', () => {
    const timestamp = '20261127101530';
    const found = findRecipes({
      apiKey,
      secret,
      timestamp,
      signature: reference('hmac-sha256', 'hex', `${timestamp}${apiKey}`, secret),
    });
    expect(found).toEqual([
      {
        hash: 'hmac-sha256',
        order: ['timestamp', 'key'],
        timestamp: { form: 'YYYYMMDDHHmmss', travel: 'none' },
        encoding: 'hex',
        keyHeader: 'x-api-key',
        signatureHeader: 'x-signature',
      },
    ]);
  });

  it('matches nothing for a random signature', () => {
    const signature = randomBytes(32).toString('hex');
    expect(findRecipes({ apiKey, secret, timestamp: '1546259837', signature })).toEqual([]);
    expect(findRecipes({ apiKey, secret, timestamp: '1546259837', signature, body: 'x' })).toEqual(
      [],
    );
  });

  it('finds HMAC-SHA512 in base64 over key + ISO time + body', () => {
    const timestamp = '2026-11-27T10:15:30Z';
    const signature = createHmac('sha512', secret)
      .update(`${apiKey}${timestamp}${body}`)
      .digest('base64');
    expect(findRecipes({ apiKey, secret, timestamp, signature, body })).toEqual([
      {
        hash: 'hmac-sha512',
        order: ['key', 'timestamp', 'body'],
        timestamp: { form: 'iso-8601', travel: 'none' },
        encoding: 'base64',
        keyHeader: 'x-api-key',
        signatureHeader: 'x-signature',
      },
    ]);
  });

  it('finds a milliseconds recipe, its timestamp guessed into a header', () => {
    const timestamp = '1795774530456';
    const signature = createHash('sha256').update(`${secret}${apiKey}${timestamp}`).digest('hex');
    expect(findRecipes({ apiKey, secret, timestamp, signature })).toEqual([
      {
        ...sandboxSignatureRecipe,
        order: ['secret', 'key', 'timestamp'],
        timestamp: { form: 'unix-milliseconds', travel: { header: 'x-timestamp' } },
      },
    ]);
  });

  it('reports every recipe an example cannot tell apart: an empty key has no place', () => {
    const timestamp = '1546259837';
    const signature = createHash('sha256').update(`foobar${timestamp}`).digest('hex');
    const found = findRecipes({ apiKey: '', secret: 'foobar', timestamp, signature });
    expect(found.map((r) => r.order)).toEqual([
      ['key', 'secret', 'timestamp'],
      ['secret', 'key', 'timestamp'],
      ['secret', 'timestamp', 'key'],
    ]);
  });

  it('and an empty secret is no secret at all to HMAC and plain hashes alike', () => {
    const timestamp = '1546259837';
    const signature = createHash('sha256').update(`${apiKey}${timestamp}`).digest('hex');
    expect(findRecipes({ apiKey, secret: '', timestamp, signature }).length).toBe(3);
  });
});
