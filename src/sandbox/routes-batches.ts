import { ApiError } from '../domain/api-error';
import { batchShapeProblem } from '../domain/batch';
import type { CandidateResultRowWire, RequisitionResultRowWire } from '../domain/batch-results';
import {
  candidateResultStatuses,
  requisitionResultStatuses,
  resultStatus,
} from '../domain/batch-results';
import { randomBytes } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { scopeOf } from './auth';
import { postedString } from './item-context';
import { parseQuery, requiredParam } from './query';
import { formatIsoDateTime } from './requisition-record';
import type { BatchKind, SandboxStore } from './store';
import type { BatchWorker } from './worker';

interface BatchRoutesOptions {
  store: SandboxStore;
  worker: BatchWorker;
  maxBatch: number;
  now: () => Date;
}

const nouns: Record<BatchKind, string> = { requisition: 'requisition', candidate: 'candidate' };
const resultPaths: Record<BatchKind, string> = {
  requisition: '/requisitionresults',
  candidate: '/candidateresults',
};
const postPaths: Record<BatchKind, string> = {
  requisition: 'POST /requisitionimport',
  candidate: 'POST /candidates',
};
/** The posted field each result row echoes: ClientInternalReq / Vendor_Candidate_Id. */
const referenceKeys: Record<BatchKind, string> = {
  requisition: 'clientinternalreq',
  candidate: 'vendorcandidateid',
};

/**
 * The body must be a JSON array of 1..maxBatch objects (decision 000); anything else is refused
 * whole, saying exactly what is wrong. What is inside each object is the item's own business: an
 * invalid item gets an Error result, the others are still processed.
 */
function parseBatchBody(
  body: unknown,
  kind: BatchKind,
  maxBatch: number,
): Record<string, unknown>[] {
  const problem = batchShapeProblem(body, { noun: nouns[kind], maxItems: maxBatch });
  if (problem) throw new ApiError('invalid_body', problem.message, problem.details);
  // The items as they came: a copy made by assignment would turn an item's "__proto__" key into
  // its prototype, and the item must be judged with every key it has.
  return Array.isArray(body) ? body.filter(isItemObject) : [];
}

function isItemObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function newBatchId(kind: BatchKind): string {
  // Unguessable: a batch id is all another caller of the same client would need to read results.
  return `${kind === 'requisition' ? 'rb' : 'cb'}_${randomBytes(16).toString('base64url')}`;
}

export function registerBatchRoutes(app: FastifyInstance, options: BatchRoutesOptions): void {
  const { store, worker, maxBatch, now } = options;

  function accept(kind: BatchKind) {
    return async (request: FastifyRequest) => {
      const scope = scopeOf(request);
      const items = parseBatchBody(request.body, kind, maxBatch);
      const batchId = newBatchId(kind);
      store.insertBatch(
        { batchId, kind, clientOrgId: scope.clientOrgId, vendorOrgId: scope.vendorOrgId },
        items.map((payload) => ({
          payload,
          reference: postedString(payload, referenceKeys[kind]),
        })),
        formatIsoDateTime(now()),
      );
      // Answered only now that the whole batch is stored, and before any item is processed.
      worker.notify();
      return { batchid: batchId, received: items.length };
    };
  }

  function results(kind: BatchKind) {
    return async (request: FastifyRequest) => {
      const scope = scopeOf(request);
      const batchId = requiredParam(parseQuery(request.query), 'batchid', 'rb_…');
      const batch = store.findBatch(batchId);
      // A batch of another client or vendor is as unknown as one that does not exist.
      if (
        !batch ||
        batch.clientOrgId !== scope.clientOrgId ||
        batch.vendorOrgId !== scope.vendorOrgId
      ) {
        throw new ApiError(
          'unknown_batch',
          `There is no ${nouns[kind]} batch '${batchId}' for client org ${scope.clientOrgId} and ` +
            `vendor org ${scope.vendorOrgId}; use the batchid that ${postPaths[kind]} returned, ` +
            'with the same Client_Org_Id and Vendor_Org_Id.',
        );
      }
      if (batch.kind !== kind) {
        throw new ApiError(
          'unknown_batch',
          `'${batchId}' is a ${nouns[batch.kind]} batch, not a ${nouns[kind]} batch; read its ` +
            `results from GET ${resultPaths[batch.kind]}.`,
        );
      }
      const rows = store.itemResults(batchId);
      return kind === 'requisition'
        ? rows.map((row): RequisitionResultRowWire => ({
            Batch_Id: batchId,
            Row: row.row,
            Status: resultStatus(requisitionResultStatuses, row.status),
            ErrorMessage: row.errorMessage,
            Req_Id: row.resultId,
            ClientInternalReq: row.reference,
          }))
        : rows.map((row): CandidateResultRowWire => {
            const candidateStatus = resultStatus(candidateResultStatuses, row.status);
            return {
              Batch_Id: batchId,
              Row: row.row,
              Status: candidateStatus,
              // The real service names the status Cand_Status (the real service's documentation,
              // decision 031); both are given.
              Cand_Status: candidateStatus,
              CandErrorMessage: row.errorMessage,
              Cand_Id: row.resultId,
              Vendor_Candidate_Id: row.reference,
            };
          });
    };
  }

  app.post('/requisitionimport', async (request, reply) => {
    reply.code(202);
    return accept('requisition')(request);
  });
  app.post('/candidates', async (request, reply) => {
    reply.code(202);
    return accept('candidate')(request);
  });
  app.get('/requisitionresults', results('requisition'));
  app.get('/candidateresults', results('candidate'));
}
