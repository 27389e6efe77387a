import { createHash, timingSafeEqual } from 'node:crypto';

/**
 * The VMS request signature (decisions.md, "Authentication"; vms-api-notes.md): lowercase hex
 * SHA-256 of apiKey + secret + timestamp, the timestamp being Unix time in whole seconds. No
 * timestamp is sent; the server recomputes the hash for the seconds around its own clock.
 * One small module so another scheme can live beside it.
 */
export function unixSeconds(now: number = Date.now()): number {
  return Math.floor(now / 1000);
}

export function computeSignature(apiKey: string, secret: string, timestamp: number): string {
  return createHash('sha256').update(`${apiKey}${secret}${timestamp}`, 'utf8').digest('hex');
}

export function signatureHeaders(
  apiKey: string,
  secret: string,
  now: number = Date.now(),
): { 'x-api-key': string; 'x-signature': string } {
  return { 'x-api-key': apiKey, 'x-signature': computeSignature(apiKey, secret, unixSeconds(now)) };
}

/**
 * Server side: does `signature` match any second within ±skewSeconds of `now`? Constant-time per
 * comparison; the window is small (601 hashes at the default ±300 s), so scanning it is cheap.
 */
export function verifySignature(
  apiKey: string,
  secret: string,
  signature: string,
  options: { now?: number; skewSeconds?: number } = {},
): boolean {
  if (!/^[0-9a-f]{64}$/.test(signature)) return false;
  const given = Buffer.from(signature, 'hex');
  const center = unixSeconds(options.now ?? Date.now());
  const skew = options.skewSeconds ?? 300;
  // Check the current second first: it is by far the most likely match.
  for (let offset = 0; offset <= skew; offset += 1) {
    for (const ts of offset === 0 ? [center] : [center - offset, center + offset]) {
      const expected = Buffer.from(computeSignature(apiKey, secret, ts), 'hex');
      if (timingSafeEqual(expected, given)) return true;
    }
  }
  return false;
}
