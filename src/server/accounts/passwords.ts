import { randomBytes } from 'node:crypto';
import { hash, verify } from '@node-rs/argon2';

/**
 * Password hashes: argon2id with @node-rs/argon2's defaults (19 MiB, 2 passes, 1 lane), the
 * parameters OWASP's Password Storage Cheat Sheet gives first for argon2id. The PHC string holds
 * its own parameters and salt, so raising them later leaves old hashes verifiable.
 */
export function hashPassword(password: string): Promise<string> {
  return hash(password);
}

/** False for a wrong password and for a hash that cannot be read (never throws on the hash). */
export async function verifyPassword(passwordHash: string, password: string): Promise<boolean> {
  try {
    return await verify(passwordHash, password);
  } catch {
    return false;
  }
}

/**
 * A hash of a random password, made once: a sign-in for an unknown, invited or disabled account
 * verifies against it, so it costs the same time as one for a real account (no enumeration by
 * timing).
 */
export function dummyHash(): Promise<string> {
  return hash(randomBytes(24).toString('base64url'));
}
