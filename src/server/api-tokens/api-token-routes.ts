import type { FastifyPluginAsync } from 'fastify';
import type { z } from 'zod';
import {
  createApiTokenSchema,
  type ApiTokenSummary,
  type apiTokenListSchema,
  type CreatedApiToken,
} from '@/domain/api-tokens';
import type { PortalConfig } from '@/server/config';
import { requireUser, signedInRoutes } from '@/server/http/require-user';
import { bodySchema, withRouteSchemas } from '@/server/http/route-schemas';

export interface ApiTokenRoutesOptions {
  config: PortalConfig;
}

/**
 * `/api/tokens` (decision 037): a QA engineer or admin makes, lists and revokes their own
 * tokens; admins also list and revoke everyone's. Never reachable with a token (no scope covers
 * it): a token cannot make another.
 */
export const apiTokenRoutes: FastifyPluginAsync<ApiTokenRoutesOptions> = async (
  app,
  { config },
) => {
  const tokens = app.apiTokens;
  const api = withRouteSchemas(app);
  signedInRoutes(
    app,
    config,
    'qa',
    'Sign-in is off on this portal, so it needs no API tokens: scripts and CI jobs call it as they are. Tokens are for a portal with sign-in on.',
  );

  /** The signed-in user; the hook above has made sure there is one, with the qa role at least. */
  const userOf = (request: Parameters<typeof requireUser>[0]) => {
    const session = requireUser(request, config, 'qa');
    if (!session) throw new Error('sign-in is on, so the hook has a user');
    return session.user;
  };

  app.get('/', async (request): Promise<z.input<typeof apiTokenListSchema>> => ({
    tokens: await tokens.listFor(userOf(request)),
  }));

  app.get('/all', async (request): Promise<z.input<typeof apiTokenListSchema>> => {
    requireUser(request, config, 'admin');
    return { tokens: await tokens.listAll() };
  });

  api.post(
    '/',
    { schema: { body: bodySchema(createApiTokenSchema) } },
    async (request, reply): Promise<CreatedApiToken> => {
      const created = await tokens.create(request, userOf(request), request.body);
      reply.code(201);
      return created;
    },
  );

  app.delete<{ Params: { id: string } }>('/:id', async (request): Promise<ApiTokenSummary> =>
    tokens.revoke(request, userOf(request), request.params.id),
  );
};
