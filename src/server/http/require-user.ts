import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ApiError } from '@/domain/api-error';
import { roleRank, type Role } from '@/domain/auth';
import type { PortalConfig } from '@/server/config';
import { acceptJsonOnly } from './json-body';

/*
 * What a route asks of the caller: a signed-in user with a role at least. The session itself is
 * the accounts' (their session checks set request.portalSession and request.sessionEnd, typed
 * once where accounts declare them); the routes of every concern read it here, so none of them
 * imports accounts.
 */

/** The session a signed-in call acts in, as accounts' session checks set it. */
export type SignedInSession = NonNullable<FastifyRequest['portalSession']>;

function endMessage(request: FastifyRequest, config: PortalConfig): string {
  switch (request.sessionEnd) {
    case 'idle':
      return `Your session ended after ${Math.round(config.auth.idleMs / 60_000)} minutes without use. Sign in again to go on; nothing you had in this browser is lost.`;
    case 'expired':
      return `Your session ended ${Math.round(config.auth.maxMs / 3_600_000)} hours after you signed in. Sign in again to go on; nothing you had in this browser is lost.`;
    default:
      return 'Sign in to use the portal.';
  }
}

/**
 * The signed-in user, with at least `role` (admin ⊃ qa ⊃ recruiter). With sign-in off, null:
 * whoever uses a loopback portal may do everything, as before sign-in existed.
 */
export function requireUser(
  request: FastifyRequest,
  config: PortalConfig,
  role: Role = 'recruiter',
): SignedInSession | null {
  if (!config.auth.required) return null;
  const session = request.portalSession;
  if (!session) throw new ApiError('unauthenticated', endMessage(request, config));
  if (roleRank[session.user.role] < roleRank[role]) {
    throw new ApiError(
      'forbidden',
      `Your account (${session.user.role}) may not do this; it needs the ${role} role. Ask an admin if you need it.`,
    );
  }
  return session;
}

/**
 * The start of a group of routes that exist only with sign-in on (accounts, each user's records,
 * API tokens): JSON bodies only; with sign-in off, every call a 404 saying why (`whenOff`);
 * with it on, a user with `role` at least.
 */
export function signedInRoutes(
  app: FastifyInstance,
  config: PortalConfig,
  role: Role,
  whenOff: string,
): void {
  acceptJsonOnly(app);
  app.addHook('onRequest', async (request) => {
    if (!config.auth.required) throw new ApiError('not_found', whenOff);
    requireUser(request, config, role);
  });
}

/** An onRequest hook for a group of routes that all need a user with `role`. */
export function requireUserHook(config: PortalConfig, role: Role = 'recruiter') {
  return async (request: FastifyRequest): Promise<void> => {
    requireUser(request, config, role);
  };
}
