import fp from 'fastify-plugin';
import type { PortalConfig } from '@/server/config';
import type { PortalDatabase } from '@/server/store/database';
import { AuditTrail } from './audit-trail';
import { createAuditStore, type AuditStore } from './store/audit-events';
import { createPostgresAuditStore } from './store/postgres/audit-events';

declare module 'fastify' {
  interface FastifyInstance {
    /** The audit trail (decision 036): sign-ins, account changes, sends and refusals go in it. */
    auditTrail: AuditTrail;
  }
}

export interface AuditOptions {
  config: PortalConfig;
  /** The clock (tests move it); default Date.now. */
  now?: () => number;
}

/**
 * The audit trail on the portal database, open before any part that records into it: the error
 * handler (every 403 refusal), accounts (sign-ins, account changes) and the proxy (sends). Closed
 * after them, so that what they record while closing (a late answer to a send) is written too.
 */
export const auditPlugin = fp<AuditOptions>(
  async (app, { config, now }) => {
    const trail = new AuditTrail({
      store: openAuditStore(app.database),
      settings: config.audit,
      log: app.log,
      ...(now ? { now } : {}),
    });
    app.decorate('auditTrail', trail);
    app.addHook('onClose', () => trail.close());
  },
  { name: 'audit', fastify: '5.x', dependencies: ['database'] },
);

/** The audit trail's store on the portal database, as this plugin and the tests' stores open it. */
export function openAuditStore(database: PortalDatabase): AuditStore {
  return database.open('audit', { sqlite: createAuditStore, postgres: createPostgresAuditStore });
}
