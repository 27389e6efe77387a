import { ApiError } from '@/domain/api-error';
import { batchShapeProblem } from '@/domain/batch';
import { payloadKindByOperation } from '@/domain/payload-kind';
import type { VmsOperation } from '@/domain/vms-contract';

/**
 * Checks a POST body's shape (docs/configuration.md, "What a forwarded call carries": a JSON array of 1..VMS_MAX_BATCH objects, anything
 * else refused whole with 400) and returns its item count. The items' contents are the VMS's to
 * judge; the forms check them before sending, and QA sometimes sends invalid items on purpose.
 */
export function checkBatchBody(
  raw: Buffer | undefined,
  maxBatch: number,
  operation: VmsOperation,
): number {
  const noun = payloadKindByOperation(operation)?.noun.one ?? 'item';
  if (raw === undefined || raw.length === 0) {
    throw new ApiError(
      'invalid_body',
      `The body is empty; send a JSON array of 1 to ${maxBatch} ${noun} objects.`,
    );
  }
  let parsed: unknown;
  try {
    // Only the shape is read, and JSON's syntax is all ASCII: as latin1, UTF-8 bytes stay valid
    // string content and decoding is a copy, not a UTF-8 decode. The VMS gets the original bytes.
    parsed = JSON.parse(raw.toString('latin1'));
  } catch (error) {
    throw new ApiError(
      'invalid_body',
      `The body is not valid JSON (${error instanceof Error ? error.message : String(error)}); send a JSON array of 1 to ${maxBatch} ${noun} objects.`,
    );
  }
  const problem = batchShapeProblem(parsed, {
    noun,
    maxItems: maxBatch,
    limitName: 'VMS_MAX_BATCH',
  });
  if (problem) throw new ApiError('invalid_body', problem.message, problem.details);
  return Array.isArray(parsed) ? parsed.length : 0;
}
