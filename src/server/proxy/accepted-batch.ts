import type { OrgScope } from '@/domain/vms-contract';
import type { VmsOperation } from './vms-operations';

/** A batch the VMS accepted through the proxy: what the proxy tells whoever watches batches. */
export interface AcceptedBatch {
  connection: string;
  batchId: string;
  operation: Extract<VmsOperation, 'requisitionimport' | 'candidates'>;
  orgs: OrgScope;
  /** Who sent it; null with sign-in off. */
  sentBy: { userId: string; email: string } | null;
  itemCount: number;
  at: number;
}

/**
 * Told of each batch the VMS accepted, once per send that reached it: a replay answered from
 * its Idempotency-Key tells nothing (decision 050). The proxy declares it and knows nothing of who
 * listens; the watch concern sets it before the proxy opens.
 */
export interface AcceptedBatches {
  accepted(batch: AcceptedBatch): void;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** Whoever watches accepted batches; null when nothing does. */
    acceptedBatches: AcceptedBatches | null;
  }
}
