import type { BatchAccepted, BatchPost } from '@/core/batch/api/send-batch';
import type { BatchKind } from '@/core/batch/model/batch-kind';
import type { Submission } from '@/core/batch/model/submissions-state';
import type { TrayState } from '@/core/batch/model/tray-state';
import {
  itemsToSend,
  markLost,
  payloadOf,
  removeSent,
  withSendKey,
} from '@/core/batch/model/tray-state';
import { replayOfHeader, uncheckedHeader } from '@/domain/journal';
import type { ConnectionSettings } from '@/domain/portal-config';
import { connectionHeader } from '@/domain/vms-contract';
import { RequestFailure } from '@/shared/api/http';
import type { OrgScope } from '@/shared/api/vms';
import { vmsUrl } from '@/shared/api/vms';

/**
 * Sending a tray as one batch: the one way the portal's browser code sends a batch, whether from
 * a workspace's tray or from the inspector's "Send again" (a tray made of the recorded call's
 * items). A plain function: what it works with is passed in, so each branch is tested without
 * React against the real portal server.
 */

/** The tray being sent, wherever it is kept (IndexedDB for a workspace, memory for a replay). */
export interface TrayStoreLike {
  get(): TrayState;
  set(state: TrayState): unknown;
  update(change: (current: TrayState) => TrayState): unknown;
  /** Resolves once the latest change is stored: false when the browser refused to store it. */
  flush(): Promise<boolean>;
}

export interface SendTrayDeps {
  kind: Pick<BatchKind, 'id' | 'noun' | 'postOperation' | 'beforeSend'>;
  store: TrayStoreLike;
  orgs: OrgScope;
  /** The connection the batch goes to, named in its call; null: the server's default. */
  connection: Pick<ConnectionSettings, 'name' | 'label' | 'production'> | null;
  /** Where it is posted: the kind's POST for the orgs, unless given (a recorded call's path). */
  path?: string | undefined;
  /** Whether the user said yes to sending to production connection `name`. */
  productionConfirmed(name: string): boolean;
  /** Posts the batch through the portal's proxy: the VMS's acceptance, or a RequestFailure. */
  post(batch: BatchPost): Promise<BatchAccepted>;
  /** Keeps the accepted batch in the submissions history. */
  record(submission: Submission): void;
  newId(): string;
  now(): Date;
  /** How long the browser waits for the answer: longer than the server's own wait. */
  waitMs: number;
}

export interface SendOptions {
  /** Without the portal's local checks: the portal server marks it in its journal (QA). */
  unchecked?: boolean | undefined;
}

export interface SentBatch extends BatchAccepted {
  submission: Submission;
  /** Notes from the check before sending (changes by others that the Amends leave alone). */
  notes: string[];
}

/** The send stopped before anything left: items changed in the VMS need a decision. */
export class HeldForDecision extends Error {
  override name = 'HeldForDecision';
}

/** The send stopped before anything left: production was not confirmed. */
export class ProductionNotConfirmed extends Error {
  override name = 'ProductionNotConfirmed';
}

/** Whether a send to `connection` must be confirmed first: production, not yet confirmed. */
export function needsProductionConfirmation(
  connection: Pick<ConnectionSettings, 'name' | 'production'> | null,
  confirmed: (name: string) => boolean,
): boolean {
  return connection !== null && connection.production && !confirmed(connection.name);
}

/**
 * Failures after which the VMS may have the batch (decision 002): no answer in time, the
 * connection lost, the server still waiting for the VMS, or the server saying nobody can tell.
 * The items are locked and go again only with the same key.
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
 * batch id, recorded in the submissions first (at no moment are they in neither place); on any
 * failure every item stays and the error carries the server's message. The Idempotency-Key is
 * stored with the tray before the batch leaves, so sending again after a failure (or a reload in
 * the middle of a send) is recognised by the portal server and never forwarded twice. When the
 * answer is lost, the sent items are locked under their key until they are sent again safely or
 * settled. A key the server knows for other contents is dropped: the next send takes a new one.
 * Loaded Amends are checked against the VMS first (not when a lost send goes again: it goes
 * exactly as it went). Nothing leaves for a production connection the user has not confirmed.
 */
export async function sendTray(
  deps: SendTrayDeps,
  { unchecked = false }: SendOptions = {},
): Promise<SentBatch> {
  const { kind, store, orgs, connection } = deps;
  if (connection && needsProductionConfirmation(connection, deps.productionConfirmed)) {
    throw new ProductionNotConfirmed(
      `${connection.label} is a production VMS, where the batch reaches the client for real, and sending to it was not confirmed. Nothing was sent; choose “Send batch” again and confirm.`,
    );
  }

  const notes: string[] = [];
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

  const keyed = withSendKey(store.get(), deps.newId());
  store.set(keyed);
  // The key must be stored before the batch leaves: a reload or crash after this point sends
  // again under the same key, which the portal server never forwards twice.
  if (!(await store.flush())) {
    throw new Error(
      'The batch could not be saved in this browser before sending, so it was not sent (a send that could not be repeated safely). Free some browser storage or allow site data for this address, then send again.',
    );
  }
  const sending = itemsToSend(keyed);
  const itemIds = sending.map((item) => item.id);
  const key = keyed.sendKey ?? deps.newId();
  const count = sending.length;
  let accepted: BatchAccepted;
  try {
    accepted = await deps.post({
      path: deps.path ?? vmsUrl(kind.postOperation, orgs),
      items: sending.map(payloadOf),
      headers: {
        'Idempotency-Key': key,
        ...(connection ? { [connectionHeader]: connection.name } : {}),
        ...(unchecked ? { [uncheckedHeader]: '1' } : {}),
        ...(keyed.replayOf ? { [replayOfHeader]: String(keyed.replayOf) } : {}),
      },
      what: `Sending the batch of ${count} ${count === 1 ? kind.noun.one : kind.noun.many}`,
      timeoutMs: deps.waitMs,
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
          at: current.lost?.at ?? deps.now().toISOString(),
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
    sentAt: deps.now().toISOString(),
    itemCount: count,
    items: sending.map((item) => item.wire),
    loaded: sending.map((item) => item.loaded ?? null),
    finalCounts: null,
    ...(unchecked ? { unchecked: true } : {}),
    // Which failed rows of earlier batches this one sends again: those rows say so.
    ...(sending.some((item) => item.resendOf)
      ? { resendOf: sending.map((item) => item.resendOf ?? null) }
      : {}),
    ...(connection ? { connection: connection.name } : {}),
  };
  // Recorded before the tray is emptied: at no moment are the items in neither place.
  deps.record(submission);
  store.update((current) => removeSent(current, itemIds));
  return { ...accepted, submission, notes };
}

/**
 * A tray kept in memory only: a recorded call being sent again from the inspector. While it is
 * not sent, a second send goes with the same key (a lost answer is asked for, not sent twice);
 * it is not kept over a reload, as a replay is made again from the journal.
 */
export function memoryTray(initial: TrayState): TrayStoreLike {
  let state = initial;
  return {
    get: () => state,
    set: (next) => {
      state = next;
    },
    update: (change) => {
      state = change(state);
    },
    flush: () => Promise.resolve(true),
  };
}
