import { z } from 'zod';
import { requestJson } from '@/shared/api/http';

/** The VMS's acceptance of a batch (decision 000): 202 with the batch id and the item count. */
export const batchAcceptedSchema = z.looseObject({
  batchid: z.string({ error: 'batchid is missing' }).min(1, 'batchid is empty'),
  received: z.number().int().nonnegative().optional(),
});

export interface BatchAccepted {
  batchId: string;
  received: number | undefined;
}

/** One batch to POST through the signing proxy, as the send made it. */
export interface BatchPost {
  /** The portal's path of the operation, with its query (`/api/vms/requisitionimport?…`). */
  path: string;
  /** The JSON array sent, item by item. */
  items: readonly unknown[];
  /** Idempotency-Key, and the connection, replay and unchecked headers when they apply. */
  headers: Record<string, string>;
  /** Names the call in messages: "Sending the batch of 2 requisitions". */
  what: string;
  timeoutMs: number;
}

/**
 * POSTs a batch through the signing proxy. Resolves only when the VMS accepted it with a batch
 * id; anything else (offline, timeout, 4xx, 5xx, an answer without a batch id) throws a
 * RequestFailure carrying the server's message.
 */
export async function postBatch(batch: BatchPost): Promise<BatchAccepted> {
  const answer = await requestJson(batch.path, batchAcceptedSchema, batch.what, {
    method: 'POST',
    body: batch.items,
    headers: batch.headers,
    timeoutMs: batch.timeoutMs,
  });
  return { batchId: answer.data.batchid, received: answer.data.received };
}
