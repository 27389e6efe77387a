import { randomBytes } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ApiError } from '@/domain/api-error';
import { batchShapeProblem } from '@/domain/batch';
import {
  payloadKindDescriptors,
  payloadKindOf,
  type PayloadKindDescriptor,
} from '@/domain/payload-kind';
import { scopeOf } from './auth';
import { postedString } from './item-context';
import { parseQuery, requiredParam } from './query';
import { formatIsoDateTime } from './requisition-record';
import type { SandboxStore } from './store';
import type { BatchWorker } from './worker';

interface BatchRoutesOptions {
  store: SandboxStore;
  worker: BatchWorker;
  maxBatch: number;
  now: () => Date;
}

/**
 * The body must be a JSON array of 1..maxBatch objects (decision 000); anything else is refused
 * whole, saying exactly what is wrong. What is inside each object is the item's own business: an
 * invalid item gets an Error result, the others are still processed.
 */
function parseBatchBody(
  body: unknown,
  kind: PayloadKindDescriptor,
  maxBatch: number,
): Record<string, unknown>[] {
  const problem = batchShapeProblem(body, { noun: kind.noun.one, maxItems: maxBatch });
  if (problem) throw new ApiError('invalid_body', problem.message, problem.details);
  // The items as they came: a copy made by assignment would turn an item's "__proto__" key into
  // its prototype, and the item must be judged with every key it has.
  return Array.isArray(body) ? body.filter(isItemObject) : [];
}

function isItemObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function newBatchId(kind: PayloadKindDescriptor): string {
  // Unguessable: a batch id is all another caller of the same client would need to read results.
  return `${kind.batchIdPrefix}_${randomBytes(16).toString('base64url')}`;
}

export function registerBatchRoutes(app: FastifyInstance, options: BatchRoutesOptions): void {
  const { store, worker, maxBatch, now } = options;

  function accept(kind: PayloadKindDescriptor) {
    return async (request: FastifyRequest) => {
      const scope = scopeOf(request);
      const items = parseBatchBody(request.body, kind, maxBatch);
      const batchId = newBatchId(kind);
      store.insertBatch(
        { batchId, kind: kind.id, clientOrgId: scope.clientOrgId, vendorOrgId: scope.vendorOrgId },
        items.map((payload) => ({
          payload,
          reference: postedString(payload, kind.referenceField),
        })),
        formatIsoDateTime(now()),
      );
      // Answered only now that the whole batch is stored, and before any item is processed.
      worker.notify();
      return { batchid: batchId, received: items.length };
    };
  }

  function results(kind: PayloadKindDescriptor) {
    return async (request: FastifyRequest) => {
      const scope = scopeOf(request);
      const batchId = requiredParam(
        parseQuery(request.query),
        'batchid',
        `${kind.batchIdPrefix}_…`,
      );
      const batch = store.findBatch(batchId);
      // A batch of another client or vendor is as unknown as one that does not exist.
      if (
        !batch ||
        batch.clientOrgId !== scope.clientOrgId ||
        batch.vendorOrgId !== scope.vendorOrgId
      ) {
        throw new ApiError(
          'unknown_batch',
          `There is no ${kind.noun.one} batch '${batchId}' for client org ${scope.clientOrgId} and ` +
            `vendor org ${scope.vendorOrgId}; use the batchid that POST /${kind.postOperation} returned, ` +
            'with the same Client_Org_Id and Vendor_Org_Id.',
        );
      }
      if (batch.kind !== kind.id) {
        const other = payloadKindOf(batch.kind);
        throw new ApiError(
          'unknown_batch',
          `'${batchId}' is a ${other.noun.one} batch, not a ${kind.noun.one} batch; read its ` +
            `results from GET /${other.resultsOperation}.`,
        );
      }
      return store.itemResults(batchId).map((row) => kind.resultRow(batchId, row));
    };
  }

  for (const kind of Object.values(payloadKindDescriptors)) {
    app.post(`/${kind.postOperation}`, async (request, reply) => {
      reply.code(202);
      return accept(kind)(request);
    });
    app.get(`/${kind.resultsOperation}`, results(kind));
  }
}
