import { useMutation } from '@tanstack/react-query';
import { useRef } from 'react';
import type { OrgScope } from '../../../shared/api/vms';
import { RequestFailure } from '../../../shared/api/http';
import { newId } from '../../../shared/lib/ids';
import type { BatchAccepted } from '../api/send-batch';
import { sendBatch } from '../api/send-batch';
import type { BatchKind, WireItem } from '../model/batch-kind';
import type { Submission } from '../model/submissions-state';
import { removeSent, trayPayload, withSendKey } from '../model/tray-state';
import { trayStore } from './use-batch-tray';
import { recordSubmission } from './use-submissions';

export interface SentBatch extends BatchAccepted {
  submission: Submission;
}

/**
 * Sends the tray as one batch. The items leave the tray only after the VMS answered 202 with a
 * batch id; on any failure every item stays and the error carries the server's message. The
 * Idempotency-Key is kept with the tray, so sending again after a failure (or a reload in the
 * middle of a send) is recognised by the portal server and never forwarded twice. A second click
 * while a send is on its way does nothing.
 */
export function useSendBatch(kind: BatchKind, orgs: OrgScope) {
  const inFlight = useRef(false);
  const mutation = useMutation({
    mutationKey: ['batches', kind.id, 'send', orgs.clientOrgId],
    mutationFn: async (): Promise<SentBatch> => {
      const store = trayStore(kind.id, orgs.clientOrgId);
      const keyed = withSendKey(store.get(), newId());
      store.set(keyed);
      const items: WireItem[] = trayPayload(keyed);
      const itemIds = keyed.items.map((item) => item.id);
      let accepted;
      try {
        accepted = await sendBatch(kind, orgs, items, keyed.sendKey ?? newId());
      } catch (error) {
        // The server knows this key for another body: only a new key can send these items.
        if (error instanceof RequestFailure && error.code === 'idempotency_conflict') {
          store.update((current) => ({ ...current, sendKey: null }));
          throw new RequestFailure(
            'http',
            'The portal server had already seen this batch’s key with different contents, so it sent nothing. Choose “Send batch” again: a new key will be used.',
            error.status,
            error.code,
          );
        }
        throw error;
      }
      const submission: Submission = {
        batchId: accepted.batchId,
        kind: kind.id,
        clientOrgId: orgs.clientOrgId,
        vendorOrgId: orgs.vendorOrgId,
        sentAt: new Date().toISOString(),
        itemCount: items.length,
        items,
        finalCounts: null,
      };
      // Recorded before the tray is emptied: at no moment are the items in neither place.
      recordSubmission(submission);
      store.update((current) => removeSent(current, itemIds));
      return { ...accepted, submission };
    },
  });

  const send = () => {
    if (inFlight.current) return;
    inFlight.current = true;
    mutation.mutate(undefined, {
      onSettled: () => {
        inFlight.current = false;
      },
    });
  };

  return { ...mutation, send };
}
