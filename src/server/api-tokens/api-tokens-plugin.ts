import fp from 'fastify-plugin';
import type { PortalDatabase } from '@/server/store/database';
import { createApiTokenStore, type ApiTokenStore } from './api-token-store';
import { ApiTokens } from './api-tokens';
import { createPostgresApiTokenStore } from './postgres-api-token-store';

declare module 'fastify' {
  interface FastifyInstance {
    /** Personal API tokens (decision 037), which the session checks read beside the cookie. */
    apiTokens: ApiTokens;
  }
}

/**
 * Personal API tokens on the portal database, built on accounts: the session checks accounts put
 * in place ask this plugin's check for a call's bearer token. Registered right after accounts,
 * before any route.
 */
export const apiTokensPlugin = fp(
  async (app) => {
    const apiTokens = new ApiTokens(app.accounts, openApiTokenStore(app.database));
    app.decorate('apiTokens', apiTokens);
    app.addHook('onClose', () => apiTokens.close());
    app.decorateRequest('apiToken', null);
    app.bearerCheck = (request, token, path) => apiTokens.authenticate(request, token, path);
  },
  { name: 'api-tokens', fastify: '5.x', dependencies: ['database', 'accounts'] },
);

/** The tokens' store on the portal database, as this plugin and the tests' stores open it. */
export function openApiTokenStore(database: PortalDatabase): ApiTokenStore {
  return database.open('apiTokens', {
    sqlite: createApiTokenStore,
    postgres: createPostgresApiTokenStore,
  });
}
