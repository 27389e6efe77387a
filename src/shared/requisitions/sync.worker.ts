/// <reference lib="webworker" />
import type { RequisitionRecord } from '@/domain';
import { adoptConnection } from '@/shared/config/current-connection';
import { openRequisitionCopies } from './cache';
import type { SyncRequest } from './sync';
import { dropCopiesInMemory, syncRequisitions } from './sync';
import type { WorkerMessage } from './sync-client';

/** Records per message: each is taken in by the page as one short task. */
const chunkSize = 250;

const scope = self as unknown as DedicatedWorkerGlobalScope;
const post = (message: WorkerMessage) => scope.postMessage(message);

scope.addEventListener(
  'message',
  (
    event: MessageEvent<{
      id: number;
      request?: SyncRequest;
      connection?: string | null;
      forget?: true;
      warm?: true;
    }>,
  ) => {
    const { id, request, connection, forget, warm } = event.data;
    // The list is read from, and kept for, the connection of the page that asks.
    if (connection !== undefined) adoptConnection(connection);
    if (warm) {
      // The page is still rendering: open the browser's copy now, so the first read need not.
      void openRequisitionCopies();
      return;
    }
    if (forget) {
      // The page removes the stored copies; the worker forgets what it holds.
      dropCopiesInMemory();
      return;
    }
    if (!request) return;
    const sendChunks = (records: readonly RequisitionRecord[]) => {
      for (let start = 0; start < records.length; start += chunkSize)
        post({ id, chunk: records.slice(start, start + chunkSize) });
    };
    syncRequisitions(request, {
      onStored: (records) => {
        sendChunks(records);
        post({ id, stored: true });
      },
    }).then(
      ({ replace, records }) => {
        sendChunks(records);
        post({ id, done: true, replace });
      },
      (error: unknown) =>
        post({ id, error: { message: error instanceof Error ? error.message : String(error) } }),
    );
  },
);
