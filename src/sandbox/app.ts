import Fastify from 'fastify';
import type { FastifyInstance } from 'fastify';
import type { DateFormat } from '@/domain';
import type { VmsProfile } from '@/domain/vms-profile';
import { registerAuthentication } from './auth';
import { bodyLimitBytes, registerErrorHandling } from './errors';
import { parseJsonBody } from './json-body';
import type { ReferenceData } from './reference';
import { registerBatchRoutes } from './routes-batches';
import { registerReferenceRoutes } from './routes-reference';
import { registerRequisitionRoutes } from './routes-requisitions';
import { profileUrlRewrite, registerProfileAnswers } from './speak-profile';
import type { SandboxStore } from './store';
import type { BatchWorker } from './worker';

export interface SandboxAppOptions {
  reference: ReferenceData;
  store: SandboxStore;
  worker: BatchWorker;
  dateFormat: DateFormat;
  maxBatch: number;
  now: () => Date;
  logger: boolean;
  requestTimeoutMs: number;
  /** How it answers: paths, fields, status words, paging, dates, errors (default: its own). */
  profile: VmsProfile;
}

export function buildSandboxApp(options: SandboxAppOptions): FastifyInstance {
  const app = Fastify({
    // Failures are always logged (to stderr at least), since the error bodies point to the log.
    logger: options.logger ? true : { level: 'error' },
    bodyLimit: bodyLimitBytes,
    // A trickling client must not hold a connection forever (see the portal's app.ts).
    requestTimeout: options.requestTimeoutMs,
    connectionTimeout: Math.max(120_000, options.requestTimeoutMs),
    http: {
      headersTimeout: Math.min(60_000, options.requestTimeoutMs),
      connectionsCheckingInterval: Math.min(1000, options.requestTimeoutMs),
    },
    ...profileUrlRewrite(options.profile),
  });
  // Fastify reads text/plain bodies as strings by default; the interface takes JSON only, so a
  // body sent without Content-Type: application/json is refused rather than half-understood.
  app.removeContentTypeParser('text/plain');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, body, done) => {
    try {
      done(null, parseJsonBody(typeof body === 'string' ? body : body.toString('utf8')));
    } catch (error) {
      done(error instanceof Error ? error : new Error(String(error)), undefined);
    }
  });
  registerErrorHandling(app);
  // Every answer's Date header from the sandbox's own clock (which may be skewed on purpose), as
  // a real VMS's comes from its clock: a client compares the two to see whether its signatures'
  // timestamps will be accepted.
  app.addHook('onSend', async (_request, reply, payload) => {
    reply.header('date', options.now().toUTCString());
    return payload;
  });
  registerProfileAnswers(
    app,
    options.profile,
    (clientOrgId) => options.store.listRequisitions(clientOrgId).length,
  );
  registerAuthentication(app, options.reference, options.now, options.profile.signature);
  registerBatchRoutes(app, options);
  registerRequisitionRoutes(app, options);
  registerReferenceRoutes(app, options.reference);
  app.get('/_sandbox/health', async () => {
    const reasons = options.worker.health();
    return reasons.length === 0 ? { status: 'ok' } : { status: 'degraded', reasons };
  });
  return app;
}
