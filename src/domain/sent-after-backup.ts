import { z } from 'zod';

/**
 * The batches sent after the backup a restore went back to (docs/decisions/043-sent-after-backup.md),
 * as `GET /api/sent-after-backup` lists them: the portal refuses to send them again with their
 * key, and the Submissions page marks them. Each part is null when the replaced database did not
 * record it.
 */
export const sentAfterBackupBatchSchema = z.object({
  batchId: z.string().nullable(),
  connection: z.string().nullable(),
  email: z.string().nullable(),
  /** When the batch was sent (ISO 8601). */
  sentAt: z.string(),
  itemCount: z.number().int().nullable(),
});
export type SentAfterBackupBatch = z.infer<typeof sentAfterBackupBatchSchema>;

export const sentAfterBackupListSchema = z.object({
  batches: z.array(sentAfterBackupBatchSchema),
});
