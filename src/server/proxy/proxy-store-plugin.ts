import fp from 'fastify-plugin';
import { createIdempotencyKeyStore, type IdempotencyKeyStore } from './store/idempotency-keys';
import { createPostgresIdempotencyKeyStore } from './store/postgres/idempotency-keys';

declare module 'fastify' {
  interface FastifyInstance {
    /**
     * The proxy's idempotency keys (decision 002), on the portal database: the proxy's gate
     * claims and settles them, the sent-after-backup list reads what a restore wrote in them.
     */
    idempotencyKeys: IdempotencyKeyStore;
  }
}

/** Opens the proxy's own store on the portal database, before the proxy and the routes that read it. */
export const proxyStorePlugin = fp(
  async (app) => {
    app.decorate(
      'idempotencyKeys',
      app.database.open('idempotencyKeys', {
        sqlite: createIdempotencyKeyStore,
        postgres: createPostgresIdempotencyKeyStore,
      }),
    );
  },
  { name: 'proxy-store', fastify: '5.x', dependencies: ['database'] },
);
