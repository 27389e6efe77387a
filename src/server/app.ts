import { ApiError } from '../domain/api-error';
import Fastify, { LogController, type FastifyError, type FastifyInstance } from 'fastify';
import { fileURLToPath } from 'node:url';
import type { DestinationStream } from 'pino';
import { portalConfigSchema } from '../domain/portal-config';
import { connectionUpstreamLabel, upstreamLabel, type PortalConfig } from './config';
import { ConnectionUpstreams } from './proxy/connection-upstreams';
import { registerNoStore } from './api-guards';
import { sendError } from './portal-error';
import { serveSpa } from './spa';
import { openCallJournal } from './journal/open-journal';
import { journalReadyBacklog, type CallJournal } from './journal/call-journal';
import { PortalLifecycle, type DrainReport } from './drain';
import { portalSchemaVersion } from './store/migrations';
import { withDeadline } from './proxy/upstream-answer';
import { journalRoutes } from './journal/journal-routes';
import { openPortalStores, type PortalStores } from './store/portal-stores';
import { vmsProxy } from './proxy/vms-proxy';
import { registerSessionHooks } from './auth/auth-hooks';
import { PortalAuth } from './auth/portal-auth';
import { sessionRoutes } from './auth/session-routes';
import { ssoRoutes } from './auth/sso-routes';
import { userRecordRoutes, type UserRecordLimits } from './auth/user-record-routes';
import { userRoutes } from './auth/user-routes';
import { connectionRoutes } from './doctor/connection-routes';
import { PortalMetrics } from './metrics/portal-metrics';
import { instrumentStores } from './metrics/instrument-stores';
import { registerMetrics } from './metrics/metrics-routes';
import { AuditTrail } from './audit/audit-trail';
import { auditRoutes } from './audit/audit-routes';
import { registerTraceContext } from './trace-context';
import { registerPageHeaders } from './security-headers';

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
}

declare module 'fastify' {
  interface FastifyInstance {
    /**
     * Drains and closes the portal (SIGTERM, SIGINT): new sends are refused with 503 `draining`
     * and readiness says 503; calls at the VMS get up to PORTAL_DRAIN_TIMEOUT_MS to finish, then
     * the keys of those still waiting become unknown; the journal is written, the database
     * closed. Calling it again returns the same drain.
     */
    drainPortal(): Promise<DrainReport>;
    /** The audit trail (decision 036): the proxy records each send in it. */
    auditTrail: AuditTrail;
  }
}

/**
 * How long readiness waits for the database to answer: a probe must answer well within a
 * load balancer's own timeout (commonly 1 to 5 s), and a database that takes longer is not one
 * to route sends to.
 */
const readyDatabaseWaitMs = 2000;

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
 * What /api/health says of the portal database: which kind, its schema version, and whether it
 * answers a read now (a failed write shows through the stores' own health reports).
 */
async function databaseHealth(
  opening: Promise<PortalStores>,
  kind: PortalStores['kind'],
): Promise<{
  database: { kind: PortalStores['kind']; schemaVersion: number | null };
  problem: string | null;
}> {
  try {
    const version = await (await opening).schemaVersion();
    return { database: { kind, schemaVersion: version }, problem: null };
  } catch (error) {
    return {
      database: { kind, schemaVersion: null },
      problem: `the portal database cannot be read: ${error instanceof Error ? error.message.slice(0, 200) : 'unknown error'}`,
    };
  }
}

/** The portal server: security headers, /api/config, /api/health, the signing proxy, the SPA. */
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

  registerPageHeaders(app, {
    contentSecurityPolicy: {
      // Explicit rather than helmet's defaults, which allow inline styles and would upgrade
      // requests to https on a plain-http LAN address.
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
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
  app.setErrorHandler((error: FastifyError | ApiError, request, reply) => {
    if (error instanceof ApiError) {
      auditTrail.refused(request, error);
      return sendError(reply, error.code, error.message, error.details);
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

  const configBody = portalConfigSchema.parse({
    authRequired: config.auth.required,
    clientOrgIds: config.clientOrgIds,
    clientOrgNames: config.clientOrgNames,
    vendorOrgId: config.vendorOrgId,
    dateFormat: config.dateFormat,
    maxBatch: config.maxBatch,
    timeoutMs: config.timeoutMs,
    upstream: upstreamLabel(config),
    // Picked field by field, so a key, a secret or an address can never come along.
    connections: config.connections.map((connection) => ({
      name: connection.name,
      label: connection.label,
      production: connection.production,
      kind: connection.upstream.kind,
      clientOrgIds: connection.clientOrgIds,
      clientOrgNames: connection.clientOrgNames,
      vendorOrgId: connection.vendorOrgId,
      dateFormat: connection.dateFormat,
      maxBatch: connection.maxBatch,
      timeoutMs: connection.timeoutMs,
      upstream: connectionUpstreamLabel(connection),
    })),
    defaultConnection: config.defaultConnection,
  });
  app.get('/api/config', async () => configBody);
  // Counted only where they are served (METRICS_PORT or METRICS_TOKEN); else nothing is counted.
  const metrics =
    config.metrics.port !== null || config.metrics.token !== null
      ? new PortalMetrics({ defaultConnection: config.defaultConnection })
      : null;
  // Opened once; the proxy awaits it when it registers (and closes it). The catch only keeps an
  // early failure from counting as unhandled before then: listen() still fails with it. With
  // metrics, every store call is timed.
  const openedStores = openPortalStores(config);
  const database = metrics
    ? openedStores.then((stores) => instrumentStores(stores, metrics))
    : openedStores;
  database.catch(() => {});
  let databaseProblem: string | null = null;
  let journalProblem: string | null = null;
  // Null when JOURNAL=off; the proxy records into it and closes it, the journal's API reads it.
  const journal = openCallJournal(database, config, app.log, (problem) => {
    journalProblem = problem;
  });
  journal.catch(() => {});
  // For readiness, which must not wait on the journal opening.
  let openedJournal: CallJournal | null = null;
  journal.then(
    (opened) => (openedJournal = opened),
    () => {},
  );
  const lifecycle = new PortalLifecycle();
  // Made at once, writing once the database is open: refusals can come before it is.
  const auditStore = database.then((opened) => opened.audit);
  const auditTrail = new AuditTrail({
    store: auditStore,
    settings: config.audit,
    log: app.log,
    ...(options.now ? { now: options.now } : {}),
  });
  app.decorate('auditTrail', auditTrail);
  registerTraceContext(app);
  // Sessions, users and per-user records on the same database (decision 026).
  const auth = database.then((opened) =>
    PortalAuth.open({
      config,
      database: opened,
      log: app.log,
      ...(options.now ? { now: options.now } : {}),
      onAudit: (event, fields, request) => {
        metrics?.audit(event, fields);
        auditTrail.auth(event, fields, request);
      },
    }),
  );
  auth.catch(() => {});
  app.addHook('onClose', async () => {
    (await auth.catch(() => null))?.close();
  });
  registerMetrics(app, metrics, {
    settings: config.metrics,
    host: config.host,
    database: openedStores,
    journal,
  });
  registerSessionHooks(app, config, auth);
  registerNoStore(app);
  // While draining, each answer ends its connection: a browser's next call opens a new one, which
  // the load balancer sends to a process that is ready, and close() is not left waiting for
  // keep-alive connections that became idle after it had closed the idle ones.
  app.addHook('onSend', (_request, reply, payload, done) => {
    if (lifecycle.draining) reply.header('connection', 'close');
    done(null, payload);
  });

  const healthChecks = options.healthChecks ?? [];
  app.get('/api/health', async () => {
    const { database: store, problem: unreadable } = await databaseHealth(
      database,
      config.databaseUrl === null ? 'sqlite' : 'postgres',
    );
    const reasons = [
      ...(unreadable === null ? [] : [unreadable]),
      ...(databaseProblem === null ? [] : [databaseProblem]),
      ...(journalProblem === null ? [] : [journalProblem]),
      ...healthChecks.flatMap((check) => check()),
    ];
    return reasons.length === 0
      ? { status: 'ok', database: store }
      : { status: 'degraded', database: store, reasons };
  });

  // Liveness: the process answers. Nothing else is asked of it (no database, no journal), so a
  // database outage or a drain never makes an orchestrator kill a process that could recover or
  // is finishing its calls.
  app.get('/api/health/live', async () => ({ status: 'ok' }));

  // Readiness: whether a load balancer should send calls here now. Only conditions read afresh
  // on each probe count: a past write failure (which /api/health reports) would keep a process
  // out of rotation forever, since without calls no write could show that it works again.
  const databaseKind: PortalStores['kind'] = config.databaseUrl === null ? 'sqlite' : 'postgres';
  app.get('/api/health/ready', async (_request, reply) => {
    const reasons: string[] = [];
    if (lifecycle.draining) {
      reasons.push('draining: this portal process is shutting down and takes no new sends');
    }
    const { database: store, problem } = await withDeadline(
      databaseHealth(database, databaseKind),
      readyDatabaseWaitMs,
      () => ({
        database: { kind: databaseKind, schemaVersion: null },
        problem: `the portal database did not answer within ${readyDatabaseWaitMs} ms`,
      }),
    );
    if (problem !== null) {
      reasons.push(problem);
    } else if (store.schemaVersion !== portalSchemaVersion) {
      reasons.push(
        `the portal database's schema is version ${store.schemaVersion}, but this portal works with version ${portalSchemaVersion}`,
      );
    }
    const backlog = openedJournal?.backlog ?? 0;
    if (backlog >= journalReadyBacklog) {
      reasons.push(
        `call journal: ${backlog} calls wait to be written (ready below ${journalReadyBacklog})`,
      );
    }
    if (reasons.length > 0) reply.code(503);
    return reasons.length === 0
      ? { status: 'ok', database: store }
      : { status: lifecycle.draining ? 'draining' : 'unavailable', database: store, reasons };
  });

  let draining: Promise<DrainReport> | null = null;
  app.decorate('drainPortal', () => {
    draining ??= drain();
    return draining;
  });
  async function drain(): Promise<DrainReport> {
    const started = performance.now();
    lifecycle.draining = true;
    const writtenBefore = openedJournal?.written ?? 0;
    app.log.info(
      {
        event: 'drain_start',
        callsInFlight: lifecycle.proxy?.inFlight() ?? 0,
        journalQueued: openedJournal?.backlog ?? 0,
        timeoutMs: config.drainTimeoutMs,
      },
      'drain started',
    );
    const settled = (await lifecycle.proxy?.settle(config.drainTimeoutMs)) ?? {
      finished: 0,
      markedUnknown: 0,
      timedOut: false,
    };
    // The proxy's onClose writes the journal's queue and closes the database after the calls.
    await app.close();
    const report: DrainReport = {
      callsFinished: settled.finished,
      keysMarkedUnknown: settled.markedUnknown,
      journalFlushed: (openedJournal?.written ?? 0) - writtenBefore,
      timedOut: settled.timedOut,
      durationMs: Math.round(performance.now() - started),
    };
    app.log.info({ event: 'drain_end', ...report }, 'drain finished');
    return report;
  }

  app.register(vmsProxy, {
    prefix: '/api/vms',
    config,
    upstreams,
    database,
    onDatabaseHealth: (problem) => {
      databaseProblem = problem;
    },
    journal,
    lifecycle,
  });
  app.register(journalRoutes, {
    prefix: '/api/journal',
    config,
    journal,
    upstreams,
  });
  app.register(sessionRoutes, { prefix: '/api', config, auth });
  app.register(userRoutes, { prefix: '/api/users', config, auth });
  app.register(userRecordRoutes, {
    prefix: '/api/me',
    config,
    auth,
    ...(options.userRecordLimits ? { limits: options.userRecordLimits } : {}),
  });
  app.register(ssoRoutes, { prefix: '/api/auth/oidc', config, auth });
  app.register(connectionRoutes, {
    prefix: '/api/connections',
    config,
    sandboxUrl,
  });

  // After the proxy: its queue is written before the proxy closes the database (audit-routes.ts).
  app.register(auditRoutes, { prefix: '/api/audit', config, trail: auditTrail, store: auditStore });

  serveSpa(app, options.distDir ?? defaultDistDir, configBody);

  return app;
}
