import fp from 'fastify-plugin';
import type { PortalConfig } from '@/server/config';
import { instrumentStores } from '@/server/metrics/instrument-stores';
import { openPortalStores, type PortalStores } from './portal-stores';

declare module 'fastify' {
  interface FastifyInstance {
    /**
     * The portal database's stores, open (decision 027): the parts take their own from it
     * (accounts their users and sessions, the journal its calls, the proxy its idempotency keys).
     * With metrics on, every store call is timed.
     */
    stores: PortalStores;
  }
}

export interface DatabaseOptions {
  config: PortalConfig;
}

/**
 * Opens the portal database (PORTAL_DB, or DATABASE_URL) and brings its schema up to date before
 * any part that keeps something in it loads; a database that cannot be opened stops the start
 * with its reason (listen() fails). Closed last, after every part that writes to it has closed.
 */
export const databasePlugin = fp<DatabaseOptions>(
  async (app, { config }) => {
    const opened = await openPortalStores(config);
    app.addHook('onClose', () => opened.close());
    const metrics = app.portalMetrics;
    app.decorate('stores', metrics ? instrumentStores(opened, metrics) : opened);
    if (!metrics) return;
    // Read from the stores as opened, not timed: a scrape's own reads are not the portal's queries.
    const { poolStats } = opened;
    if (poolStats) metrics.setSources({ pool: poolStats });
    if (config.journal.enabled) {
      metrics.setSources({
        journalSize: async () => ({
          entries: await opened.journal.count(),
          bytes: await opened.journal.usedBytes(),
        }),
      });
    }
  },
  { name: 'database', fastify: '5.x', dependencies: ['metrics'] },
);
