import fp from 'fastify-plugin';
import { ApiError } from '@/domain/api-error';
import type { PortalConfig } from '@/server/config';
import { scheduleRetention } from '@/server/store/retention';
import { registerSessionHooks, type BearerCheck } from './auth-hooks';
import { PortalAuth } from './portal-auth';
import { openAccountStores } from './store/account-stores';
import { createDraftRetention, createPostgresDraftRetention } from './store/draft-retention';

declare module 'fastify' {
  interface FastifyInstance {
    /** Accounts, sessions and per-user records (decision 026), open on the portal database. */
    accounts: PortalAuth;
    /**
     * How a call's `Authorization: Bearer` token is checked beside its cookie: set by the API
     * tokens' plugin (decision 037), which builds on accounts; null until it has loaded.
     */
    bearerCheck: BearerCheck | null;
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
 * route is (decision 026), a call's API token checked beside its cookie by the check the API
 * tokens' plugin sets (decision 037). Each sign-in and account change is counted in the metrics
 * and kept in the audit trail.
 */
export const accountsPlugin = fp<AccountsOptions>(
  async (app, { config, now }) => {
    const metrics = app.portalMetrics;
    const trail = app.auditTrail;
    const accounts = await PortalAuth.open({
      config,
      database: openAccountStores(app.database),
      log: app.log,
      ...(now ? { now } : {}),
      onAudit: (event, fields, request) => {
        metrics?.audit(event, fields);
        trail.auth(event, fields, request);
      },
    });
    app.decorate('accounts', accounts);
    scheduleRetention(app, {
      name: 'draftRetention',
      factories: { sqlite: createDraftRetention, postgres: createPostgresDraftRetention },
      keepMs: config.retention.draftsMs,
      what: 'drafts and tray items',
    });
    app.addHook('onClose', () => accounts.close());
    app.decorate('bearerCheck', null);
    registerSessionHooks(app, config, accounts, (request, token, path) => {
      if (app.bearerCheck === null) {
        throw new ApiError(
          'token_invalid',
          'This portal does not take API tokens: sign in instead.',
        );
      }
      return app.bearerCheck(request, token, path);
    });
  },
  { name: 'accounts', fastify: '5.x', dependencies: ['database', 'audit', 'metrics'] },
);
