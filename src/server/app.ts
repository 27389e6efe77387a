import { fileURLToPath } from 'node:url';
import Fastify, { LogController, type FastifyError, type FastifyInstance } from 'fastify';
import type { DestinationStream } from 'pino';
import { ApiError } from '@/domain/api-error';
import { settingsForConnection, settledConnection } from '@/domain/portal-config';
import { accountsPlugin } from './accounts/accounts-plugin';
import { sessionRoutes } from './accounts/session-routes';
import { ssoRoutes } from './accounts/sso-routes';
import { userRecordRoutes, type UserRecordLimits } from './accounts/user-record-routes';
import { userRoutes } from './accounts/user-routes';
import { apiTokenRoutes } from './api-tokens/api-token-routes';
import { apiTokensPlugin } from './api-tokens/api-tokens-plugin';
import { auditPlugin } from './audit/audit-plugin';
import { auditRoutes } from './audit/audit-routes';
import type { PortalConfig } from './config';
import { browserConfig, configRoutes } from './connections/config-routes';
import { connectionRoutes } from './connections/connection-routes';
import { deliveriesPlugin, type DeliveriesOptions } from './deliveries/deliveries-plugin';
import { deliveryRoutes } from './deliveries/delivery-routes';
import { mailPreferenceRoutes } from './deliveries/mail-preference-routes';
import { unsubscribeRoutes } from './deliveries/unsubscribe-routes';
import { registerNoStore } from './http/api-guards';
import { sendError } from './http/portal-error';
import { SchemaRefusal } from './http/route-schemas';
import { registerPageHeaders } from './http/security-headers';
import { registerTraceContext } from './http/trace-context';
import { journalPlugin, type JournalOptions } from './journal/journal-plugin';
import { journalRoutes } from './journal/journal-routes';
import { storeTimer } from './metrics/instrument-stores';
import { metricsPlugin } from './metrics/metrics-routes';
import { notificationsPlugin } from './notifications/notifications-plugin';
import { notificationRoutes } from './notifications/notifications-routes';
import { PortalLifecycle } from './ops/drain';
import { healthRoutes } from './ops/health-routes';
import { HealthReports, opsPlugin } from './ops/ops-plugin';
import { portalMigrations } from './portal-schema';
import { privacyRoutes } from './privacy/privacy-routes';
import { ConnectionUpstreams } from './proxy/connection-upstreams';
import { proxyStorePlugin } from './proxy/proxy-store-plugin';
import { sentAfterBackupRoutes } from './proxy/sent-after-backup-routes';
import { vmsProxy } from './proxy/vms-proxy';
import { readBuiltPages } from './spa/route-preloads';
import { serveSpa } from './spa/spa';
import { databasePlugin } from './store/database-plugin';
import { suiteRoutes } from './suites/suite-routes';
import { suitesPlugin, type SuitesOptions } from './suites/suites-plugin';
import { watchPlugin, type WatchOptions } from './watch/watch-plugin';
import { watchRoutes } from './watch/watch-routes';

export interface BuildPortalOptions {
  /**
   * Where log lines go (default: stdout). Tests pass a stream to read every line; any pino
   * destination works too (the benchmark writes to a file with `pino.destination`).
   */
  logStream?: NodeJS.WritableStream | DestinationStream;
  /** The built SPA (default: `dist/` at the project root). */
  distDir?: string;
  /** Where the embedded sandbox listens; required when `config.vmsBaseUrl` is null (startPortal). */
  sandboxUrl?: string;
  /** More health checks (the embedded sandbox's): each returns its problems, none when well. */
  healthChecks?: (() => string[])[];
  /** The sessions' clock (tests move it to expire sessions); default Date.now. */
  now?: () => number;
  /** What one user may keep in /api/me, and how often they may call it (tests make them small). */
  userRecordLimits?: Partial<UserRecordLimits>;
  /** QA suite runs' heartbeat and waits (tests make them short). */
  suiteRuns?: SuitesOptions['runs'];
  /** The suites' schedules' clock and looks (decision 057; tests tick them by hand). */
  suiteSchedules?: SuitesOptions['schedules'];
  /** The batch watcher's backoff, clock and idle look (decision 050; tests shorten them). */
  watcher?: WatchOptions['watcher'];
  /** E-mail and webhook deliveries' retry schedule and outbox look (tests shorten them). */
  deliveries?: Pick<DeliveriesOptions, 'retry' | 'pollMs'>;
  /** When the proxy holds new calls for the call journal to catch up (tests make it hold at once). */
  journalHold?: JournalOptions['hold'];
}

export const defaultDistDir = fileURLToPath(new URL('../../dist', import.meta.url));

/**
 * Defence in depth: the proxy never logs headers or the config, but should anyone add such a
 * line later, these paths are censored before they are written.
 */
const redactedPaths = [
  'apiKey',
  'apiSecret',
  '*.apiKey',
  '*.apiSecret',
  'connections[*].apiKey',
  'connections[*].apiSecret',
  '*.connections[*].apiKey',
  '*.connections[*].apiSecret',
  'clientSecret',
  '*.clientSecret',
  'metrics.token',
  '*.metrics.token',
  'req.headers["x-api-key"]',
  'req.headers["x-signature"]',
  'req.headers.authorization',
  'req.headers.cookie',
  'headers["x-api-key"]',
  'headers["x-signature"]',
  'headers.authorization',
  'headers.cookie',
  '*.headers["x-api-key"]',
  '*.headers["x-signature"]',
];

function formatBytes(bytes: number): string {
  return bytes >= 1024 * 1024
    ? `${Math.round((bytes / (1024 * 1024)) * 10) / 10} MB`
    : `${Math.round(bytes / 1024)} KB`;
}

/**
 * The portal server, not listening: security headers and the one error handler, then each part
 * that keeps something as a plugin (opened before anything that reads it), then each concern's
 * routes under the path it owns, then the built app for every other path.
 */
export function buildPortal(
  config: PortalConfig,
  options: BuildPortalOptions = {},
): FastifyInstance {
  const sandboxUrl = options.sandboxUrl ?? null;
  if (
    sandboxUrl === null &&
    config.connections.some(({ upstream }) => upstream.kind === 'sandbox')
  ) {
    throw new Error(
      'buildPortal: a connection is the embedded sandbox and no sandboxUrl was given; use startPortal, which starts the sandbox first.',
    );
  }
  const upstreams = new ConnectionUpstreams(config, sandboxUrl);

  const app = Fastify({
    // Behind a reverse proxy (TRUST_PROXY): the client's address and scheme from X-Forwarded-*.
    trustProxy: config.auth.trustProxy,
    logger: {
      level: config.logLevel,
      redact: { paths: redactedPaths, censor: '[redacted]' },
      ...(options.logStream ? { stream: options.logStream } : {}),
    },
    // No per-request "incoming"/"completed" lines: the proxy writes one line per VMS call.
    logController: new LogController({ disableRequestLogging: true }),
    bodyLimit: config.bodyLimitBytes,
    // Path parameters are the routes' schemas to judge (a record key has up to 200 characters,
    // each up to 9 bytes percent-encoded): the router's default of 100 answered a longer one with
    // a 414 of its own, outside the portal's error shape.
    routerOptions: { maxParamLength: 2000 },
    // A client that trickles its request (one byte every few seconds) must not hold a
    // connection forever; a silent connection is closed too, but only after the longest wait
    // for the VMS (config.ts checks that).
    requestTimeout: config.requestTimeoutMs,
    connectionTimeout: config.connectionTimeoutMs,
    http: {
      // Node swaps the two when the headers' limit is the longer one, which would give the body
      // its 60 s default instead of requestTimeout.
      headersTimeout: Math.min(60_000, config.requestTimeoutMs),
      // Node checks both on this interval (default 30 s, which would let a trickle live half a
      // minute past its limit).
      connectionsCheckingInterval: Math.min(1000, config.requestTimeoutMs),
    },
  });

  const distDir = options.distDir ?? defaultDistDir;
  const builtPages = readBuiltPages(distDir);
  registerPageHeaders(app, {
    contentSecurityPolicy: {
      // Explicit rather than helmet's defaults, which allow inline styles and would upgrade
      // requests to https on a plain-http LAN address.
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        // The one inline script, the page's display settings before its first paint, is allowed
        // by its hash, and nothing else.
        scriptSrc: ["'self'", ...(builtPages?.scriptSources ?? [])],
        styleSrc: ["'self'"],
        imgSrc: ["'self'", 'data:'],
        fontSrc: ["'self'"],
        connectSrc: ["'self'"],
        objectSrc: ["'none'"],
        baseUri: ["'self'"],
        formAction: ["'self'"],
        frameAncestors: ["'none'"],
      },
    },
    frameguard: { action: 'deny' },
    referrerPolicy: { policy: 'no-referrer' },
    // The portal speaks plain HTTP; HSTS belongs to whatever terminates TLS in front of it.
    strictTransportSecurity: false,
  });

  // Every API error is answered here, whichever hook or route threw it: the one place a 403
  // refusal (role, org, connection, CSRF) is recorded in the audit trail, once.
  app.setErrorHandler((error: FastifyError | ApiError | SchemaRefusal, request, reply) => {
    // A request part its route's schema refused carries the refusal to answer with.
    if (error instanceof SchemaRefusal || error instanceof ApiError) {
      const refusal = error instanceof SchemaRefusal ? error.refusal : error;
      app.auditTrail.refused(request, refusal);
      return sendError(reply, refusal.code, refusal.message, refusal.details);
    }
    if (error.code === 'FST_ERR_CTP_BODY_TOO_LARGE') {
      return sendError(
        reply,
        'body_too_large',
        `The request body is larger than the ${formatBytes(config.bodyLimitBytes)} the portal accepts (VMS_BODY_LIMIT_BYTES). Send fewer items at once.`,
      );
    }
    if (error.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE') {
      return sendError(
        reply,
        'unsupported_media_type',
        'Send the body as JSON, with the header Content-Type: application/json.',
      );
    }
    const status = error.statusCode ?? 500;
    if (status < 500) {
      return sendError(
        reply,
        'malformed_request',
        `The request could not be read: ${error.message}. Check it and send it again.`,
      );
    }
    request.log.error({ err: error }, 'unexpected error');
    return sendError(
      reply,
      'internal_error',
      `Something went wrong inside the portal server. Try again; if it keeps happening, tell the administrator request id ${request.id}.`,
    );
  });

  registerTraceContext(app);
  registerNoStore(app);

  // The parts, each a plugin that opens what it keeps before anything that uses it loads, in
  // the order of their declared dependencies: the port opens once all are open (decision 041),
  // and they close the other way round.
  const lifecycle = new PortalLifecycle();
  const health = new HealthReports();
  app.register(opsPlugin, { config, lifecycle, health });
  app.register(metricsPlugin, { config });
  // Options read when the plugin loads, after the metrics: every store a concern opens is timed.
  app.register(databasePlugin, (parent) => {
    const metrics = parent.portalMetrics;
    return {
      config,
      migrations: portalMigrations,
      ...(metrics
        ? {
            wrap: storeTimer(metrics),
            onPool: (pool: () => { total: number; idle: number; waiting: number }) =>
              metrics.setSources({ pool }),
          }
        : {}),
    };
  });
  app.register(proxyStorePlugin);
  app.register(auditPlugin, { config, ...(options.now ? { now: options.now } : {}) });
  app.register(accountsPlugin, { config, ...(options.now ? { now: options.now } : {}) });
  app.register(apiTokensPlugin);
  app.register(journalPlugin, {
    config,
    ...(options.journalHold ? { hold: options.journalHold } : {}),
  });
  app.register(suitesPlugin, {
    config,
    ...(options.suiteRuns ? { runs: options.suiteRuns } : {}),
    ...(options.suiteSchedules ? { schedules: options.suiteSchedules } : {}),
  });
  app.register(notificationsPlugin, options.now ? { now: options.now } : {});
  // After the notifications (its channels join their notifier) and before the watch, which tells.
  app.register(deliveriesPlugin, { config, ...options.deliveries });
  app.register(watchPlugin, { config, ...(options.watcher ? { watcher: options.watcher } : {}) });

  // The routes, by the folder that owns their path.
  const configBody = browserConfig(config);
  app.register(configRoutes, { prefix: '/api', body: configBody });
  app.register(healthRoutes, { prefix: '/api/health', checks: options.healthChecks ?? [] });
  app.register(vmsProxy, {
    prefix: '/api/vms',
    config,
    upstreams,
    onDatabaseHealth: (problem) => health.report('database', problem),
    lifecycle,
  });
  app.register(journalRoutes, { prefix: '/api/journal', config, upstreams });
  app.register(sentAfterBackupRoutes, { prefix: '/api/sent-after-backup', config });
  app.register(sessionRoutes, { prefix: '/api', config });
  app.register(userRoutes, { prefix: '/api/users', config });
  app.register(userRecordRoutes, {
    prefix: '/api/me',
    config,
    ...(options.userRecordLimits ? { limits: options.userRecordLimits } : {}),
  });
  app.register(ssoRoutes, { prefix: '/api/auth/oidc', config });
  app.register(connectionRoutes, { prefix: '/api/connections', config, sandboxUrl });
  app.register(auditRoutes, { prefix: '/api/audit', config });
  app.register(apiTokenRoutes, { prefix: '/api/tokens', config });
  app.register(suiteRoutes, { config });
  app.register(watchRoutes, { prefix: '/api/watches', config });
  app.register(deliveryRoutes, { prefix: '/api/admin', config });
  app.register(privacyRoutes, {
    prefix: '/api/admin',
    config,
    ...(options.now ? { now: options.now } : {}),
  });
  app.register(mailPreferenceRoutes, { prefix: '/api/me/email-notifications', config });
  app.register(unsubscribeRoutes, { prefix: '/unsubscribe' });
  app.register(notificationRoutes, {
    prefix: '/api/notifications',
    config,
    ...(options.now ? { now: options.now } : {}),
  });

  // The page the server sends before the app runs (decision 040): with sign-in on, the app's
  // frame only to a request with a session, and "Checking who is signed in…" to any other.
  const sandboxFor = (granted: readonly string[] | null) => {
    const name = settledConnection(
      configBody.connections.map((connection) => connection.name),
      configBody.defaultConnection,
      granted,
      null,
    );
    return name !== null && settingsForConnection(configBody, name).upstream.kind === 'sandbox';
  };
  serveSpa(app, distDir, builtPages, configBody, async (request, reply) => {
    if (!config.auth.required) return { kind: 'app', role: 'admin', sandbox: sandboxFor(null) };
    try {
      const { session } = await app.accounts.resolve(request, reply, false);
      if (!session) return { kind: 'session' };
      return {
        kind: 'app',
        role: session.user.role,
        sandbox: sandboxFor(session.user.connections),
      };
    } catch {
      // The database cannot say: the page that shows nothing of anyone's.
      return { kind: 'session' };
    }
  });

  return app;
}
