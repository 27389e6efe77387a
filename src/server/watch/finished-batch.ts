import type { BatchResultRow } from '@/domain/batch-results';

/** A batch the watch is done with: settled (every row final) or given up (still pending). */
export interface FinishedBatch {
  connection: string;
  batchId: string;
  operation: 'requisitionimport' | 'candidates';
  /** Who sent it; null with sign-in off. */
  sentBy: { userId: string; email: string } | null;
  state: 'settled' | 'gave_up';
  /** The rows it settled with; null when given up without any. */
  rows: BatchResultRow[] | null;
  /** WATCH_GIVE_UP_HOURS, for the words of a batch given up. */
  giveUpHours: number;
  at: number;
}

/**
 * Told of each batch the watch is done with, before the watch writes that it is: a told batch
 * whose watch was not written (the process died between) is told again by the next check, so
 * whoever listens must take a second telling of the same batch as nothing new. The watch
 * declares it and knows nothing of who listens; the notifications set it before the watch opens.
 * A telling that fails leaves the watch as it was, to be checked, and told, again.
 */
export interface FinishedBatches {
  finished(batch: FinishedBatch): Promise<void>;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** Whoever is told of finished batches; null when nothing is. */
    finishedBatches: FinishedBatches | null;
  }
}
