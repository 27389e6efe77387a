import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ApiError } from '@/domain/api-error';
import { csrfHeader } from '@/domain/auth';
import type { PortalConfig } from '@/server/config';
import { type PortalAuth, type RequestSession } from './portal-auth';
import { changesState, crossSiteReason } from './request-origin';
import { sessionIdsOf } from './session-cookie';
import { sameToken } from './tokens';

/**
 * Checks the API token a call carried (decision 037): the session the call acts in, or an
 * ApiError (401 `token_invalid`, 403 outside the token's scope).
 */
export type BearerCheck = (
  request: FastifyRequest,
  token: string,
  path: string,
) => Promise<RequestSession>;

/** The token of `Authorization: Bearer <token>`; null for no header or another scheme. */
function bearerTokenOf(request: FastifyRequest): string | null {
  const header = request.headers.authorization;
  if (typeof header !== 'string') return null;
  const match = /^bearer[ \t]+(.*)$/i.exec(header);
  return match ? (match[1] ?? '').trim() : null;
}

/**
 * Calls that start a session rather than ride on one: no CSRF token is asked of them (they have
 * none yet, and a stale one must not stop a sign-in). The Origin check still applies, which is
 * what stops another site from signing a browser in to an account of its choosing.
 */
function startsSession(method: string, path: string): boolean {
  return method === 'POST' && (path === '/api/session' || path.startsWith('/api/invites/'));
}

/** An orchestrator's or load balancer's health probe (ops/health-routes.ts): no session, no database. */
function isProbe(method: string, path: string): boolean {
  return (
    (method === 'GET' || method === 'HEAD') &&
    (path === '/api/health/live' || path === '/api/health/ready')
  );
}

function pathOf(request: FastifyRequest): string {
  const url = request.raw.url ?? '/';
  const queryAt = url.indexOf('?');
  return queryAt < 0 ? url : url.slice(0, queryAt);
}

/**
 * The checks every /api call goes through first (decision 026), whether sign-in is on or off:
 * 1. a call that changes something and comes from another site (Sec-Fetch-Site, Origin) is
 *    refused, 403 csrf_failed: a page elsewhere cannot make the portal send;
 * 2. with sign-in on, the session cookie is checked (request.portalSession);
 * 3. a call that changes something in a session must carry the session's token in x-csrf-token.
 * A call with `Authorization: Bearer` instead acts as the API token's owner within its scope
 * (`bearer`, decision 037): it carries no cookie, so no CSRF token is asked of it, and one that
 * carries a session cookie as well is refused rather than guessed at.
 * Whether the call needs a user, and which role, is the route's to say (http/require-user.ts).
 */
export function registerSessionHooks(
  app: FastifyInstance,
  config: PortalConfig,
  auth: PortalAuth,
  bearer?: BearerCheck,
): void {
  app.decorateRequest('portalSession', null);
  app.decorateRequest('sessionEnd', null);
  app.addHook('onRequest', async (request, reply) => {
    const path = pathOf(request);
    if (!path.startsWith('/api/') && path !== '/api') return;
    // The probes need no user, like /api/health, and must not read the database for a session
    // a probe never has: liveness promises no database call at all.
    if (isProbe(request.method, path)) return;
    const changing = changesState(request.method);
    if (changing) {
      const reason = crossSiteReason(request, config.auth.publicOrigin);
      if (reason !== null) {
        throw new ApiError(
          'csrf_failed',
          `The portal refused this change because ${reason}. Open the portal at its own address and try again from there.`,
        );
      }
    }
    if (!config.auth.required) return;
    const token = bearer ? bearerTokenOf(request) : null;
    if (bearer && token !== null) {
      if (sessionIdsOf(request).length > 0) {
        throw new ApiError(
          'ambiguous_credentials',
          'This call carried both a session cookie and an API token (Authorization: Bearer). Send one: the token from a script or CI job, the cookie from the browser.',
        );
      }
      request.portalSession = await bearer(request, token, path);
      return;
    }
    const touch = !(request.method === 'GET' && path === '/api/session');
    const { session, end } = await auth.resolve(request, reply, touch);
    request.portalSession = session;
    request.sessionEnd = end;
    if (session && changing && !startsSession(request.method, path)) {
      const token = request.headers[csrfHeader];
      if (typeof token !== 'string' || !sameToken(token, session.csrfToken)) {
        throw new ApiError(
          'csrf_failed',
          'The portal refused this change: it did not carry this session’s security token (x-csrf-token). Reload the page and try again.',
        );
      }
    }
  });
}
