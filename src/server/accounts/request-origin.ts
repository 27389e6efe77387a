import type { FastifyRequest } from 'fastify';

/** Methods that change something: each is checked for where it came from (decision 026). */
export function changesState(method: string): boolean {
  return method !== 'GET' && method !== 'HEAD' && method !== 'OPTIONS';
}

/**
 * Why a state-changing request looks like it came from another site, or null when it does not.
 * Browsers send `Sec-Fetch-Site` (Fetch Metadata) and `Origin` on every POST, PUT, PATCH and
 * DELETE, same-origin fetches included; a request with neither is not from a browser page (curl,
 * a script), which cross-site request forgery needs. OWASP CSRF Prevention Cheat Sheet, "Fetch
 * Metadata headers" and "Verifying origin with standard headers".
 */
export function crossSiteReason(
  request: FastifyRequest,
  publicOrigin: string | null,
): string | null {
  const site = request.headers['sec-fetch-site'];
  if (typeof site === 'string' && site !== 'same-origin' && site !== 'none') {
    return `it was sent from another site (Sec-Fetch-Site: ${site.slice(0, 20)})`;
  }
  const origin = request.headers.origin;
  if (origin === undefined) return null;
  // Behind a reverse proxy the request's own host is the proxy's view (X-Forwarded-Host with
  // TRUST_PROXY); PORTAL_PUBLIC_URL, when set, is the one answer.
  const expected = publicOrigin ?? `${request.protocol}://${request.host}`;
  if (origin.toLowerCase() === expected.toLowerCase()) return null;
  return `it was sent from ${origin === 'null' ? 'an opaque origin' : `the page ${origin.slice(0, 100)}`}, not from ${expected}`;
}
