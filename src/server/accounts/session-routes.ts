import type { FastifyPluginAsync } from 'fastify';
import fp from 'fastify-plugin';
import { z } from 'zod';
import { ApiError } from '@/domain/api-error';
import {
  acceptInviteSchema,
  sessionStateSchema,
  signedOutEverywhereSchema,
  signInSchema,
} from '@/domain/auth';
import type { PortalConfig } from '@/server/config';
import { acceptJsonOnly } from '@/server/http/json-body';
import { requireUser } from '@/server/http/require-user';
import {
  bodySchema,
  partSchema,
  responseSchema,
  withRouteSchemas,
} from '@/server/http/route-schemas';
import { hashPassword } from './passwords';
import { signIn } from './sign-in';
import { tokenDigest, tokenPattern } from './tokens';

export interface SessionRoutesOptions {
  config: PortalConfig;
}

const signInOff =
  'Sign-in is off on this portal (it listens on this machine only and AUTH is not on), so there is nothing to sign in to: everything works without an account.';

const inviteInvalid = () =>
  new ApiError(
    'invite_invalid',
    'This invite link has been used, has expired (links last 72 hours) or was replaced by a newer one. Ask an admin for a new link.',
  );

/** An invite link's token: one that cannot be a token is no invite, as one used or expired. */
const inviteParams = partSchema(z.object({ token: z.string().regex(tokenPattern) }), inviteInvalid);

const sessionState = { 200: responseSchema(sessionStateSchema) };

/**
 * Sessions under /api (decision 026): who is signed in, sign in, sign out, sign out everywhere,
 * and accepting an invite (which sets the password and signs in).
 */
const routes: FastifyPluginAsync<SessionRoutesOptions> = async (app, { config }) => {
  const auth = app.accounts;
  acceptJsonOnly(app);
  const api = withRouteSchemas(app);
  /** Before the body is checked: with sign-in off there is nothing here to send one to. */
  const signInOn = async () => {
    if (!config.auth.required) throw new ApiError('not_found', signInOff);
  };

  api.get('/session', { schema: { response: sessionState } }, async (request) => {
    if (!config.auth.required) {
      return { authRequired: false, user: null, csrfToken: '', sso: null };
    }
    return auth.state(request);
  });

  api.post(
    '/session',
    {
      preValidation: signInOn,
      schema: { body: bodySchema(signInSchema), response: sessionState },
    },
    async (request, reply) => {
      const { email, password } = request.body;
      await signIn(auth, request, reply, email, password);
      return auth.state(request);
    },
  );

  api.delete('/session', async (request, reply) => {
    if (config.auth.required) {
      const user = request.portalSession?.user;
      await auth.endSession(request, reply);
      if (user) auth.audit('sign_out', { userId: user.id, email: user.email }, request);
    }
    return reply.code(204).send();
  });

  api.delete(
    '/sessions',
    { schema: { response: { 200: responseSchema(signedOutEverywhereSchema) } } },
    async (request, reply) => {
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
    },
  );

  api.post(
    '/invites/:token',
    {
      preValidation: signInOn,
      schema: {
        params: inviteParams,
        body: bodySchema(acceptInviteSchema),
        response: sessionState,
      },
    },
    async (request, reply) => {
      const { password } = request.body;
      const { token } = request.params;
      const user = await auth.users.acceptInvite(
        tokenDigest(token),
        await hashPassword(password),
        auth.now(),
      );
      if (!user) throw inviteInvalid();
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
      await auth.signIn(request, reply, user, 'invite');
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
