/**
 * Keeping the VMS credentials out of everything the portal hands on: the browser's answers, the
 * idempotency store's remembered answers, and the call journal. A VMS may echo what it was sent
 * (an error body quoting the key, a debugging header carrying the signature); the portal replaces
 * every such occurrence with one mark before anything leaves the proxy, so no reader — the
 * browser, QA's journal, an export — ever depends on the VMS being careful.
 *
 * "Every occurrence" means every way of writing a secret that a reader would decode back to it:
 * - as it is, and its base64 (standard or URL-safe, padded or not: a VMS quoting a Basic header
 *   or a decoded-then-re-encoded field);
 * - inside a JSON string, each character either as it is or escaped, in any mix: the short
 *   escapes (`\/` as PHP writes every slash, `\"`, `\\`…) and `\uXXXX` in either case (as .NET
 *   writes `+`), with the escape itself escaped again for JSON inside a JSON string;
 * - percent-encoded, each byte as `%XX` in either case (or `+` for a space), encoded once or more,
 *   mixed with plain characters and with the JSON escapes.
 */

/** What stands in a body, header or path where a secret was. */
export const redactedMark = '[redacted]';
const mark = Buffer.from(redactedMark);

/**
 * Secrets shorter than this are not searched for: a real API key, secret or signature is far
 * longer, and replacing a two-letter "secret" would mangle every body.
 */
const shortestSecret = 6;

/** The short escapes of a JSON string, by the character they stand for. */
const jsonShortEscapes: Readonly<Record<string, string>> = {
  '"': '"',
  '\\': '\\',
  '/': '/',
  '\b': 'b',
  '\f': 'f',
  '\n': 'n',
  '\r': 'r',
  '\t': 't',
};

/** A hex number of `width` digits matched in either case: 0x2b → `2[bB]`. */
function hexInEitherCase(value: number, width: number): string {
  return [...value.toString(16).padStart(width, '0')]
    .map((digit) => (/[a-f]/.test(digit) ? `[${digit}${digit.toUpperCase()}]` : digit))
    .join('');
}

/** Text as a regular expression matches it literally. */
function literally(text: string): string {
  return text.replace(/[\\^$.*+?()[\]{}|/-]/g, '\\$&');
}

/**
 * One character of a secret in every way it can be written, as a pattern over the body's bytes
 * read as Latin-1 (one character per byte, so a match's place is its place in the bytes).
 */
function characterForms(character: string): string {
  const utf8 = Buffer.from(character, 'utf8');
  // Backslashes before an escape: one inside a JSON string, more for JSON inside a JSON string.
  const escape = '\\\\+';
  const forms = [literally(utf8.toString('latin1'))];
  const short = jsonShortEscapes[character];
  if (short !== undefined) forms.push(escape + literally(short));
  const units: string[] = [];
  for (let at = 0; at < character.length; at += 1) {
    units.push(`${escape}u${hexInEitherCase(character.charCodeAt(at), 4)}`);
  }
  forms.push(units.join(''));
  // `%25` is an encoded `%`: a value percent-encoded twice (a URL quoted inside a query).
  forms.push([...utf8].map((byte) => `%(?:25)*${hexInEitherCase(byte, 2)}`).join(''));
  if (character === ' ') forms.push('\\+');
  return `(?:${forms.join('|')})`;
}

/** The texts a secret is searched as: itself and its base64 forms (without padding: a prefix). */
function targetsOf(secret: string): string[] {
  const base64 = Buffer.from(secret, 'utf8').toString('base64').replace(/=+$/, '');
  const base64url = base64.replaceAll('+', '-').replaceAll('/', '_');
  return [...new Set([secret, base64, base64url])];
}

/** One secret, made ready to search for once: its targets and what an escaped form needs. */
interface SecretForms {
  secret: string;
  targets: string[];
  triggers: string[];
}

function formsOf(secret: string): SecretForms {
  const targets = targetsOf(secret);
  const triggers = new Set(['\\u', '%']);
  for (const target of targets) {
    for (const character of target) {
      const short = jsonShortEscapes[character];
      if (short !== undefined) triggers.add(`\\${short}`);
      if (character === ' ') triggers.add('+');
    }
  }
  return { secret, targets, triggers: [...triggers] };
}

let lastSignature: { signature: string; needles: SecretNeedles } | null = null;

/**
 * The secrets a body is cleaned of, searched two ways. Most answers hold no backslash escape or
 * percent sign, and there a secret can only be written plainly: a few native byte searches. Where
 * one does appear, one regular expression over the body finds every mixed form; it is compiled
 * the first time a body needs it. A call's signature joins the key and secret for one call, so
 * joining costs no more than putting two lists together.
 */
export class SecretNeedles {
  /** Each target as it is, as bytes: the searches every body gets. */
  readonly literals: readonly Buffer[];
  /** The same as text, for paths and header values. */
  readonly texts: readonly string[];
  /** What an escaped form must contain somewhere: `\` before u or a short escape, or `%`. */
  private readonly triggers: readonly Buffer[];
  private pattern: RegExp | null = null;
  private lastJoined: { other: SecretNeedles; joined: SecretNeedles } | null = null;

  private constructor(private readonly forms: readonly SecretForms[]) {
    this.texts = [...new Set(forms.flatMap(({ targets }) => targets))];
    this.literals = this.texts.map((target) => Buffer.from(target, 'utf8'));
    this.triggers = [...new Set(forms.flatMap(({ triggers }) => triggers))].map((text) =>
      Buffer.from(text),
    );
  }

  /** The secrets to search for (short ones and nulls left out). */
  static of(secrets: readonly (string | null)[]): SecretNeedles {
    return new SecretNeedles(
      secrets
        .filter((secret): secret is string => secret !== null && secret.length >= shortestSecret)
        .map(formsOf),
    );
  }

  /**
   * One call's signature as needles. A signature is the same for every call signed in the same
   * second (unless the recipe signs the body), and a busy portal signs hundreds a second: the
   * last one is kept, so its forms and byte searches are made once rather than with every call.
   */
  static ofSignature(signature: string): SecretNeedles {
    const last = lastSignature;
    if (last?.signature === signature) return last.needles;
    const needles = SecretNeedles.of([signature]);
    lastSignature = { signature, needles };
    return needles;
  }

  /** These needles and one more secret (a call's own signature); these when it is null. */
  with(secret: string | null): SecretNeedles {
    if (secret === null || secret.length < shortestSecret) return this;
    return this.and(SecretNeedles.ofSignature(secret));
  }

  /**
   * These needles and those of `other` (the key and secret, and one call's signature). The last
   * pair joined is kept, for the same reason as the last signature.
   */
  and(other: SecretNeedles): SecretNeedles {
    if (other.empty) return this;
    if (this.lastJoined?.other === other) return this.lastJoined.joined;
    const joined = new SecretNeedles([...this.forms, ...other.forms]);
    this.lastJoined = { other, joined };
    return joined;
  }

  get empty(): boolean {
    return this.forms.length === 0;
  }

  /** Whether `bytes` may hold a secret: false means certainly not (a body reused as kept). */
  mayOccurIn(bytes: Buffer): boolean {
    return this.needsPattern(bytes) || this.literals.some((literal) => bytes.includes(literal));
  }

  /** Whether an escaped or encoded form could be in `bytes` at all. */
  needsPattern(bytes: Buffer): boolean {
    return this.triggers.some((trigger) => bytes.includes(trigger));
  }

  /** Every form of every target, as one pattern over Latin-1 text. */
  escapedForms(): RegExp {
    this.pattern ??= new RegExp(
      this.texts.map((target) => [...target].map(characterForms).join('')).join('|'),
      'g',
    );
    return this.pattern;
  }
}

/** `bytes` with every occurrence of every secret replaced by [redacted]; the same buffer when none. */
export function scrub(bytes: Buffer, needles: SecretNeedles): Buffer {
  let result = bytes;
  for (const needle of needles.literals) {
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
  if (!needles.needsPattern(result)) return result;
  const text = result.toString('latin1');
  const clean = text.replace(needles.escapedForms(), redactedMark);
  return clean === text ? result : Buffer.from(clean, 'latin1');
}

/** The same for text (paths, header values). */
export function scrubText(text: string, needles: SecretNeedles): string {
  let result = text;
  for (const secret of needles.texts) {
    if (result.includes(secret)) result = result.replaceAll(secret, redactedMark);
  }
  if (!/[\\%+]/.test(result) || needles.empty) return result;
  const bytes = Buffer.from(result, 'utf8');
  const clean = scrub(bytes, needles);
  return clean === bytes ? result : clean.toString('utf8');
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
 * signature (new with every call). An answer without any is passed on as the same Buffer.
 */
export class CredentialScrubber {
  private readonly needles: SecretNeedles;

  constructor(secrets: readonly string[]) {
    this.needles = SecretNeedles.of(secrets);
  }

  answer(headers: Record<string, string>, body: Buffer, signature: string | null): ScrubbedAnswer {
    // The call's signature is searched for on its own: the key's and secret's needles are made once.
    const signed = signature === null ? null : SecretNeedles.ofSignature(signature);
    const clean = (bytes: Buffer) =>
      signed ? scrub(scrub(bytes, this.needles), signed) : scrub(bytes, this.needles);
    const cleanBody = clean(body);
    let redacted = cleanBody !== body;
    const cleanHeaders: Record<string, string> = {};
    for (const [name, value] of Object.entries(headers)) {
      let text = scrubText(value, this.needles);
      if (signed) text = scrubText(text, signed);
      if (text !== value) redacted = true;
      cleanHeaders[name] = text;
    }
    return { headers: cleanHeaders, body: cleanBody, redacted };
  }
}
