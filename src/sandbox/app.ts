import Fastify from 'fastify';
import type { FastifyInstance } from 'fastify';
import { registerAuthentication } from './auth';
import type { DateFormat } from '../domain';
import { bodyLimitBytes, registerErrorHandling } from './errors';
import type { ReferenceData } from './reference';
import { registerBatchRoutes } from './routes-batches';
import { registerReferenceRoutes } from './routes-reference';
import { registerRequisitionRoutes } from './routes-requisitions';
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
}

export function buildSandboxApp(options: SandboxAppOptions): FastifyInstance {
  const app = Fastify({ logger: options.logger, bodyLimit: bodyLimitBytes });
  // Fastify reads text/plain bodies as strings by default; the interface takes JSON only, so a
  // body sent without Content-Type: application/json is refused rather than half-understood.
  app.removeContentTypeParser('text/plain');
  registerErrorHandling(app);
  registerAuthentication(app, options.reference, options.now);
  registerBatchRoutes(app, options);
  registerRequisitionRoutes(app, options);
  registerReferenceRoutes(app, options.reference);
  return app;
}
