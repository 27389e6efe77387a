import fp from 'fastify-plugin';
import { ApiTokens } from '@/server/api-tokens/api-tokens';
import type { PortalConfig } from '@/server/config';
import { registerSessionHooks } from './auth-hooks';
import { PortalAuth } from './portal-auth';

declare module 'fastify' {
  interface FastifyInstance {
    /** Accounts, sessions and per-user records (decision 026), open on the portal database. */
    accounts: PortalAuth;
    /** Personal API tokens (decision 037), which the session checks read beside the cookie. */
    apiTokens: ApiTokens;
  }
}

export interface AccountsOptions {
  config: PortalConfig;
  /** The sessions' clock (tests move it to expire sessions); default Date.now. */
  now?: () => number;
}

/**
 * Accounts on the portal database: sessions ended while the portal was down are purged before the
 * first request, and the session checks every /api call goes through are in place before any
 * route is (decision 026), a call's API token checked beside its cookie (decision 037). Each sign-in and account change is counted in the metrics and kept in
 * the audit trail.
 */
export const accountsPlugin = fp<AccountsOptions>(
  async (app, { config, now }) => {
    const metrics = app.portalMetrics;
    const trail = app.auditTrail;
    const accounts = await PortalAuth.open({
      config,
      database: app.stores,
      log: app.log,
      ...(now ? { now } : {}),
      onAudit: (event, fields, request) => {
        metrics?.audit(event, fields);
        trail.auth(event, fields, request);
      },
    });
    app.decorate('accounts', accounts);
    app.addHook('onClose', () => accounts.close());
    const apiTokens = new ApiTokens(accounts, app.stores.apiTokens);
    app.decorate('apiTokens', apiTokens);
    app.addHook('onClose', () => apiTokens.close());
    app.decorateRequest('apiToken', null);
    registerSessionHooks(app, config, accounts, (request, token, path) =>
      apiTokens.authenticate(request, token, path),
    );
  },
  { name: 'accounts', fastify: '5.x', dependencies: ['database', 'audit', 'metrics'] },
);
