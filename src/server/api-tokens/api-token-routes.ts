import type { FastifyInstance, FastifyPluginAsync } from 'fastify';
import type { z } from 'zod';
import { ApiError } from '../../domain/api-error';
import {
  createApiTokenSchema,
  type ApiTokenSummary,
  type apiTokenListSchema,
  type CreatedApiToken,
} from '../../domain/api-tokens';
import { requireUser, type BearerCheck } from '../auth/auth-hooks';
import { acceptJsonOnly, parseBody } from '../auth/json-body';
import type { PortalAuth } from '../auth/portal-auth';
import type { PortalConfig } from '../config';
import type { ApiTokenStore } from './api-token-store';
import { ApiTokens } from './api-tokens';

/**
 * The portal's API tokens, opened with the stores: `bearer` for the session hook, which checks the
 * token a call carries; the service for the routes. Closed with the app.
 */
export function openApiTokens(
  app: FastifyInstance,
  auth: Promise<PortalAuth>,
  store: Promise<ApiTokenStore>,
): { tokens: Promise<ApiTokens>; bearer: BearerCheck } {
  app.decorateRequest('apiToken', null);
  const tokens = Promise.all([auth, store]).then(([opened, tokenStore]) => {
    return new ApiTokens(opened, tokenStore);
  });
  tokens.catch(() => {});
  app.addHook('onClose', async () => {
    (await tokens.catch(() => null))?.close();
  });
  return {
    tokens,
    bearer: async (request, token, path) => (await tokens).authenticate(request, token, path),
  };
}

export interface ApiTokenRoutesOptions {
  config: PortalConfig;
  tokens: Promise<ApiTokens>;
}

/**
 * `/api/tokens` (decision 037): a QA engineer or admin makes, lists and revokes their own
 * tokens; admins also list and revoke everyone's. Never reachable with a token (no scope covers
 * it): a token cannot make another.
 */
export const apiTokenRoutes: FastifyPluginAsync<ApiTokenRoutesOptions> = async (
  app,
  { config, tokens },
) => {
  acceptJsonOnly(app);
  app.addHook('onRequest', async (request) => {
    if (!config.auth.required) {
      throw new ApiError(
        'not_found',
        'Sign-in is off on this portal, so it needs no API tokens: scripts and CI jobs call it as they are. Tokens are for a portal with sign-in on.',
      );
    }
    requireUser(request, config, 'qa');
  });

  /** The signed-in user; the hook above has made sure there is one, with the qa role at least. */
  const userOf = (request: Parameters<typeof requireUser>[0]) => {
    const session = requireUser(request, config, 'qa');
    if (!session) throw new Error('sign-in is on, so the hook has a user');
    return session.user;
  };

  app.get('/', async (request): Promise<z.input<typeof apiTokenListSchema>> => ({
    tokens: await (await tokens).listFor(userOf(request)),
  }));

  app.get('/all', async (request): Promise<z.input<typeof apiTokenListSchema>> => {
    requireUser(request, config, 'admin');
    return { tokens: await (await tokens).listAll() };
  });

  app.post('/', async (request, reply): Promise<CreatedApiToken> => {
    const input = parseBody(createApiTokenSchema, request.body);
    const created = await (await tokens).create(request, userOf(request), input);
    reply.code(201);
    return created;
  });

  app.delete<{ Params: { id: string } }>('/:id', async (request): Promise<ApiTokenSummary> =>
    (await tokens).revoke(request, userOf(request), request.params.id),
  );
};
