import rateLimit from '@fastify/rate-limit';
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import type { IncomingHttpHeaders } from 'node:http';
import { Pool } from 'undici';
import { apiErrorBody } from '../domain/api-error';
import { checkBatchBody } from './batch-body';
import { isLoopbackHost, type PortalConfig } from './config';
import {
  IdempotencyStore,
  callFingerprint,
  parseIdempotencyKey,
  type CallOutcome,
} from './idempotency';
import { PortalError } from './portal-error';
import { signatureHeaders } from './signature';
import { upstreamFailure } from './upstream-failure';
import {
  checkOrgScope,
  describeOperations,
  vmsOperations,
  type Query,
  type VmsOperation,
} from './vms-operations';

export interface VmsProxyOptions {
  config: PortalConfig;
  /** Where operations are sent: VMS_BASE_URL, or the embedded sandbox; ends in `/`. */
  upstreamUrl: string;
}

interface ProxyRoute {
  Querystring: Query;
}
type ProxyRequest = FastifyRequest<ProxyRoute>;

/** Upstream response headers the browser gets; anything else (set-cookie, server…) stays behind. */
const forwardedResponseHeaders = ['content-type', 'retry-after'] as const;

/**
 * Security headers for every /api/vms answer (OWASP REST Security Cheat Sheet): nothing in it
 * may run, be framed or be read by another origin, even if the VMS sent HTML.
 */
const apiResponseHeaders = {
  'content-security-policy': "default-src 'none'; frame-ancestors 'none'",
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'referrer-policy': 'no-referrer',
  'cross-origin-resource-policy': 'same-origin',
};

/** Tells the browser and QA that an answer is a remembered one, not a new send. */
export const REPLAYED_HEADER = 'idempotent-replayed';

/**
 * The one line per forwarded call, and everything in it: numbers, flags, the operation's name and
 * the Idempotency-Key (a token checked against a strict pattern). Nothing here can hold a secret,
 * so it is written by a logger without the app's redaction, which would cost ~10 µs per line
 * (a walk and copy of the object for 14 censored paths; 3 µs without) on every call.
 */
interface CallLine {
  reqId: string;
  operation: VmsOperation;
  clientOrgId: number;
  vendorOrgId: number;
  itemCount: number | null;
  status: number;
  upstreamStatus: number | null;
  durationMs: number;
  replayed: boolean;
  idempotencyKey?: string;
}

function errorOutcome(error: PortalError): CallOutcome {
  return {
    status: error.statusCode,
    headers: { 'content-type': 'application/json; charset=utf-8' },
    body: Buffer.from(JSON.stringify(apiErrorBody(error.code, error.message, error.details))),
  };
}

/** The upstream answer's headers as undici gives them: lower-case names. */
function pickHeaders(headers: IncomingHttpHeaders): Record<string, string> {
  const picked: Record<string, string> = {};
  for (const name of forwardedResponseHeaders) {
    const value = headers[name];
    if (typeof value === 'string') picked[name] = value;
  }
  return picked;
}

async function readBody(stream: AsyncIterable<Buffer>): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let length = 0;
  for await (const chunk of stream) {
    chunks.push(chunk);
    length += chunk.length;
  }
  return chunks.length === 1 && chunks[0] ? chunks[0] : Buffer.concat(chunks, length);
}

/**
 * The signing proxy under /api/vms (issue 3; decisions.md, "Authentication and who may act for
 * whom"). Forwards exactly the five operations, after checking the orgs and the batch shape,
 * signs each call afresh, and answers with the upstream's status and body unchanged. Everything
 * else under /api/vms is a 404 that never leaves the machine.
 */
export const vmsProxy: FastifyPluginAsync<VmsProxyOptions> = async (
  app,
  { config, upstreamUrl },
) => {
  const upstreamHost = new URL(upstreamUrl).host;
  // Made once, not per request; see CallLine for why it has no redaction.
  const callLog = app.log.child({}, { redact: [] });
  const idempotency = new IdempotencyStore();

  // undici straight, not @fastify/reply-from: the proxy buffers the answer anyway (it is
  // remembered for retries), so reply-from's streaming, header rewriting and URL cache were pure
  // overhead — about a fifth of the proxy's CPU per call in bench/proxy.ts.
  const upstream = new URL(upstreamUrl);
  const basePath = upstream.pathname;
  const pool = new Pool(upstream.origin, {
    connections: 128,
    // No HTTP pipelining to the VMS: pipelining non-idempotent POSTs is discouraged
    // (RFC 9112 §9.3.2), and one slow batch would hold up the calls queued behind it.
    pipelining: 1,
    connect: { timeout: Math.min(config.timeoutMs, 10_000) },
    headersTimeout: config.timeoutMs,
    bodyTimeout: config.timeoutMs,
  });
  app.addHook('onClose', () => pool.destroy());

  // Two checks on every call, in one hook. The proxy's answers are data, never pages: they get
  // the strictest headers there are, set here instead of through @fastify/helmet, which rebuilds
  // its middleware on every request (a measurable share of the proxy's CPU time in
  // bench/proxy.ts); the routes opt out of it. And a DNS rebinding defence: a page on another
  // site can make its own host name resolve to 127.0.0.1 and then call us "same-origin", so a
  // loopback-only portal answers loopback names only. Registered first so even a 429 has both.
  const loopbackOnly = isLoopbackHost(config.host);
  app.addHook('onRequest', (request, reply, done) => {
    reply.headers(apiResponseHeaders);
    if (loopbackOnly && !isLoopbackHost(request.hostname)) {
      done(
        new PortalError(
          'host_not_allowed',
          `This portal only answers requests addressed to this machine (localhost or 127.0.0.1), not "${request.hostname}". Open the portal at its local address.`,
        ),
      );
      return;
    }
    done();
  });

  if (config.rateLimitPerMinute > 0) {
    await app.register(rateLimit, {
      max: config.rateLimitPerMinute,
      timeWindow: 60_000,
      // The x-ratelimit-* headers go on the 429 only: the browser has no use for them on every
      // answer, and leaving them off saves work on each call.
      addHeadersOnExceeding: {
        'x-ratelimit-limit': false,
        'x-ratelimit-remaining': false,
        'x-ratelimit-reset': false,
      },
      errorResponseBuilder: (_request, context) =>
        new PortalError(
          'rate_limited',
          `Too many requests: this portal forwards at most ${context.max} per minute from one address (PORTAL_RATE_LIMIT_PER_MINUTE). Wait ${context.after} and try again.`,
        ),
    });
  }

  // Keep the raw bytes: the VMS receives exactly what the browser sent. Only JSON is accepted,
  // which also means a cross-site page cannot post here without a CORS preflight we never grant.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser(
    'application/json',
    { parseAs: 'buffer', bodyLimit: config.bodyLimitBytes },
    (_request, body, done) => done(null, body),
  );

  /**
   * One signed call to the VMS. The answer is read in full whatever happens to the browser's
   * connection meanwhile, so a batch's answer is still recorded for its retry. A VMS answer, 503
   * included, goes back as it came: never re-sent behind the user's back.
   */
  async function forward(
    request: ProxyRequest,
    operation: VmsOperation,
    body: Buffer | undefined,
  ): Promise<{ outcome: CallOutcome; upstreamStatus: number | null }> {
    // Built from nothing rather than filtered: no browser header (x-api-key, x-signature,
    // authorization, cookie, hop-by-hop, anything else) can reach the VMS. undici adds `host`.
    const headers: IncomingHttpHeaders = {
      accept: 'application/json',
      ...signatureHeaders(config.apiKey, config.apiSecret),
    };
    if (body) headers['content-type'] = 'application/json';
    // The route fixes the path; the query goes upstream verbatim.
    const url = request.raw.url ?? '';
    const queryAt = url.indexOf('?');
    try {
      const answer = await pool.request({
        method: request.method === 'POST' ? 'POST' : 'GET',
        path: basePath + operation + (queryAt >= 0 ? url.slice(queryAt) : ''),
        headers,
        body: body ?? null,
      });
      const bytes = await readBody(answer.body);
      return {
        outcome: { status: answer.statusCode, headers: pickHeaders(answer.headers), body: bytes },
        upstreamStatus: answer.statusCode,
      };
    } catch (error) {
      const failure = upstreamFailure(error, {
        host: upstreamHost,
        timeoutMs: config.timeoutMs,
        method: request.method,
      });
      return { outcome: errorOutcome(failure), upstreamStatus: null };
    }
  }

  async function handle(request: ProxyRequest, reply: FastifyReply, operation: VmsOperation) {
    const started = performance.now();
    const orgs = checkOrgScope(request.query, config);
    const body = Buffer.isBuffer(request.body) ? request.body : undefined;
    const itemCount = request.method === 'POST' ? checkBatchBody(body, config.maxBatch) : null;
    const key =
      request.method === 'POST'
        ? parseIdempotencyKey(request.headers['idempotency-key'])
        : undefined;

    let outcome: CallOutcome;
    let upstreamStatus: number | null = null;
    let replayed = false;
    if (key === undefined) {
      ({ outcome, upstreamStatus } = await forward(request, operation, body));
    } else {
      const claim = idempotency.claim(key, callFingerprint(request.method, request.url, body));
      if (claim.kind === 'repeat') {
        outcome = await claim.outcome;
        replayed = true;
      } else {
        ({ outcome, upstreamStatus } = await forward(request, operation, body));
        claim.settle(outcome);
      }
    }

    // One line per forwarded call.
    const line: CallLine = {
      reqId: request.id,
      operation,
      clientOrgId: orgs.clientOrgId,
      vendorOrgId: orgs.vendorOrgId,
      itemCount,
      status: outcome.status,
      upstreamStatus,
      durationMs: Math.round((performance.now() - started) * 10) / 10,
      replayed,
      ...(key === undefined ? {} : { idempotencyKey: key }),
    };
    callLog.info(line, 'vms call');

    reply.code(outcome.status).headers(outcome.headers);
    if (replayed) reply.header(REPLAYED_HEADER, 'true');
    return reply.send(outcome.body);
  }

  for (const { name, method } of vmsOperations) {
    app.route<ProxyRoute>({
      method,
      url: `/${name}`,
      // HEAD would be a sixth operation; the VMS documents none.
      exposeHeadRoute: false,
      logLevel: 'error',
      helmet: false,
      handler: (request, reply) => handle(request, reply, name),
    });
  }

  app.all('/*', { helmet: false }, async (request) => {
    throw new PortalError(
      'not_found',
      `The portal does not forward ${request.method} ${request.url.split('?')[0]}. It forwards only ${describeOperations()}.`,
    );
  });
};
