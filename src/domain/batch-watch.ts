import { z } from 'zod';

/**
 * GET /api/watches/:batchId (decision 050): the server's watch of a batch the VMS accepted, and
 * the latest results it kept. `state`: still `watching`, `settled` (every row final) or
 * `gave_up` (still pending when WATCH_GIVE_UP_HOURS passed; `problem` says so).
 */
export const batchWatchSchema = z.object({
  batchId: z.string(),
  connection: z.string(),
  operation: z.enum(['requisitionimport', 'candidates']),
  clientOrgId: z.number().int(),
  vendorOrgId: z.number().int(),
  itemCount: z.number().int(),
  sentBy: z.object({ userId: z.string(), email: z.string() }).nullable(),
  state: z.enum(['watching', 'settled', 'gave_up']),
  acceptedAt: z.string(),
  /** Results calls made so far. */
  checks: z.number().int(),
  lastCheckedAt: z.string().nullable(),
  /** When the next check is due while watching; null once finished. */
  nextCheckAt: z.string().nullable(),
  lastStatus: z.number().int().nullable(),
  /** What went wrong with the last check, or why the watch ended without settling. */
  problem: z.string().nullable(),
  finishedAt: z.string().nullable(),
  /** The trace every results call of this watch was made under (the journal's `traceId`). */
  traceId: z.string(),
  results: z
    .object({
      at: z.string(),
      rows: z.array(
        z.object({
          row: z.number().int(),
          status: z.string(),
          message: z.string(),
          createdId: z.string(),
          reference: z.string(),
        }),
      ),
      /** The answer's body as the VMS sent it. */
      raw: z.string(),
    })
    .nullable(),
});
export type BatchWatch = z.infer<typeof batchWatchSchema>;
