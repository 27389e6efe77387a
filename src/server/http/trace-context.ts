import { AsyncLocalStorage } from 'node:async_hooks';
import { randomFillSync } from 'node:crypto';
import type { FastifyInstance } from 'fastify';

/**
 * A request's place in a W3C Trace Context trace (https://www.w3.org/TR/trace-context/): the trace
 * it belongs to, and the portal's own span within it, which is the parent of the VMS calls it makes.
 */
export interface TraceContext {
  /** 32 lowercase hex digits: the caller's trace, or a new one. */
  traceId: string;
  /** 16 lowercase hex digits: the portal's span, new for each request. */
  spanId: string;
  /** The trace flags, passed on as they came (`01`: sampled); `00` for a trace the portal began. */
  flags: string;
  /** The header to send on: the same trace, the portal's span as its parent. */
  traceparent: string;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** Set for every request by the trace hook (registerTraceContext). */
    traceContext: TraceContext | null;
  }
}

/**
 * Random bytes for ids, drawn from the system's generator 4 KB at a time: one call per request
 * cost ~1.5 µs, most of what a trace context costs, on every /api request.
 */
const pool = Buffer.alloc(4096);
let used = pool.length;
function randomHex(bytes: number): string {
  if (used + bytes > pool.length) {
    randomFillSync(pool);
    used = 0;
  }
  used += bytes;
  return pool.toString('hex', used - bytes, used);
}

const traceparentPattern = /^([0-9a-f]{2})-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})(-.*)?$/;
const zeros = /^0+$/;

/**
 * The trace of an incoming `traceparent`, when it is valid: version `ff`, an all-zero trace or
 * parent id, or a version-00 header with anything after its four fields make it invalid, and the
 * portal then begins a trace of its own, as the specification asks.
 */
export function traceContextOf(header: unknown): TraceContext {
  const match = typeof header === 'string' ? traceparentPattern.exec(header.trim()) : null;
  const [, version = '', traceId = '', parentId = '', flags = '', rest] = match ?? [];
  const valid =
    match !== null &&
    version !== 'ff' &&
    !(version === '00' && rest !== undefined) &&
    !zeros.test(traceId) &&
    !zeros.test(parentId);
  const random = randomHex(valid ? 8 : 24);
  const spanId = random.slice(0, 16);
  const trace = valid ? traceId : random.slice(16);
  // Only the sampled bit is defined; others are passed on cleared, as version 00 asks.
  const outgoingFlags = valid ? ((Number.parseInt(flags, 16) & 1) === 1 ? '01' : '00') : '00';
  return {
    traceId: trace,
    spanId,
    flags: outgoingFlags,
    traceparent: `00-${trace}-${spanId}-${outgoingFlags}`,
  };
}

/**
 * Every /api request gets its trace: the caller's, when it sent a valid `traceparent`, else a new
 * one. The proxy passes it to the VMS; the audit trail and the proxy's log line record its id, so
 * one send can be followed from the browser through the portal into the VMS's own logs.
 */
export function registerTraceContext(app: FastifyInstance): void {
  app.decorateRequest('traceContext', null);
  app.addHook('onRequest', (request, _reply, done) => {
    if ((request.raw.url ?? '').startsWith('/api/')) {
      request.traceContext = traceContextOf(request.headers.traceparent);
    }
    done();
  });
}

/**
 * The trace of the proxied call being handled, for the code that builds the VMS request deep
 * inside it: the proxy runs each call in it (vms-proxy.ts), so no function between has to pass it.
 */
export const traceScope = new AsyncLocalStorage<TraceContext | null>();
