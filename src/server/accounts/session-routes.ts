import type { FastifyPluginAsync } from 'fastify';
import fp from 'fastify-plugin';
import { ApiError } from '../../domain/api-error';
import {
  acceptInviteSchema,
  signInSchema,
  type SessionState,
  type SignedOutEverywhere,
} from '../../domain/auth';
import type { PortalConfig } from '../config';
import { requireUser } from './auth-hooks';
import { hashPassword } from './passwords';
import { acceptJsonOnly, parseBody } from '../http/json-body';
import { signIn } from './sign-in';
import { tokenDigest, tokenPattern } from './tokens';

export interface SessionRoutesOptions {
  config: PortalConfig;
}

const signInOff =
  'Sign-in is off on this portal (it listens on this machine only and AUTH is not on), so there is nothing to sign in to: everything works without an account.';

/**
 * Sessions under /api (decision 026): who is signed in, sign in, sign out, sign out everywhere,
 * and accepting an invite (which sets the password and signs in).
 */
const routes: FastifyPluginAsync<SessionRoutesOptions> = async (app, { config }) => {
  const auth = app.accounts;
  acceptJsonOnly(app);

  app.get('/session', async (request): Promise<SessionState> => {
    if (!config.auth.required) {
      return { authRequired: false, user: null, csrfToken: '', sso: null };
    }
    return auth.state(request);
  });

  app.post('/session', async (request, reply): Promise<SessionState> => {
    if (!config.auth.required) throw new ApiError('not_found', signInOff);
    const { email, password } = parseBody(signInSchema, request.body);
    await signIn(auth, request, reply, email, password);
    return auth.state(request);
  });

  app.delete('/session', async (request, reply) => {
    if (config.auth.required) {
      const user = request.portalSession?.user;
      await auth.endSession(request, reply);
      if (user) auth.audit('sign_out', { userId: user.id, email: user.email }, request);
    }
    return reply.code(204).send();
  });

  app.delete('/sessions', async (request, reply): Promise<SignedOutEverywhere> => {
    const session = requireUser(request, config);
    if (!session) return { otherSessions: 0 };
    const ended = await auth.sessions.deleteForUser(session.user.id);
    await auth.endSession(request, reply);
    auth.audit(
      'sign_out_everywhere',
      {
        userId: session.user.id,
        email: session.user.email,
        sessions: ended,
      },
      request,
    );
    // This request's own session was one of them: the rest were on other browsers or devices.
    return { otherSessions: Math.max(0, ended - 1) };
  });

  app.post<{ Params: { token: string } }>(
    '/invites/:token',
    async (request, reply): Promise<SessionState> => {
      if (!config.auth.required) throw new ApiError('not_found', signInOff);
      const { password } = parseBody(acceptInviteSchema, request.body);
      const { token } = request.params;
      const invalid = new ApiError(
        'invite_invalid',
        'This invite link has been used, has expired (links last 72 hours) or was replaced by a newer one. Ask an admin for a new link.',
      );
      if (!tokenPattern.test(token)) throw invalid;
      const user = await auth.users.acceptInvite(
        tokenDigest(token),
        await hashPassword(password),
        auth.now(),
      );
      if (!user) throw invalid;
      // A new password ends every session the account had (ASVS 5.0 V7.4.3): whoever set it may
      // be taking the account back from someone who knew the old one.
      const ended = await auth.sessions.deleteForUser(user.id);
      auth.audit(
        'password_set',
        {
          userId: user.id,
          email: user.email,
          via: 'invite',
          sessionsEnded: ended,
        },
        request,
      );
      if (user.disabled) {
        throw new ApiError(
          'forbidden',
          'Your password is set, but your account is disabled. Ask an admin to enable it.',
        );
      }
      await auth.startSession(request, reply, user);
      auth.audit(
        'sign_in',
        {
          userId: user.id,
          email: user.email,
          role: user.role,
          address: request.ip,
          method: 'invite',
        },
        request,
      );
      return auth.state(request);
    },
  );
};

export const sessionRoutes = fp(routes, {
  name: 'session-routes',
  fastify: '5.x',
  encapsulate: true,
  dependencies: ['accounts'],
});
