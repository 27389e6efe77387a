import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/**
 * 256 random bits, base64url: session ids, CSRF tokens, invite tokens. ASVS 5.0 asks for at least
 * 128 bits of entropy in a session token (V7.2.3).
 */
export function randomToken(): string {
  return randomBytes(32).toString('base64url');
}

/** What is stored instead of a session id or an invite token. */
export function tokenDigest(token: string): Buffer {
  return createHash('sha256').update(token, 'utf8').digest();
}

/** Compares two tokens in time that does not depend on where they differ. */
export function sameToken(given: string, expected: string): boolean {
  const a = createHash('sha256').update(given, 'utf8').digest();
  const b = createHash('sha256').update(expected, 'utf8').digest();
  return timingSafeEqual(a, b);
}

/** A token's shape as we make them: anything else is not looked up at all. */
export const tokenPattern = /^[A-Za-z0-9_-]{43}$/;
