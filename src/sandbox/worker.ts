import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import type { DateFormat, PayloadKind } from '@/domain';
import type { BlankMaximumBillRate } from '@/domain/settings';
import { processCandidateItem } from './candidate-processing';
import type { ItemContext } from './item-context';
import { errorOutcome } from './item-context';
import type { ReferenceData } from './reference';
import { processRequisitionItem } from './requisition-processing';
import { formatIsoDateTime } from './requisition-record';
import { isStorageFailure } from './storage-failure';
import type { ItemOutcome, PendingItem, SandboxStore } from './store';

export interface WorkerOptions {
  store: SandboxStore;
  reference: ReferenceData;
  dateFormat: DateFormat;
  processingDelayMs: number;
  /** How a requisition without a maximumbillrate limits bill rates (default no limit). */
  blankMaximumBillRate?: BlankMaximumBillRate;
  now: () => Date;
  onUnexpectedError?: (error: unknown) => void;
  /** Told when storage fails (the error) and when it works again (null). */
  onStorageHealth?: (error: unknown) => void;
  /** First wait before retrying after a storage failure; doubles up to 30 s. Default 500 ms. */
  retryDelayMs?: number;
}

const maxRetryDelayMs = 30_000;

/** How the sandbox processes an item of each kind (its rules are the sandbox's own). */
const processors: Record<PayloadKind, (payload: unknown, context: ItemContext) => ItemOutcome> = {
  requisition: processRequisitionItem,
  candidate: processCandidateItem,
};

/**
 * Processes batch items one at a time, strictly in arrival order, like the real service's
 * asynchronous import. Each item runs in its own transaction that writes both its effect and its
 * result, so stopping the process at any moment leaves every item either untouched (Pending, and
 * taken up again on the next start) or completely done — never lost, never done twice.
 */
export function createBatchWorker(options: WorkerOptions) {
  const { store } = options;
  let stopped = false;
  let wakeFromIdle: (() => void) | undefined;
  let endPause: (() => void) | undefined;
  let delayTimer: NodeJS.Timeout | undefined;
  let loop: Promise<void> | undefined;

  const sleepUntilWoken = () =>
    new Promise<void>((resolve) => {
      wakeFromIdle = resolve;
    });

  const pause = (ms: number) =>
    new Promise<void>((resolve) => {
      endPause = resolve;
      delayTimer = setTimeout(resolve, ms);
    });

  function outcomeFor(item: PendingItem, context: ItemContext): ItemOutcome {
    return processors[item.kind](item.payload, context);
  }

  /** Processes one item; a storage failure is thrown (the item stays Pending). */
  function processItem(seq: number): void {
    const now = options.now();
    const nowIso = formatIsoDateTime(now);
    try {
      store.transaction(() => {
        // Re-read inside the transaction: only a still-Pending item is processed.
        const item = store.pendingItem(seq);
        if (!item) return;
        const client = options.reference.clients.get(item.clientOrgId);
        const outcome = client
          ? outcomeFor(item, {
              client,
              vendorOrgId: item.vendorOrgId,
              store,
              dateFormat: options.dateFormat,
              nowIso,
              todayIso: nowIso.slice(0, 10),
              blankMaximumBillRate: options.blankMaximumBillRate ?? 'no-limit',
            })
          : errorOutcome(`Client org ${item.clientOrgId} no longer exists in the sandbox.`, '');
        store.finishItem(seq, outcome, nowIso);
      });
    } catch (error) {
      if (isStorageFailure(error)) throw error;
      // A bug must not leave the item Pending forever and block every item behind it: the
      // transaction above rolled back, so record the failure on its own.
      options.onUnexpectedError?.(error);
      store.transaction(() =>
        store.finishItem(
          seq,
          errorOutcome(
            'The sandbox failed while processing this item (an internal error, see its log); ' +
              'nothing was changed. Send the item again in a new batch.',
            '',
          ),
          nowIso,
        ),
      );
    }
  }

  let storageProblem: string | null = null;
  let retryDelayMs = options.retryDelayMs ?? 500;

  /** One step of the loop; a storage failure leaves everything Pending and is retried. */
  async function step(): Promise<void> {
    const seq = store.nextPendingSeq();
    if (seq === undefined) {
      await sleepUntilWoken();
      return;
    }
    // The delay comes before each item so that a client always sees Pending first.
    if (options.processingDelayMs > 0) await pause(options.processingDelayMs);
    else await yieldToEventLoop(); // let requests in between items
    if (stopped) return;
    processItem(seq);
    if (storageProblem !== null) {
      storageProblem = null;
      retryDelayMs = options.retryDelayMs ?? 500;
      options.onStorageHealth?.(null);
    }
  }

  /**
   * Nothing escapes this loop: an error here would be an unhandled rejection, which ends the
   * whole process, and the sandbox runs inside the portal's process under `npm start`.
   */
  async function run(): Promise<void> {
    while (!stopped) {
      try {
        await step();
      } catch (error) {
        const reason = error instanceof Error ? error.message : String(error);
        // Reported once when it starts failing, not on every retry.
        if (storageProblem === null) options.onStorageHealth?.(error);
        storageProblem = `${isStorageFailure(error) ? 'storage' : 'batch worker'} failed (${reason}); items stay Pending and are retried with back-off`;
        if (!isStorageFailure(error)) options.onUnexpectedError?.(error);
        await pause(retryDelayMs);
        retryDelayMs = Math.min(retryDelayMs * 2, maxRetryDelayMs);
      }
    }
  }

  return {
    start(): void {
      loop ??= run();
    },
    /** Problems of the worker now: none when it is well. */
    health(): string[] {
      return storageProblem === null ? [] : [`sandbox batch worker: ${storageProblem}`];
    },
    /** A new batch was stored: process it now if idle. */
    notify(): void {
      wakeFromIdle?.();
    },
    /** Finishes the item in hand (items are synchronous, so none is half done) and stops. */
    async stop(): Promise<void> {
      stopped = true;
      clearTimeout(delayTimer);
      endPause?.();
      wakeFromIdle?.();
      await loop;
    },
  };
}

export type BatchWorker = ReturnType<typeof createBatchWorker>;
