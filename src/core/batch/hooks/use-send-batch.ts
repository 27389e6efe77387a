import { useMutation } from '@tanstack/react-query';
import { useRef } from 'react';
import { RequestFailure } from '../../../shared/api/http';
import type { OrgScope } from '../../../shared/api/vms';
import { newId } from '../../../shared/lib/ids';
import type { BatchAccepted } from '../api/send-batch';
import { sendBatch } from '../api/send-batch';
import type { BatchKind } from '../model/batch-kind';
import type { Submission } from '../model/submissions-state';
import { itemsToSend, markLost, payloadOf, removeSent, withSendKey } from '../model/tray-state';
import { trayStore } from './use-batch-tray';
import { sendMutationKey } from './use-latest-sent';
import { recordSubmission } from './use-submissions';

export interface SentBatch extends BatchAccepted {
  submission: Submission;
  /** Notes from the check before sending (changes by others that the Amends leave alone). */
  notes: string[];
}

/** The send stopped before anything left: items changed in the VMS need a decision. */
export class HeldForDecision extends Error {
  override name = 'HeldForDecision';
}

/**
 * Failures after which the VMS may have the batch (decision 002): no answer in time, the
 * connection lost, or the server saying so. The items are locked and go again only with the
 * same key.
 */
function answerLost(error: unknown): boolean {
  if (!(error instanceof RequestFailure)) return false;
  return (
    error.kind === 'timeout' ||
    error.kind === 'offline' ||
    error.code === 'upstream_timeout' ||
    error.code === 'outcome_unknown'
  );
}

/**
 * Sends the tray as one batch. The items leave the tray only after the VMS answered 202 with a
 * batch id; on any failure every item stays and the error carries the server's message. The
 * Idempotency-Key is kept with the tray, so sending again after a failure (or a reload in the
 * middle of a send) is recognised by the portal server and never forwarded twice. When the
 * answer is lost, the sent items are locked under their key until the user sends them again
 * safely or finds out what the VMS has. Loaded Amends are checked against the VMS first. A second
 * click while a send is on its way does nothing.
 */
export function useSendBatch(kind: BatchKind, orgs: OrgScope, serverTimeoutMs: number) {
  const inFlight = useRef(false);
  const mutation = useMutation({
    mutationKey: sendMutationKey(kind.id, orgs.clientOrgId),
    mutationFn: async ({ unchecked }: { unchecked: boolean }): Promise<SentBatch> => {
      const store = trayStore(kind.id, orgs.clientOrgId);
      const notes: string[] = [];
      // A lost send goes again exactly as it went: no check may change its body.
      if (!store.get().lost && kind.beforeSend) {
        const check = await kind.beforeSend(orgs, store.get().items);
        notes.push(...check.notes);
        if (check.revised.size > 0) {
          store.update((current) => ({
            ...current,
            items: current.items.map((item) => check.revised.get(item.id) ?? item),
          }));
        }
        const held = store.get().items.filter((item) => item.held);
        if (held.length > 0) {
          throw new HeldForDecision(
            `${held.length === 1 ? `One ${kind.noun.one} was` : `${held.length} ${kind.noun.many} were`} changed in the VMS since you loaded ${held.length === 1 ? 'it' : 'them'}, in fields you change too. Nothing was sent. Choose which value to keep for each, then send again.`,
          );
        }
      }

      const keyed = withSendKey(store.get(), newId());
      store.set(keyed);
      // The key must be stored before the batch leaves: a reload or crash after this point
      // sends again under the same key, which the portal server never forwards twice.
      if (!(await store.flush())) {
        throw new Error(
          'The batch could not be saved in this browser before sending, so it was not sent (a send that could not be repeated safely). Free some browser storage or allow site data for this address, then send again.',
        );
      }
      const sending = itemsToSend(keyed);
      const items = sending.map((item) => item.wire);
      const payload = sending.map(payloadOf);
      const itemIds = sending.map((item) => item.id);
      const key = keyed.sendKey ?? newId();
      let accepted;
      try {
        accepted = await sendBatch(kind, orgs, payload, key, serverTimeoutMs, {
          unchecked,
          replayOf: keyed.replayOf ? String(keyed.replayOf) : undefined,
        });
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
        if (answerLost(error)) {
          store.update((current) =>
            markLost(current, {
              key,
              itemIds,
              at: current.lost?.at ?? new Date().toISOString(),
              message: error instanceof Error ? error.message : String(error),
            }),
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
        loaded: sending.map((item) => item.loaded ?? null),
        finalCounts: null,
        ...(unchecked ? { unchecked: true } : {}),
        // Which failed rows of earlier batches this one sends again: those rows say so.
        ...(sending.some((item) => item.resendOf)
          ? { resendOf: sending.map((item) => item.resendOf ?? null) }
          : {}),
      };
      // Recorded before the tray is emptied: at no moment are the items in neither place.
      recordSubmission(submission);
      store.update((current) => removeSent(current, itemIds));
      return { ...accepted, submission, notes };
    },
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
