import type { FastifyReply, FastifyRequest } from 'fastify';

/**
 * The session cookie (decision 026; OWASP Session Management Cheat Sheet): HttpOnly (no script
 * reads it), SameSite=Lax (not sent on another site's POSTs), Path=/, no Domain. Over HTTPS it is
 * also Secure and named with the `__Host-` prefix, which browsers accept only from a secure
 * origin, with Path=/ and no Domain: a sibling subdomain or a plain-HTTP page cannot plant or
 * overwrite it (RFC 6265bis §4.1.3.2).
 */
const plainName = 'vms_session';
const secureName = '__Host-vms_session';

function secure(request: FastifyRequest): boolean {
  // X-Forwarded-Proto counts only when TRUST_PROXY says who may set it (Fastify's trustProxy).
  return request.protocol === 'https';
}

export function sessionCookieName(request: FastifyRequest): string {
  return secure(request) ? secureName : plainName;
}

/** The single sign-on attempt's cookie: its `state`, to bind the callback to this browser. */
export const ssoCookie = { plain: 'vms_sso', secure: '__Host-vms_sso' } as const;

function nameOf(request: FastifyRequest, names: { plain: string; secure: string }): string {
  return secure(request) ? names.secure : names.plain;
}

/** The session ids the request carries under this scheme's name (more than one: try each). */
export function sessionIdsOf(request: FastifyRequest): string[] {
  return cookieValues(request, sessionCookieName(request));
}

/**
 * The values of the cookie `name` (a browser may send several), at most three. Read here rather
 * than with @fastify/cookie: its parser (the `cookie` package) keeps only the first value of a
 * name, and a stale cookie set for another path, sent first, would then hide the live session.
 */
export function cookieValues(request: FastifyRequest, name: string): string[] {
  const header = request.headers.cookie;
  if (header === undefined) return [];
  const ids: string[] = [];
  for (const part of header.split(';')) {
    const at = part.indexOf('=');
    if (at < 0 || part.slice(0, at).trim() !== name) continue;
    ids.push(part.slice(at + 1).trim());
    if (ids.length === 3) break;
  }
  return ids;
}

function cookie(
  request: FastifyRequest,
  value: string,
  maxAgeSeconds: number,
  name = sessionCookieName(request),
): string {
  const attributes = [
    `${name}=${value}`,
    'Path=/',
    `Max-Age=${maxAgeSeconds}`,
    'HttpOnly',
    'SameSite=Lax',
  ];
  if (secure(request)) attributes.push('Secure');
  return attributes.join('; ');
}

/** Sets the cookie for a new session; it lasts no longer than the session may. */
export function setSessionCookie(
  request: FastifyRequest,
  reply: FastifyReply,
  id: string,
  maxAgeMs: number,
): void {
  reply.header('set-cookie', cookie(request, id, Math.max(1, Math.floor(maxAgeMs / 1000))));
  // A page with a session in it must not be kept by a shared cache.
  reply.header('cache-control', 'no-store');
}

export function clearSessionCookie(request: FastifyRequest, reply: FastifyReply): void {
  reply.header('set-cookie', cookie(request, '', 0));
}

/** Sets the single sign-on attempt's cookie (ten minutes), or clears it (null). */
export function setSsoCookie(request: FastifyRequest, reply: FastifyReply, state: string | null) {
  reply.header(
    'set-cookie',
    cookie(request, state ?? '', state === null ? 0 : 600, nameOf(request, ssoCookie)),
  );
}

export function ssoStatesOf(request: FastifyRequest): string[] {
  return cookieValues(request, nameOf(request, ssoCookie));
}
