import { z } from 'zod';
import { requestJson } from '../../../shared/api/http';
import type { OrgScope } from '../../../shared/api/vms';
import { vmsUrl } from '../../../shared/api/vms';
import type { BatchKind } from '../model/batch-kind';

/** The VMS's acceptance of a batch (decision 000): 202 with the batch id and the item count. */
export const batchAcceptedSchema = z.looseObject({
  batchid: z.string({ error: 'batchid is missing' }).min(1, 'batchid is empty'),
  received: z.number().int().nonnegative().optional(),
});

export interface BatchAccepted {
  batchId: string;
  received: number | undefined;
}

/**
 * POSTs a batch through the signing proxy with its Idempotency-Key. Resolves only when the VMS
 * accepted it with a batch id; anything else (offline, timeout, 4xx, 5xx, an answer without a
 * batch id) throws a RequestFailure carrying the server's message.
 */
export interface SendOptions {
  /** A send without local checks: the portal server marks it in its journal. */
  unchecked?: boolean | undefined;
  /** The journal entry this send repeats (the inspector's Send again). */
  replayOf?: string | undefined;
}

export async function sendBatch(
  kind: BatchKind,
  orgs: OrgScope,
  items: readonly unknown[],
  idempotencyKey: string,
  serverTimeoutMs: number,
  options: SendOptions = {},
): Promise<BatchAccepted> {
  const answer = await requestJson(
    vmsUrl(kind.postOperation, orgs),
    batchAcceptedSchema,
    `Sending the batch of ${items.length} ${items.length === 1 ? kind.noun.one : kind.noun.many}`,
    {
      method: 'POST',
      body: items,
      headers: {
        'Idempotency-Key': idempotencyKey,
        ...(options.unchecked ? { 'X-Portal-Unchecked': '1' } : {}),
        ...(options.replayOf ? { 'X-Portal-Replay-Of': options.replayOf } : {}),
      },
      // Longer than the server's own wait, so the server's answer (504 with its reason) wins.
      timeoutMs: serverTimeoutMs + 10_000,
    },
  );
  return { batchId: answer.data.batchid, received: answer.data.received };
}
