import { createHash } from 'node:crypto';
import { scrub, type SecretNeedles } from '@/server/redaction/credential-scrub';
import type { BodyToKeep } from './store/journal-store';

/** The first `limit` bytes, backed off to the start of a UTF-8 character so the text stays whole. */
function cut(bytes: Buffer, limit: number): Buffer {
  let end = limit;
  // 10xxxxxx is a continuation byte: the character it belongs to started earlier.
  while (end > 0 && ((bytes[end] ?? 0) & 0xc0) === 0x80) end -= 1;
  return bytes.subarray(0, end);
}

/**
 * A body as the journal keeps it: secrets replaced, its SHA-256 (the body's identity: a body seen
 * again is not stored again) and full length, and at most `limit` bytes of it.
 */
export function keptBody(
  bytes: Buffer | null,
  limit: number,
  needles: SecretNeedles,
  /** The SHA-256 of `bytes` when the caller already took it. */
  sha256: Buffer | null = null,
): BodyToKeep | null {
  if (bytes === null || bytes.length === 0) return null;
  const clean = scrub(bytes, needles);
  const truncated = clean.length > limit;
  return {
    // The whole clean body's: the bytes' own when nothing was replaced.
    sha256:
      sha256 !== null && clean === bytes ? sha256 : createHash('sha256').update(clean).digest(),
    size: bytes.length,
    kept: truncated ? cut(clean, limit) : clean,
    truncated,
    redacted: clean !== bytes,
  };
}

/** Bodies up to this size are remembered for a repeat; the memory held stays under 2 MB. */
const rememberUpTo = 64 * 1024;
const remembered = 32;

/**
 * The last few bodies kept, by length: a body seen again byte for byte (a results poll still
 * Pending, a list read again, a replayed batch) reuses its kept form after a comparison (~2 µs
 * for 31 KB) instead of a SHA-256 (~26 µs). The key and secret were searched for already; the
 * call's own signature is new with each call, so it is searched for again.
 */
export class RecentBodies {
  private readonly recent = new Map<number, { bytes: Buffer; kept: BodyToKeep | null }>();

  /**
   * The remembered copy of these bytes when they were seen lately, else null. The proxy hands
   * over each call's bodies as it answers; a repeat swapped for the copy already held lets the
   * call's own Buffer go with its request instead of waiting in the journal's queue (31 KB a call
   * in the proxy bench), and makes the comparison at write time an identity check.
   */
  held(bytes: Buffer | null): Buffer | null {
    if (bytes === null) return null;
    const seen = this.recent.get(bytes.length);
    return seen && seen.bytes.equals(bytes) ? seen.bytes : null;
  }

  keep(
    bytes: Buffer | null,
    limit: number,
    needles: SecretNeedles,
    signature: SecretNeedles | null,
    /** The SHA-256 of `bytes` when the proxy already took it. */
    sha256: Buffer | null = null,
  ): BodyToKeep | null {
    if (bytes === null || bytes.length === 0) return null;
    const seen = this.recent.get(bytes.length);
    if (seen && seen.bytes.equals(bytes) && (signature === null || !signature.mayOccurIn(bytes))) {
      return seen.kept;
    }
    const kept = keptBody(bytes, limit, signature ? needles.and(signature) : needles, sha256);
    if (bytes.length <= rememberUpTo) {
      this.recent.delete(bytes.length);
      this.recent.set(bytes.length, { bytes, kept });
      if (this.recent.size > remembered) {
        const oldest = this.recent.keys().next().value;
        if (oldest !== undefined) this.recent.delete(oldest);
      }
    }
    return kept;
  }
}
