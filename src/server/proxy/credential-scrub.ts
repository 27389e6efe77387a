/**
 * Keeping the VMS credentials out of everything the portal hands on: the browser's answers, the
 * idempotency store's remembered answers, and the call journal. A VMS may echo what it was sent
 * (an error body quoting the key, a debugging header carrying the signature); the portal replaces
 * every such occurrence with one mark before anything leaves the proxy, so no reader — the
 * browser, QA's journal, an export — ever depends on the VMS being careful.
 */

/** What stands in a body, header or path where a secret was. */
export const redactedMark = '[redacted]';
const mark = Buffer.from(redactedMark);

/**
 * Secrets shorter than this are not searched for: a real API key, secret or signature is far
 * longer, and replacing a two-letter "secret" would mangle every body.
 */
const shortestSecret = 6;

/**
 * The forms a secret can take in an answer: as it is, escaped inside a JSON string (a key with a
 * quote, a backslash or a control character), and percent-encoded (a VMS quoting the URL or query
 * it was called with). Each distinct form is searched for.
 */
function echoedForms(secret: string): string[] {
  // Most credentials (a hex signature, a plain key) read the same in every form: one search.
  if (/^[A-Za-z0-9_.~-]*$/.test(secret)) return [secret];
  const forms = new Set([secret, JSON.stringify(secret).slice(1, -1), encodeURIComponent(secret)]);
  return [...forms];
}

/** The secrets to search for, as bytes, in every form they can be echoed in (short ones left out). */
export function secretNeedles(secrets: readonly (string | null)[]): Buffer[] {
  return secrets
    .filter((secret): secret is string => secret !== null && secret.length >= shortestSecret)
    .flatMap(echoedForms)
    .map((secret) => Buffer.from(secret, 'utf8'));
}

/** `bytes` with every occurrence of every needle replaced by [redacted]; the same buffer when none. */
export function scrub(bytes: Buffer, needles: readonly Buffer[]): Buffer {
  let result = bytes;
  for (const needle of needles) {
    let at = result.indexOf(needle);
    if (at < 0) continue;
    const parts: Buffer[] = [];
    let from = 0;
    while (at >= 0) {
      parts.push(result.subarray(from, at), mark);
      from = at + needle.length;
      at = result.indexOf(needle, from);
    }
    parts.push(result.subarray(from));
    result = Buffer.concat(parts);
  }
  return result;
}

/** The same for text (paths, header values): short, so plain string search. */
export function scrubText(text: string, needles: readonly Buffer[]): string {
  return scrubTextWith(
    text,
    needles.map((needle) => needle.toString('utf8')),
  );
}

/**
 * scrubText with the secrets already as text: the journal scrubs a few strings of every call, and
 * turning each needle back into a string every time cost more than the search.
 */
export function scrubTextWith(text: string, secrets: readonly string[]): string {
  let result = text;
  for (const secret of secrets) {
    if (result.includes(secret)) result = result.replaceAll(secret, redactedMark);
  }
  return result;
}

/** A VMS answer as the proxy passes it on: what the browser and the idempotency store get. */
export interface ScrubbedAnswer {
  headers: Record<string, string>;
  body: Buffer;
  /** Whether anything was replaced: the journal says so beside the (already clean) body. */
  redacted: boolean;
}

/**
 * The proxy's side: an answer cleaned of the key and secret (known at start) and of the one call's
 * signature (new with every call). Costs one search per form of each secret over the body; an
 * answer without any is passed on as the same Buffer.
 */
export class CredentialScrubber {
  private readonly needles: Buffer[];
  /** The same secrets as text, for header values, made once. */
  private readonly texts: string[];

  constructor(secrets: readonly string[]) {
    this.needles = secretNeedles(secrets);
    this.texts = this.needles.map((needle) => needle.toString('utf8'));
  }

  answer(headers: Record<string, string>, body: Buffer, signature: string | null): ScrubbedAnswer {
    const signed = signature ? secretNeedles([signature]) : [];
    const needles = signed.length > 0 ? [...this.needles, ...signed] : this.needles;
    const texts =
      signed.length > 0
        ? [...this.texts, ...signed.map((needle) => needle.toString('utf8'))]
        : this.texts;
    const cleanBody = scrub(body, needles);
    let redacted = cleanBody !== body;
    const cleanHeaders: Record<string, string> = {};
    for (const [name, value] of Object.entries(headers)) {
      const clean = scrubTextWith(value, texts);
      if (clean !== value) redacted = true;
      cleanHeaders[name] = clean;
    }
    return { headers: cleanHeaders, body: cleanBody, redacted };
  }
}
