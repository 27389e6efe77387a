import fp from 'fastify-plugin';
import { createApiTokenStore } from './api-token-store';
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
    const store = app.database.open('apiTokens', {
      sqlite: createApiTokenStore,
      postgres: createPostgresApiTokenStore,
    });
    const apiTokens = new ApiTokens(app.accounts, store);
    app.decorate('apiTokens', apiTokens);
    app.addHook('onClose', () => apiTokens.close());
    app.decorateRequest('apiToken', null);
    app.bearerCheck = (request, token, path) => apiTokens.authenticate(request, token, path);
  },
  { name: 'api-tokens', fastify: '5.x', dependencies: ['database', 'accounts'] },
);
