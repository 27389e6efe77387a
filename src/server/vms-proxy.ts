import rateLimit from '@fastify/rate-limit';
import replyFrom from '@fastify/reply-from';
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import type { IncomingHttpHeaders } from 'node:http';
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

function errorOutcome(error: PortalError): CallOutcome {
  return {
    status: error.statusCode,
    headers: { 'content-type': 'application/json; charset=utf-8' },
    body: Buffer.from(JSON.stringify(apiErrorBody(error.code, error.message, error.details))),
  };
}

/**
 * reply-from's types call the upstream response a ServerResponse; at run time it is undici's
 * `{ statusCode, headers, stream }`, so the headers are read defensively.
 */
function pickHeaders(res: object): Record<string, string> {
  const headers: unknown = Reflect.get(res, 'headers');
  const picked: Record<string, string> = {};
  if (typeof headers !== 'object' || headers === null) return picked;
  for (const name of forwardedResponseHeaders) {
    const value: unknown = Reflect.get(headers, name);
    if (typeof value === 'string') picked[name] = value;
  }
  return picked;
}

async function readBody(stream: AsyncIterable<Buffer | string>): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream)
    chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk));
  return Buffer.concat(chunks);
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
  const idempotency = new IdempotencyStore();

  await app.register(replyFrom, {
    base: upstreamUrl,
    // Our own line per call replaces its "fetching"/"response received" lines.
    disableRequestLogging: true,
    // A VMS answer, 503 included, goes back to the browser as it came; never re-sent behind its back.
    retryMethods: [],
    destroyAgent: true,
    undici: {
      connections: 128,
      pipelining: 1,
      connectTimeout: Math.min(config.timeoutMs, 10_000),
    },
  });

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

  function forward(
    request: ProxyRequest,
    reply: FastifyReply,
    operation: VmsOperation,
    body: Buffer | undefined,
  ): Promise<{ outcome: CallOutcome; upstreamStatus: number | null }> {
    return new Promise((resolve) => {
      let settled = false;
      const finish = (outcome: CallOutcome, upstreamStatus: number | null) => {
        if (settled) return;
        settled = true;
        resolve({ outcome, upstreamStatus });
      };
      const fail = (error: unknown) =>
        finish(
          errorOutcome(
            upstreamFailure(error, {
              host: upstreamHost,
              timeoutMs: config.timeoutMs,
              method: request.method,
            }),
          ),
          null,
        );
      // reply-from drops the upstream answer when the browser went away before its request was
      // fully read (the `aborted` flag); without this the call would never settle. A POST body
      // is read in full first, so a batch's answer is still recorded for its retry.
      reply.raw.once('close', () => {
        // `aborted` is deprecated in Node, but it is the very flag reply-from checks.
        if (request.raw.aborted) finish(clientClosed, null);
      });

      reply.from(operation, {
        timeout: config.timeoutMs,
        ...(body ? { body, contentType: 'application/json' } : {}),
        // Built from nothing rather than filtered: no browser header (x-api-key, x-signature,
        // authorization, cookie, hop-by-hop, anything else) can reach the VMS.
        rewriteRequestHeaders: (_request, headers) => {
          const outgoing: IncomingHttpHeaders = {
            host: headers.host,
            accept: 'application/json',
            ...signatureHeaders(config.apiKey, config.apiSecret),
          };
          if (body) {
            outgoing['content-type'] = 'application/json';
            outgoing['content-length'] = String(body.length);
          }
          return outgoing;
        },
        // The answer is buffered and sent by the handler, which also remembers it for retries.
        rewriteHeaders: () => ({}),
        onResponse: (_request, _reply, res) => {
          readBody(res.stream).then(
            (bytes) =>
              finish(
                { status: res.statusCode, headers: pickHeaders(res), body: bytes },
                res.statusCode,
              ),
            fail,
          );
        },
        onError: (_reply, { error }) => fail(error),
      });
    });
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
      ({ outcome, upstreamStatus } = await forward(request, reply, operation, body));
    } else {
      const claim = idempotency.claim(key, callFingerprint(request.method, request.url, body));
      if (claim.kind === 'repeat') {
        outcome = await claim.outcome;
        replayed = true;
      } else {
        ({ outcome, upstreamStatus } = await forward(request, reply, operation, body));
        claim.settle(outcome);
      }
    }

    // One line per forwarded call, through the plugin's logger: the route itself logs at
    // error level only, which silences reply-from's own per-failure warning (this line has it).
    app.log.info(
      {
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
      },
      'vms call',
    );

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

/** Logged, never sent: nobody is left to receive it (499 as nginx logs it). */
const clientClosed: CallOutcome = { status: 499, headers: {}, body: Buffer.alloc(0) };
