import { createHmac } from 'node:crypto';
import type { FailureCount } from './store/sign-in-failures';

/**
 * Back-off for failed sign-ins (decision 026; ASVS 5.0 V6.3.1, OWASP Authentication Cheat
 * Sheet): counted per account (the e-mail address tried, known or not, so the answer says nothing
 * about which exist) and per client address. Past the free failures, each further attempt waits
 * twice as long as the last, up to a quarter of an hour; a correct password during the wait is
 * refused like a wrong one, or the wait would slow nothing. A count is forgotten an hour after its
 * last failure, and an account's when its password is given correctly.
 */
export const throttlePolicy = {
  /** Failures allowed per account before attempts wait: the sixth is refused with 429. */
  freeAccountFailures: 5,
  /** Failures allowed per client address (an office behind one NAT shares it). */
  freeAddressFailures: 20,
  firstWaitMs: 30_000,
  maxWaitMs: 15 * 60_000,
  forgetAfterMs: 60 * 60_000,
} as const;

/**
 * The name an account's failures are counted under: an HMAC of the name tried, never the name.
 * What is typed into the e-mail box is often a password (typed into the wrong box); kept as
 * typed, it would sit in the database for whoever reads the file. The key is the database's own
 * random one, so the same name always counts under the same key, on every process.
 */
export function accountKey(secret: Buffer, email: string): string {
  return `account:${accountDigest(secret, email)}`;
}

/** The keyed hash of a name tried: what the throttle and an unknown name's audit line hold. */
export function accountDigest(secret: Buffer, email: string): string {
  return createHmac('sha256', secret).update(email, 'utf8').digest('base64url');
}

export function addressKey(address: string): string {
  return `address:${address}`;
}

function freeFailures(key: string): number {
  return key.startsWith('address:')
    ? throttlePolicy.freeAddressFailures
    : throttlePolicy.freeAccountFailures;
}

/** When the next attempt under `key` may be made (0: now). */
function allowedFrom(key: string, count: FailureCount): number {
  const over = count.failures - freeFailures(key);
  if (over < 0) return 0;
  const wait = Math.min(
    throttlePolicy.maxWaitMs,
    throttlePolicy.firstWaitMs * 2 ** Math.min(over, 20),
  );
  return count.lastFailureAt + wait;
}

/** Milliseconds to wait before another attempt, or 0: the latest of the keys' waits. */
export function waitBeforeAttempt(counts: Map<string, FailureCount>, now: number): number {
  let until = 0;
  for (const [key, count] of counts) {
    if (now - count.lastFailureAt >= throttlePolicy.forgetAfterMs) continue;
    until = Math.max(until, allowedFrom(key, count));
  }
  return Math.max(0, until - now);
}
