import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { ApiError } from '@/domain/api-error';
import { sameToken } from '@/server/accounts/tokens';
import type { MetricsSettings, PortalConfig } from '@/server/config';
import { sendError } from '@/server/http/portal-error';
import { PortalMetrics } from './portal-metrics';

declare module 'fastify' {
  interface FastifyInstance {
    /**
     * The portal's metrics, or null when they are served nowhere (METRICS_PORT and METRICS_TOKEN
     * unset): then nothing is counted at all. Code that counts calls `portalMetrics?.…`.
     */
    portalMetrics: PortalMetrics | null;
  }
}

export interface MetricsOptions {
  config: PortalConfig;
}

/** What a refused scrape is told; it never says what the token is, or how close a guess came. */
const tokenMessage =
  'Metrics need the bearer token METRICS_TOKEN: send it as "Authorization: Bearer <token>".';

/** Whether the request carries the token: compared in constant time, never logged or echoed. */
export function bearerMatches(header: string | string[] | undefined, token: string): boolean {
  if (typeof header !== 'string') return false;
  const match = /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(header);
  return match?.[1] !== undefined && sameToken(match[1], token);
}

/**
 * The metrics (decision 034), counted only where they are served (METRICS_PORT or METRICS_TOKEN);
 * else nothing is counted at all. Registered before every part it counts: its hooks are the root
 * instance's, so that every route (those registered later included) is counted:
 * - every answer, by route pattern and status (never the raw address: ids and queries in it
 *   would make a new series each);
 * - a repeat refused as outcome unknown, which throws before the proxy writes its call line;
 * - with METRICS_TOKEN, GET /metrics on the portal's port, for a scraper that sends the token;
 * - with METRICS_PORT, a second listener that serves only GET /metrics (the token too, if set),
 *   for a scraper kept to an internal network.
 * The parts that hold what a scrape reads (the database's pool, the journal) add it as they open.
 */
export const metricsPlugin = fp<MetricsOptions>(
  async (app, { config }) => {
    const settings = config.metrics;
    const metrics =
      settings.port !== null || settings.token !== null
        ? new PortalMetrics({ defaultConnection: config.defaultConnection })
        : null;
    app.decorate('portalMetrics', metrics);
    if (metrics !== null) serveMetrics(app, metrics, settings, config.host);
  },
  { name: 'metrics', fastify: '5.x' },
);

function serveMetrics(
  app: FastifyInstance,
  metrics: PortalMetrics,
  settings: MetricsSettings,
  host: string,
): void {
  app.addHook('onResponse', (request, reply, done) => {
    metrics.httpRequest(
      request.method,
      request.routeOptions.url ?? 'unmatched',
      reply.statusCode,
      reply.elapsedTime / 1000,
    );
    done();
  });
  app.addHook('onError', (_request, _reply, error, done) => {
    if (error instanceof ApiError && error.code === 'outcome_unknown') {
      metrics.idempotencyUnknown();
    }
    done();
  });

  const { token } = settings;
  if (token !== null) {
    app.get('/metrics', async (request: FastifyRequest, reply: FastifyReply) => {
      if (!bearerMatches(request.headers.authorization, token)) {
        reply.header('www-authenticate', 'Bearer realm="metrics"');
        return sendError(reply, 'unauthenticated', tokenMessage);
      }
      const { contentType, body } = await metrics.scrape();
      return reply.type(contentType).header('cache-control', 'no-store').send(body);
    });
  }

  if (settings.port !== null) {
    const port = settings.port;
    let server: Server | null = null;
    // On ready rather than on listen: a metrics port that is taken stops the start, as the
    // portal's own port does, instead of leaving a portal nobody can watch.
    app.addHook('onReady', async () => {
      server = await listenForScrapes(metrics, token, port, host);
      const address = server.address() as AddressInfo;
      const where = address.family === 'IPv6' ? `[${address.address}]` : address.address;
      app.log.info(
        { event: 'metrics_listen', url: `http://${where}:${address.port}/metrics` },
        'metrics listening',
      );
    });
    app.addHook('onClose', async () => {
      const listening = server;
      if (listening === null) return;
      listening.closeAllConnections();
      await new Promise<void>((resolve) => listening.close(() => resolve()));
    });
  }
}

/** The metrics port: GET /metrics and nothing else, with the token when one is set. */
async function listenForScrapes(
  metrics: PortalMetrics,
  token: string | null,
  port: number,
  host: string,
): Promise<Server> {
  const answer = (response: ServerResponse, status: number, text: string) => {
    response.writeHead(status, { 'content-type': 'text/plain; charset=utf-8' });
    response.end(`${text}\n`);
  };
  const server = createServer((request: IncomingMessage, response: ServerResponse) => {
    const path = (request.url ?? '/').split('?')[0];
    if (request.method !== 'GET' || path !== '/metrics') {
      answer(response, 404, 'This port serves only GET /metrics.');
      return;
    }
    if (token !== null && !bearerMatches(request.headers.authorization, token)) {
      response.setHeader('www-authenticate', 'Bearer realm="metrics"');
      answer(response, 401, tokenMessage);
      return;
    }
    metrics.scrape().then(
      ({ contentType, body }) => {
        response.writeHead(200, { 'content-type': contentType, 'cache-control': 'no-store' });
        response.end(body);
      },
      () => answer(response, 500, 'The metrics could not be collected.'),
    );
  });
  // A scraper that trickles its request must not hold a connection open for long.
  server.requestTimeout = 10_000;
  server.headersTimeout = 10_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  return server;
}
