import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * How a receiver knows a delivery came from this portal and was not replayed (decision 051): each
 * delivery carries `X-Portal-Signature: t=<Unix seconds>,v1=<hex HMAC-SHA256>`, the HMAC taken with
 * the webhook's secret over the timestamp, a full stop and the body exactly as sent. The receiver
 * recomputes it and refuses a timestamp older than a few minutes. The same scheme as Stripe's and
 * Slack's request signing, so receivers can reuse code they have.
 */
export const signatureHeader = 'x-portal-signature';

function hmacHex(secret: string, timestamp: number, body: string): string {
  return createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex');
}

/** The X-Portal-Signature value for a body sent at `timestamp` (Unix seconds). */
export function signDelivery(secret: string, timestamp: number, body: string): string {
  return `t=${timestamp},v1=${hmacHex(secret, timestamp, body)}`;
}

/**
 * Whether a signature header is this body's, made with this secret, at most `toleranceSeconds`
 * from `now` (Unix seconds). What docs/deployment.md shows a receiver doing.
 */
export function verifyDelivery(
  secret: string,
  header: string | undefined,
  body: string,
  now: number,
  toleranceSeconds = 300,
): boolean {
  const parts = new Map(
    (header ?? '').split(',').map((part) => {
      const at = part.indexOf('=');
      return [part.slice(0, at).trim(), part.slice(at + 1).trim()] as const;
    }),
  );
  const timestamp = Number(parts.get('t'));
  const given = parts.get('v1') ?? '';
  if (!Number.isInteger(timestamp) || Math.abs(now - timestamp) > toleranceSeconds) return false;
  if (!/^[0-9a-f]{64}$/.test(given)) return false;
  return timingSafeEqual(
    Buffer.from(given, 'hex'),
    Buffer.from(hmacHex(secret, timestamp, body), 'hex'),
  );
}
