import { queryOptions } from '@tanstack/react-query';
import { sentAfterBackupListSchema } from '@/domain/sent-after-backup';
import { requestJson } from '@/shared/api/http';

/**
 * GET /api/sent-after-backup: the batches the portal's last restore found sent after its backup
 * (decision 043). Read once per visit of the Submissions page; it changes only with a restore.
 */
export function sentAfterBackupQueryOptions() {
  return queryOptions({
    queryKey: ['sent-after-backup', 'list'],
    queryFn: async ({ signal }) =>
      (
        await requestJson(
          '/api/sent-after-backup',
          sentAfterBackupListSchema,
          'Reading the batches sent after the last backup',
          { signal },
        )
      ).data.batches,
    staleTime: 5 * 60 * 1000,
  });
}
