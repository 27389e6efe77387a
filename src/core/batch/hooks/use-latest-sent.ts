import { useMutationState } from '@tanstack/react-query';
import type { Submission } from '@/core/batch/model/submissions-state';
import type { SentBatch } from '@/core/batch/send/send-tray';

/** The key of a kind's "send the batch" mutation for one client org. */
export const sendMutationKey = (kindId: string, clientOrgId: number) =>
  ['batches', kindId, 'send', clientOrgId] as const;

/** The batch most recently sent from this page for the kind and client org, if any. */
export function useLatestSent(kindId: string, clientOrgId: number): Submission | null {
  const sent = useMutationState({
    filters: { mutationKey: sendMutationKey(kindId, clientOrgId), status: 'success' },
    // The mutation's data is what useSendBatch's mutationFn returned.
    select: (mutation) => (mutation.state.data as SentBatch | undefined)?.submission,
  });
  return sent.findLast((submission) => submission !== undefined) ?? null;
}
