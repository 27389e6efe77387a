import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { SessionUser } from '@/domain/auth';
import { payloadKindByOperation } from '@/domain/payload-kind';
import { connectionHeader } from '@/domain/vms-contract';
import type { PortalConfig } from '@/server/config';
import type { AcceptedBatch } from '@/server/proxy/accepted-batch';
import { scheduleRetention } from '@/server/store/retention';
import { PgBossWatchQueue } from './pg-boss-queue';
import { createPostgresWatchStore } from './store/postgres/watch-store';
import { resultsRetention } from './store/results-retention';
import {
  createWatchStore,
  type NewWatch,
  type StoredWatch,
  type WatchStore,
} from './store/watch-store';
import { watchMetrics } from './watch-metrics';
import { Watcher, type WatchEvents, type WatcherOptions, type WatchTransport } from './watcher';

declare module 'fastify' {
  interface FastifyInstance {
    /** The batches the VMS accepted, watched until they settle (decision 050). */
    watchStore: WatchStore;
    batchWatcher: Watcher;
  }
}

/** The header that makes a proxied call one of the watcher's. */
const watchHeader = 'x-portal-watch';

export interface WatchOptions {
  config: PortalConfig;
  /** The backoff, clock and idle look (tests make them short, or move the clock). */
  watcher?: Pick<WatcherOptions, 'backoff' | 'now' | 'random' | 'idleMs'>;
}

/**
 * The server's watch of every accepted batch (decision 050). The proxy tells of each batch the
 * VMS accepted through `acceptedBatches`, which this plugin sets before the proxy opens; the
 * watcher asks the VMS for the batch's results through the proxy itself (`app.inject`), as the
 * user who sent the batch, under the watch's own trace, so the call is signed, journaled and
 * counted as the browser's are. A call carries `X-Portal-Watch` with a secret made for it alone,
 * known only in this process's memory until its answer.
 */
export const watchPlugin = fp<WatchOptions>(
  async (app, { config, watcher: tuning }) => {
    const store = app.database.open('watches', {
      sqlite: createWatchStore,
      postgres: createPostgresWatchStore,
    });
    app.decorate('watchStore', store);
    scheduleRetention(app, {
      name: 'resultsRetention',
      factories: resultsRetention,
      keepMs: config.retention.resultsMs,
      what: 'kept batch results',
    });
    const callers = new Map<string, SessionUser | null>();
    app.addHook('onRequest', async (request: FastifyRequest) => {
      const header = request.headers[watchHeader];
      if (typeof header !== 'string' || !(request.raw.url ?? '').startsWith('/api/vms/')) return;
      const caller = callerOf(callers, header);
      if (caller === undefined || !config.auth.required || caller === null) return;
      request.portalSession = { user: caller, csrfToken: '', idHash: Buffer.alloc(0) };
    });
    const timeouts = new Map(config.connections.map((c) => [c.name, c.timeoutMs]));
    const leaseMs = (connection: string) => (timeouts.get(connection) ?? config.timeoutMs) + 60_000;
    // With PostgreSQL, several processes share the watches: the checks are pg-boss jobs.
    const queue =
      config.watch.enabled && app.database.kind === 'postgres' && config.databaseUrl !== null
        ? new PgBossWatchQueue({
            databaseUrl: config.databaseUrl,
            connections: config.connections.map((connection) => connection.name),
            concurrency: config.watch.concurrency,
            expireInSeconds: (connection) => leaseMs(connection) / 1000,
            log: app.log,
          })
        : null;
    const watcher = new Watcher({
      store,
      ...(queue ? { queue } : {}),
      ownsDatabase: !app.database.shared,
      transport: injectTransport(app, config, callers),
      concurrency: config.watch.concurrency,
      giveUpMs: config.watch.giveUpMs,
      leaseMs,
      log: app.log,
      finished: app.hasDecorator('finishedBatches') ? app.finishedBatches : null,
      events: watchEvents(app, store),
      ...tuning,
    });
    app.decorate('batchWatcher', watcher);
    if (!config.watch.enabled) {
      app.decorate('acceptedBatches', null);
      return;
    }
    app.decorate('acceptedBatches', {
      accepted: (batch: AcceptedBatch) => {
        watcher.accepted(batch).catch((error: unknown) => {
          app.log.warn(
            { err: error, batchId: batch.batchId, connection: batch.connection },
            'batch watch: not recorded',
          );
        });
      },
    });
    app.lifecycle.stopFirst.push(() => watcher.close());
    app.addHook('onClose', () => watcher.close());
    // Unfinished watches resume once the port is open and the proxy can be asked.
    app.addHook('onReady', () => watcher.start());
  },
  { name: 'watch', fastify: '5.x', dependencies: ['ops', 'database', 'accounts', 'audit'] },
);

/**
 * What the watcher does, into the audit trail (a watch recorded, settled, given up: as its
 * sender's, with the batch's id and counts, never its rows) and the metrics.
 */
function watchEvents(app: FastifyInstance, store: WatchStore): WatchEvents {
  const metrics = app.portalMetrics
    ? watchMetrics(app.portalMetrics.registry, () => store.watching())
    : null;
  const audit = (event: 'watch_started' | 'watch_settled' | 'watch_gave_up', watch: NewWatch) => {
    app.auditTrail.auth(event, {
      userId: watch.sentBy?.userId ?? null,
      email: watch.sentBy?.email ?? null,
      connection: watch.connection,
      batchId: watch.batchId,
      operation: watch.operation,
      itemCount: watch.itemCount,
    });
  };
  return {
    recorded: (watch) => audit('watch_started', watch),
    asking: (connection, delta) => metrics?.asking(connection, delta),
    checked(watch, outcome) {
      metrics?.checked(watch, outcome);
      if (outcome.state === 'settled') audit('watch_settled', watch);
      if (outcome.state === 'gave_up') audit('watch_gave_up', watch);
    },
    failed: (watch) => metrics?.failed(watch),
  };
}

/** The caller a watch header stands for; undefined when it stands for none. */
function callerOf(
  callers: ReadonlyMap<string, SessionUser | null>,
  header: string,
): SessionUser | null | undefined {
  const given = Buffer.from(header, 'hex');
  for (const [secret, caller] of callers) {
    const known = Buffer.from(secret, 'hex');
    if (given.length === known.length && timingSafeEqual(given, known)) return caller;
  }
  return undefined;
}

/** The user a watch's calls are made as: its sender as the accounts know them now. */
async function senderOf(app: FastifyInstance, watch: StoredWatch): Promise<SessionUser | null> {
  if (!watch.sentBy) return null;
  const stored = await app.accounts.users.byId(watch.sentBy.userId);
  return stored && !stored.disabled ? app.accounts.portalUser(stored) : null;
}

function injectTransport(
  app: FastifyInstance,
  config: PortalConfig,
  callers: Map<string, SessionUser | null>,
): WatchTransport {
  return async (watch) => {
    const kind = payloadKindByOperation(watch.operation);
    if (!kind) throw new Error(`no results call for ${watch.operation}`);
    const secret = randomBytes(24).toString('hex');
    callers.set(secret, config.auth.required ? await senderOf(app, watch) : null);
    const query = new URLSearchParams({
      batchid: watch.batchId,
      Client_Org_Id: String(watch.clientOrgId),
      Vendor_Org_Id: String(watch.vendorOrgId),
    });
    try {
      const response = await app.inject({
        method: 'GET',
        url: `/api/vms/${kind.resultsOperation}?${query.toString()}`,
        // The portal's own calls: counted against the loopback address, as a local script's.
        remoteAddress: '127.0.0.1',
        headers: {
          accept: 'application/json',
          [connectionHeader]: watch.connection,
          [watchHeader]: secret,
          traceparent: `00-${watch.traceId}-${randomBytes(8).toString('hex')}-01`,
        },
      });
      const retryAfter = response.headers['retry-after'];
      return {
        status: response.statusCode,
        body: response.body,
        retryAfter: retryAfter === undefined ? undefined : String(retryAfter),
      };
    } finally {
      callers.delete(secret);
    }
  };
}
