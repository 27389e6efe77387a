import { useMutation } from '@tanstack/react-query';
import { useRef } from 'react';
import { postBatch } from '@/core/batch/api/send-batch';
import type { BatchKind } from '@/core/batch/model/batch-kind';
import { sendTray } from '@/core/batch/send/send-tray';
import type { OrgScope } from '@/shared/api/vms';
import { productionSendConfirmed } from '@/shared/config/current-connection';
import { useCurrentConnection } from '@/shared/config/org-context';
import { newId } from '@/shared/lib/ids';
import { trayStore } from './use-batch-tray';
import { sendMutationKey } from './use-latest-sent';
import { recordSubmission } from './use-submissions';

/**
 * The tray's Send: sendTray on the kind's tray for the page's orgs and connection, as a mutation
 * (its state drives the tray's notices; the latest success is the workspace's latest batch). A
 * second click while a send is on its way does nothing.
 */
export function useSendBatch(kind: BatchKind, orgs: OrgScope, serverTimeoutMs: number) {
  const connection = useCurrentConnection();
  const inFlight = useRef(false);
  const mutation = useMutation({
    mutationKey: sendMutationKey(kind.id, orgs.clientOrgId),
    mutationFn: ({ unchecked }: { unchecked: boolean }) =>
      sendTray(
        {
          kind,
          store: trayStore(kind.id, orgs.clientOrgId),
          orgs,
          connection,
          productionConfirmed: productionSendConfirmed,
          post: postBatch,
          record: recordSubmission,
          newId,
          now: () => new Date(),
          // Longer than the server's own wait, so the server's answer (504 with its reason) wins.
          waitMs: serverTimeoutMs + 10_000,
        },
        { unchecked },
      ),
  });

  /** Sends the tray; `unchecked`: without the portal's local checks (the server's guards stay). */
  const send = ({ unchecked = false }: { unchecked?: boolean } = {}) => {
    if (inFlight.current) return;
    inFlight.current = true;
    mutation.mutate(
      { unchecked },
      {
        onSettled: () => {
          inFlight.current = false;
        },
      },
    );
  };

  return { ...mutation, send };
}
