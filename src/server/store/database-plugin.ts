import fp from 'fastify-plugin';
import type { PortalConfig } from '@/server/config';
import { openDatabase, type PortalDatabase, type StoreWrapper } from './database';
import type { Migration } from './migrations';

declare module 'fastify' {
  interface FastifyInstance {
    /**
     * The portal database, open and its schema up to date (decisions 027, 047): each concern's
     * plugin opens its own store on it (accounts their users and sessions, the journal its calls,
     * the proxy its idempotency keys).
     */
    database: PortalDatabase;
  }
}

export interface DatabaseOptions {
  config: PortalConfig;
  /** Every concern's schema steps, in order (portal-schema.ts). */
  migrations: readonly Migration[];
  /** Applied to every store a concern opens: with metrics on, each store call is timed. */
  wrap?: StoreWrapper;
  /** Given PostgreSQL's pool figures, for the metrics. */
  onPool?: (stats: () => { total: number; idle: number; waiting: number }) => void;
}

/**
 * Opens the portal database (PORTAL_DB, or DATABASE_URL) and brings its schema up to date before
 * any part that keeps something in it loads; a database that cannot be opened stops the start
 * with its reason (listen() fails). Closed last, after every part that writes to it has closed.
 */
export const databasePlugin = fp<DatabaseOptions>(
  async (app, { config, migrations, wrap, onPool }) => {
    const database = await openDatabase(config, migrations, wrap ? { wrap } : {});
    app.addHook('onClose', () => database.close());
    app.decorate('database', database);
    if (database.poolStats) onPool?.(database.poolStats);
  },
  { name: 'database', fastify: '5.x' },
);
