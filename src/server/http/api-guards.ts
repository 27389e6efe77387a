import type { FastifyInstance } from 'fastify';
import { ApiError } from '@/domain/api-error';
import type { Role } from '@/domain/auth';
import { isLoopbackHost, type PortalConfig } from '@/server/config';
import { limitPerMinute } from './minute-limit';
import { recordedPath } from './recorded-path';
import { requireUserHook } from './require-user';

/**
 * Security headers for every /api/vms answer (OWASP REST Security Cheat Sheet): nothing in it
 * may run, be framed or be read by another origin, even if the VMS sent HTML.
 */
const apiResponseHeaders = {
  'content-security-policy': "default-src 'none'; frame-ancestors 'none'",
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'referrer-policy': 'no-referrer',
  'cross-origin-resource-policy': 'same-origin',
};

/**
 * Where the answers carry personal or VMS data: the proxy, the journal, accounts, each user's
 * records, sessions, invites, single sign-on, connection checks, the audit trail, API tokens
 * (the answer that makes one holds it), and QA suites and their runs.
 */
const privateApiPrefixes = [
  '/api/vms/',
  '/api/journal',
  '/api/users',
  '/api/me/',
  '/api/session',
  '/api/invites/',
  '/api/auth/',
  '/api/connections/',
  '/api/audit',
  '/api/tokens',
  '/api/suites',
  '/api/suite-runs',
];

function isPrivateApi(url: string): boolean {
  return privateApiPrefixes.some((prefix) => url.startsWith(prefix));
}

/**
 * `Cache-Control: no-store` on every answer under the private prefixes (ASVS 5.0 V14.3.2), in one
 * hook rather than per route so that a new route, an error and a refusal get it too: a browser's
 * cache on a shared machine, or a cache between the portal and its users, must not keep them.
 * onSend, so that it also replaces whatever caching advice a VMS answer came with.
 */
export function registerNoStore(app: FastifyInstance): void {
  app.addHook('onSend', (request, reply, payload, done) => {
    if (isPrivateApi(request.raw.url ?? '')) reply.header('cache-control', 'no-store');
    done(null, payload);
  });
}

/**
 * What guards every /api/vms call before it is read: the answer's security headers, the DNS
 * rebinding defence of a loopback-only portal, the per-address rate limit, then (sign-in on) a
 * signed-in user with at least `role`, in that order, so that refusing strangers is rate-limited
 * too.
 */
export async function registerApiGuards(
  app: FastifyInstance,
  config: PortalConfig,
  role: Role,
): Promise<void> {
  // Two checks on every call, in one hook. The proxy's answers are data, never pages: they get
  // the strictest headers there are, set here instead of the pages' (security-headers.ts), which
  // the routes opt out of (config.pageHeaders false). And a DNS rebinding defence: a page on another
  // site can make its own host name resolve to 127.0.0.1 and then call us "same-origin", so a
  // loopback-only portal answers loopback names only. Registered first so even a 429 has both.
  // With sign-in on, the session cookie (bound to the portal's own name) and the Origin check
  // do that instead, and a reverse proxy may address the portal by its public name.
  const loopbackOnly = isLoopbackHost(config.host) && !config.auth.required;
  app.addHook('onRequest', (request, reply, done) => {
    reply.headers(apiResponseHeaders);
    if (loopbackOnly && !isLoopbackHost(request.hostname)) {
      done(
        new ApiError(
          'host_not_allowed',
          `This portal only answers requests addressed to this machine (localhost or 127.0.0.1), not "${request.hostname}". Open the portal at its local address.`,
        ),
      );
      return;
    }
    done();
  });

  if (config.rateLimitPerMinute > 0) {
    // Added before the sign-in check, so calls refused for want of a session are counted too.
    await limitPerMinute(app, {
      max: config.rateLimitPerMinute,
      message: (max, after) =>
        `Too many requests: this portal forwards at most ${max} per minute from one address (PORTAL_RATE_LIMIT_PER_MINUTE). Wait ${after} and try again.`,
    });
  }

  app.addHook('onRequest', requireUserHook(config, role));
  if (config.auth.required) {
    // A call refused before anyone signed in is one log line: what was asked, from where, the
    // answer. Never its body, and nothing in the database (the journal records only calls someone
    // signed in made), or anyone who can reach the portal could fill its disk without an account.
    app.addHook('onResponse', (request, reply, done) => {
      if (request.portalSession === null && reply.statusCode >= 400) {
        // The app's logger: the proxy's routes log at error only.
        app.log.info(
          {
            reqId: request.id,
            method: request.method,
            path: recordedPath(request.raw.url ?? '').slice(0, 200),
            status: reply.statusCode,
            address: request.ip,
          },
          'refused without a session',
        );
      }
      done();
    });
  }
}
