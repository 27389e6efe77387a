import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import type { SignatureRecipe } from '@/domain/vms-profile/signature-recipe';
import {
  encodingsOf,
  everyRecipe,
  isHmac,
  sandboxSignatureRecipe,
  timestampFormsOf,
} from '@/domain/vms-profile/signature-recipe';
import {
  formatTimestamp,
  parseTimestamp,
  timestampPrecisionMs,
} from '@/domain/vms-profile/signature-timestamp';

/**
 * Signing and verifying VMS calls by a recipe (domain/vms-profile/signature-recipe.ts): the
 * proxy signs with it, the sandbox verifies with it, and the finder tries every recipe against a
 * known-good example. One function, `signatureFor`, computes a signature; everything else is
 * built on it so the three can never disagree.
 */

/** The request body exactly as sent: bytes, or text sent as UTF-8. Empty for a GET. */
export type RequestBody = string | Uint8Array;

export interface SignatureInputs {
  apiKey: string;
  secret: string;
  /** The timestamp text as it goes into the message (formatTimestamp's, or as received). */
  timestamp: string;
  body?: RequestBody;
}

const digestNames = {
  sha256: 'sha256',
  sha512: 'sha512',
  'hmac-sha256': 'sha256',
  'hmac-sha512': 'sha512',
} as const;

const bytes = (value: RequestBody): Buffer =>
  typeof value === 'string' ? Buffer.from(value, 'utf8') : Buffer.from(value);

function messageParts(recipe: SignatureRecipe, inputs: SignatureInputs): Buffer[] {
  const values = {
    key: inputs.apiKey,
    secret: inputs.secret,
    timestamp: inputs.timestamp,
    body: inputs.body ?? '',
  };
  return recipe.order.map((part) => bytes(values[part]));
}

function digest(recipe: SignatureRecipe, inputs: SignatureInputs): Buffer {
  const algorithm = digestNames[recipe.hash];
  const hasher = isHmac(recipe.hash)
    ? createHmac(algorithm, bytes(inputs.secret))
    : createHash(algorithm);
  for (const part of messageParts(recipe, inputs)) hasher.update(part);
  return hasher.digest();
}

function encode(recipe: SignatureRecipe, raw: Buffer): string {
  if (recipe.encoding === 'base64') return raw.toString('base64');
  const hex = raw.toString('hex');
  return recipe.encoding === 'HEX' ? hex.toUpperCase() : hex;
}

/**
 * The digest a signature's text stands for, or null when the text is not exactly what this
 * recipe's encoding writes (uppercase for `hex`, unpadded base64…): a server compares what it
 * would have sent, so a differently written signature is a different signature.
 */
function decode(recipe: SignatureRecipe, signature: string): Buffer | null {
  const length = recipe.hash.endsWith('512') ? 64 : 32;
  if (!encodingsOf(signature).includes(recipe.encoding)) return null;
  const raw = Buffer.from(signature, recipe.encoding === 'base64' ? 'base64' : 'hex');
  return raw.length === length && encode(recipe, raw) === signature ? raw : null;
}

/** The signature text of one message under a recipe. */
export function signatureFor(recipe: SignatureRecipe, inputs: SignatureInputs): string {
  return encode(recipe, digest(recipe, inputs));
}

export interface SignedRequest {
  /** The key and signature headers, and the timestamp's header when it travels in one. */
  headers: Record<string, string>;
  /** The timestamp's parameter when it travels in the query; otherwise empty. */
  query: Record<string, string>;
}

/** What a client adds to a call so the VMS accepts it: signed at `now` (ms, default the clock). */
export function signRequest(
  recipe: SignatureRecipe,
  options: { apiKey: string; secret: string; now?: number; body?: RequestBody },
): SignedRequest {
  const timestamp = formatTimestamp(recipe.timestamp.form, options.now ?? Date.now());
  const signature = signatureFor(recipe, { ...options, timestamp });
  const headers: Record<string, string> = {
    [recipe.keyHeader]: options.apiKey,
    [recipe.signatureHeader]: signature,
  };
  const query: Record<string, string> = {};
  const { travel } = recipe.timestamp;
  if (travel !== 'none' && 'header' in travel) headers[travel.header] = timestamp;
  if (travel !== 'none' && 'query' in travel) query[travel.query] = timestamp;
  return { headers, query };
}

export interface VerifyOptions {
  apiKey: string;
  secret: string;
  /** The signature as received. */
  signature: string;
  /** The timestamp as received, when the recipe sends it; ignored otherwise. */
  timestamp?: string;
  body?: RequestBody;
  /** The server's clock, ms. */
  now?: number;
  skewSeconds?: number;
}

/**
 * How far `now` is from a timestamp that names [at, at + precision): 0 inside it. Texts in whole
 * seconds (or minutes, hours) are compared in whole seconds, as a signer in whole seconds made
 * them; a minute's text is within the window while any second of that minute is.
 */
function distanceMs(at: number, precisionMs: number, now: number): number {
  if (precisionMs < 1000) return Math.abs(at - now);
  const second = Math.floor(now / 1000) * 1000;
  if (at > second) return at - second;
  return Math.max(0, second - (at + precisionMs - 1000));
}

/**
 * Server side: was this call signed by the holder of the secret within ±skewSeconds of `now`?
 * Each comparison is constant-time. A travelling timestamp is checked against the window and
 * then verified as received; otherwise every second of the window is tried, the current one
 * first since it is by far the most likely (601 hashes at most at the default ±300 s).
 */
export function verifyRequest(recipe: SignatureRecipe, options: VerifyOptions): boolean {
  const given = decode(recipe, options.signature);
  if (given === null) return false;
  const now = options.now ?? Date.now();
  const skew = options.skewSeconds ?? 300;
  const { form, travel } = recipe.timestamp;
  const matches = (timestamp: string) =>
    timingSafeEqual(digest(recipe, { ...options, timestamp }), given);

  if (travel !== 'none') {
    const timestamp = options.timestamp ?? '';
    const at = parseTimestamp(form, timestamp);
    if (at === null) return false;
    return distanceMs(at, timestampPrecisionMs(form), now) <= skew * 1000 && matches(timestamp);
  }
  // The schema refuses milliseconds that do not travel; a recipe built by hand is refused here.
  if (timestampPrecisionMs(form) < 1000) return false;
  // A pattern without seconds writes one text for a whole minute: each text is hashed once.
  const tried = new Set<string>();
  const center = Math.floor(now / 1000);
  for (let offset = 0; offset <= skew; offset += 1) {
    for (const second of offset === 0 ? [center] : [center - offset, center + offset]) {
      const timestamp = formatTimestamp(form, second * 1000);
      if (tried.has(timestamp)) continue;
      tried.add(timestamp);
      if (matches(timestamp)) return true;
    }
  }
  return false;
}

export interface RecipeExample {
  apiKey: string;
  secret: string;
  /**
   * As the signer wrote it: 10 digits (seconds), 13 digits (milliseconds), ISO 8601, or a UTC
   * date-time in one of the patterns the finder tries (`foundTimestampPatterns`).
   */
  timestamp: string;
  signature: string;
  /** The body signed with it, if any. */
  body?: RequestBody;
}

/**
 * Every recipe of `everyRecipe()` that reproduces the example's signature; normally one. The
 * timestamp and the signature are read as written, so only the forms and encodings their text
 * can be are tried. Without a body, recipes that sign the body would match exactly as those that
 * do not (an empty part changes nothing), so they are left out: one example with a body tells
 * them apart.
 */
export function findRecipes(example: RecipeExample): SignatureRecipe[] {
  const forms = timestampFormsOf(example.timestamp);
  const encodings = encodingsOf(example.signature);
  const hasBody = bytes(example.body ?? '').length > 0;
  const digests = new Map<string, Buffer>();
  return everyRecipe().filter((recipe) => {
    if (!forms.includes(recipe.timestamp.form) || !encodings.includes(recipe.encoding))
      return false;
    if (!hasBody && recipe.order.includes('body')) return false;
    // The encodings share a digest: compute each hash × order once.
    const id = `${recipe.hash}:${recipe.order.join('+')}`;
    let raw = digests.get(id);
    if (raw === undefined) {
      raw = digest(recipe, example);
      digests.set(id, raw);
    }
    return encode(recipe, raw) === example.signature;
  });
}

// --- the sandbox's recipe, as the proxy, the sandbox and the tests have always called it ------

export function unixSeconds(now: number = Date.now()): number {
  return Math.floor(now / 1000);
}

/** Lowercase hex SHA-256 of apiKey + secret + timestamp (Unix seconds): the sandbox recipe. */
export function computeSignature(apiKey: string, secret: string, timestamp: number): string {
  return signatureFor(sandboxSignatureRecipe, { apiKey, secret, timestamp: String(timestamp) });
}

export function signatureHeaders(
  apiKey: string,
  secret: string,
  now: number = Date.now(),
): { 'x-api-key': string; 'x-signature': string } {
  const { headers } = signRequest(sandboxSignatureRecipe, { apiKey, secret, now });
  return { 'x-api-key': headers['x-api-key'] ?? '', 'x-signature': headers['x-signature'] ?? '' };
}

/** Does `signature` match the sandbox recipe for any second within ±skewSeconds of `now`? */
export function verifySignature(
  apiKey: string,
  secret: string,
  signature: string,
  options: { now?: number; skewSeconds?: number } = {},
): boolean {
  return verifyRequest(sandboxSignatureRecipe, { apiKey, secret, signature, ...options });
}
