import { z } from 'zod';
import { commonPatterns, datePatternProblem, patternShape } from '@/domain/date-patterns';
import type { NamedTimestampForm, TimestampForm } from './signature-timestamp';
import {
  timestampForms,
  isNamedForm,
  writesMilliseconds,
  parseTimestamp,
} from './signature-timestamp';

/**
 * How a VMS wants each call signed: which hash, over which parts in which order, with the time
 * written how, sent where, and the result encoded how. The sandbox's way (hex SHA-256 of key +
 * secret + Unix seconds, no timestamp sent) is one recipe among the ones described here, so a
 * real VMS that signs differently is a setting, not a code change.
 *
 * Pure TypeScript: the browser shows and checks recipes with the same schema the server signs
 * with. Hashing itself lives on the Node side.
 *
 * The schema sits under a profile's `signature` key, so its messages name `signature.…`.
 */

export const signatureHashes = ['sha256', 'sha512', 'hmac-sha256', 'hmac-sha512'] as const;
export type SignatureHash = (typeof signatureHashes)[number];

/** What may be concatenated into the signed message. */
export const signatureParts = ['key', 'secret', 'timestamp', 'body'] as const;
export type SignaturePart = (typeof signatureParts)[number];

export const signatureEncodings = ['hex', 'HEX', 'base64'] as const;
/** `hex` lowercase, `HEX` uppercase, `base64` standard alphabet with `=` padding. */
export type SignatureEncoding = (typeof signatureEncodings)[number];

/** Where the signed timestamp goes: nowhere (the server tries the seconds around its clock), a header, or a query parameter. */
export type TimestampTravel = 'none' | { header: string } | { query: string };

export interface SignatureRecipe {
  hash: SignatureHash;
  /** The parts concatenated, in this order, into the hashed (or, for HMAC, keyed) message. */
  order: SignaturePart[];
  timestamp: { form: TimestampForm; travel: TimestampTravel };
  encoding: SignatureEncoding;
  /** Header carrying the API key. */
  keyHeader: string;
  /** Header carrying the signature. */
  signatureHeader: string;
}

export const isHmac = (hash: SignatureHash): boolean => hash.startsWith('hmac-');

/** What a VMS built like the sandbox expects: the default of every profile. */
export const sandboxSignatureRecipe: SignatureRecipe = {
  hash: 'sha256',
  order: ['key', 'secret', 'timestamp'],
  timestamp: { form: 'unix-seconds', travel: 'none' },
  encoding: 'hex',
  keyHeader: 'x-api-key',
  signatureHeader: 'x-signature',
};

const list = (values: readonly string[]) => values.join(', ');

/** An HTTP header name (RFC 9110 token), kept lowercase since Node reads headers lowercased. */
function headerName(path: string) {
  return z
    .string({ error: `${path} must be a header name such as x-signature` })
    .regex(/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/, {
      error: `${path} must be a header name: letters, digits and - (e.g. x-signature), no spaces or colons`,
    })
    .toLowerCase();
}

/** A query parameter name that needs no percent-encoding, so what is signed is what is sent. */
const queryName = z
  .string({ error: 'signature.timestamp.travel.query must be a query parameter name' })
  .regex(/^[A-Za-z0-9_.~-]+$/, {
    error:
      'signature.timestamp.travel.query must be a query parameter name of letters, digits, _ . ~ and - (e.g. timestamp)',
  });

const travelError =
  'signature.timestamp.travel must be "none", { "header": "<name>" } or { "query": "<name>" }';

const travelSchema = z.union(
  [
    z.literal('none'),
    z.strictObject({ header: headerName('signature.timestamp.travel.header') }),
    z.strictObject({ query: queryName }),
  ],
  { error: travelError },
);

const formRule = `signature.timestamp.form must be ${list(timestampForms)} or a date-time pattern such as YYYYMMDDHHmmss (UTC)`;

/** A named form, or any date-time pattern the date patterns module reads; one line naming the key. */
const timestampFormSchema = z
  .string({ error: formRule })
  .superRefine((form, ctx) => {
    const problem = isNamedForm(form) ? null : datePatternProblem(form, 'date-time');
    if (problem !== null) ctx.addIssue({ code: 'custom', message: `${formRule}: ${problem}` });
  })
  .meta({
    pattern: patternShape.source,
    examples: [...timestampForms, 'YYYYMMDDHHmmss', 'YYYY-MM-DD HH:mm:ss'],
  });

const timestampSchema = z
  .strictObject(
    {
      form: timestampFormSchema.default('unix-seconds'),
      travel: travelSchema.default('none'),
    },
    {
      error: (issue) =>
        issue.code === 'unrecognized_keys'
          ? `signature.timestamp has unknown keys (${issue.keys.join(', ')}); it takes form and travel`
          : 'signature.timestamp must be an object with form and travel',
    },
  )
  .default({ form: 'unix-seconds', travel: 'none' });

const orderSchema = z
  .array(
    z.enum(signatureParts, {
      error: `signature.order may only contain ${list(signatureParts)}`,
    }),
    { error: `signature.order must be a list of parts such as ["key","secret","timestamp"]` },
  )
  .default(['key', 'secret', 'timestamp']);

/** The order's own rules, and those that depend on the hash and the timestamp. */
function recipeIssues(recipe: SignatureRecipe): Array<{ path: string[]; message: string }> {
  const issues: Array<{ path: string[]; message: string }> = [];
  const { order } = recipe;
  const repeated = signatureParts.filter((part) => order.filter((p) => p === part).length > 1);
  if (repeated.length > 0)
    issues.push({
      path: ['order'],
      message: `signature.order names ${list(repeated)} more than once; each part goes in at most once`,
    });
  // Without the key a signature made for one account would verify for any other with the same
  // secret; without the time it never expires. A VMS signing neither is outside this space.
  for (const part of ['key', 'timestamp'] as const) {
    if (!order.includes(part))
      issues.push({ path: ['order'], message: `signature.order must include ${part}` });
  }
  if (isHmac(recipe.hash) && order.includes('secret'))
    issues.push({
      path: ['order'],
      message: `signature.order must not include secret with ${recipe.hash}: the secret is the HMAC key, not part of the message`,
    });
  if (!isHmac(recipe.hash) && !order.includes('secret'))
    issues.push({
      path: ['order'],
      message: `signature.order must include secret with ${recipe.hash}: without it anyone could sign`,
    });
  // A server that is not sent the time tries every instant around its clock; that is 601 hashes
  // at ±300 s, but 600,001 at millisecond precision, too many to try on every request.
  if (writesMilliseconds(recipe.timestamp.form) && recipe.timestamp.travel === 'none')
    issues.push({
      path: ['timestamp', 'travel'],
      message: `signature.timestamp.travel cannot be "none" with ${recipe.timestamp.form}: it writes milliseconds, and the server could not try every millisecond around its clock; send it in a header or query parameter`,
    });
  const { travel } = recipe.timestamp;
  if (typeof travel === 'object' && 'header' in travel) {
    if (travel.header === recipe.keyHeader || travel.header === recipe.signatureHeader)
      issues.push({
        path: ['timestamp', 'travel', 'header'],
        message: `signature.timestamp.travel.header must differ from the key and signature headers`,
      });
  }
  if (recipe.keyHeader === recipe.signatureHeader)
    issues.push({
      path: ['signatureHeader'],
      message: 'signature.signatureHeader must differ from signature.keyHeader',
    });
  return issues;
}

export const signatureRecipeSchema = z
  .strictObject(
    {
      hash: z
        .enum(signatureHashes, { error: `signature.hash must be one of ${list(signatureHashes)}` })
        .default('sha256'),
      order: orderSchema,
      timestamp: timestampSchema,
      encoding: z
        .enum(signatureEncodings, {
          error: `signature.encoding must be one of ${list(signatureEncodings)}`,
        })
        .default('hex'),
      keyHeader: headerName('signature.keyHeader').default('x-api-key'),
      signatureHeader: headerName('signature.signatureHeader').default('x-signature'),
    },
    {
      error: (issue) =>
        issue.code === 'unrecognized_keys'
          ? `signature has unknown keys (${issue.keys.join(', ')}); it takes hash, order, timestamp, encoding, keyHeader and signatureHeader`
          : 'signature must be an object',
    },
  )
  .superRefine((recipe, ctx) => {
    for (const issue of recipeIssues(recipe)) ctx.addIssue({ code: 'custom', ...issue });
  }) satisfies z.ZodType<SignatureRecipe, unknown>;

// --- words -----------------------------------------------------------------------------------

const hashWords: Record<SignatureHash, string> = {
  sha256: 'SHA-256',
  sha512: 'SHA-512',
  'hmac-sha256': 'HMAC-SHA256',
  'hmac-sha512': 'HMAC-SHA512',
};
const encodingWords: Record<SignatureEncoding, string> = {
  hex: 'lowercase hex',
  HEX: 'uppercase hex',
  base64: 'base64',
};
const formWords: Record<NamedTimestampForm, string> = {
  'unix-seconds': 'Unix seconds',
  'unix-milliseconds': 'Unix milliseconds',
  'iso-8601': 'ISO 8601 UTC time to the second',
};
const describeForm = (form: TimestampForm) =>
  isNamedForm(form) ? formWords[form] : `UTC time as ${form}`;

/** Where the timestamp goes, as a phrase: "timestamp not sent", "timestamp sent in the x-ts header". */
export function describeTravel(travel: TimestampTravel): string {
  if (travel === 'none') return 'timestamp not sent';
  if ('header' in travel) return `timestamp sent in the ${travel.header} header`;
  return `timestamp sent as the ${travel.query} query parameter`;
}

/** One sentence: "lowercase hex SHA-256 of key + secret + Unix seconds, timestamp not sent". */
export function describeRecipe(recipe: SignatureRecipe): string {
  const parts = recipe.order
    .map((part) => (part === 'timestamp' ? describeForm(recipe.timestamp.form) : part))
    .join(' + ');
  const keyed = isHmac(recipe.hash) ? ' keyed with the secret' : '';
  const headers =
    recipe.keyHeader === sandboxSignatureRecipe.keyHeader &&
    recipe.signatureHeader === sandboxSignatureRecipe.signatureHeader
      ? ''
      : `, key in ${recipe.keyHeader}, signature in ${recipe.signatureHeader}`;
  return `${encodingWords[recipe.encoding]} ${hashWords[recipe.hash]}${keyed} of ${parts}, ${describeTravel(recipe.timestamp.travel)}${headers}`;
}

/**
 * The patterns the finder tries on an example's timestamp besides the named forms: the ones
 * signing VMSs write, then those the draft tries on records' date-times. (`…[T]HH:mm:ss[Z]` is
 * left out: its text is iso-8601's, and one text would then stand for two recipes.)
 */
export const foundTimestampPatterns: readonly string[] = [
  ...new Set([
    'YYYYMMDDHHmmss',
    'YYYY-MM-DD[T]HH:mm:ss',
    'YYYY-MM-DD HH:mm:ss',
    ...commonPatterns['date-time'].filter((form) => !isNamedForm(form)),
  ]),
];

const foundForms: readonly TimestampForm[] = [...timestampForms, ...foundTimestampPatterns];

/**
 * The forms a timestamp in an example can be: a 10-digit number is seconds, 13 digits
 * milliseconds, `20261127101530` is YYYYMMDDHHmmss; a text both orders of day and month read is
 * either, since the signature is over the text.
 */
export function timestampFormsOf(text: string): TimestampForm[] {
  return foundForms.filter((form) => parseTimestamp(form, text) !== null);
}

/** The encodings a signature's text can be in (a hex text of digits only is both hex and HEX). */
export function encodingsOf(signature: string): SignatureEncoding[] {
  const found: SignatureEncoding[] = [];
  if (/^[0-9a-f]+$/.test(signature) && signature.length % 2 === 0) found.push('hex');
  if (/^[0-9A-F]+$/.test(signature) && signature.length % 2 === 0) found.push('HEX');
  if (/^[A-Za-z0-9+/]+={0,2}$/.test(signature) && signature.length % 4 === 0) found.push('base64');
  return found;
}

// --- the space the finder searches ------------------------------------------------------------

function permutations<T>(items: readonly T[]): T[][] {
  if (items.length <= 1) return [[...items]];
  return items.flatMap((item, index) =>
    permutations([...items.slice(0, index), ...items.slice(index + 1)]).map((rest) => [
      item,
      ...rest,
    ]),
  );
}

/** Every valid order for a hash: key and timestamp, the secret unless HMAC, the body or not. */
export function ordersFor(hash: SignatureHash): SignaturePart[][] {
  const base: SignaturePart[] = isHmac(hash)
    ? ['key', 'timestamp']
    : ['key', 'secret', 'timestamp'];
  return [...permutations(base), ...permutations<SignaturePart>([...base, 'body'])];
}

/**
 * A timestamp in milliseconds has to travel (see the schema), and no signature shows where; the
 * finder's recipes put it in this header, to be corrected to what the VMS reads.
 */
export const guessedTimestampHeader = 'x-timestamp';

/**
 * The whole space the finder tries: hash × order × timestamp form (named or a found pattern) ×
 * encoding, with the default
 * headers. Where the timestamp travels does not change the signature, so it is not enumerated:
 * none, except for milliseconds, which travel in `guessedTimestampHeader`.
 */
export function everyRecipe(): SignatureRecipe[] {
  return signatureHashes.flatMap((hash) =>
    ordersFor(hash).flatMap((order) =>
      foundForms.flatMap((form) =>
        signatureEncodings.map((encoding): SignatureRecipe => ({
          hash,
          order,
          timestamp: {
            form,
            travel: writesMilliseconds(form) ? { header: guessedTimestampHeader } : 'none',
          },
          encoding,
          keyHeader: sandboxSignatureRecipe.keyHeader,
          signatureHeader: sandboxSignatureRecipe.signatureHeader,
        })),
      ),
    ),
  );
}
