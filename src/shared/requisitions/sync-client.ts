import type { RequisitionRecord } from '@/domain';
import { currentConnection } from '@/shared/config/current-connection';
import type { SyncRequest, SyncResult } from './sync';
import { forgetCopies, syncRequisitions } from './sync';

/**
 * Runs the requisition list's sync (requisition-sync.ts) in a Web Worker where the browser has
 * them, else in the page. The worker sends the records in chunks of a few hundred, so taking
 * them in is many short tasks rather than one long one.
 */
export type WorkerMessage =
  | { id: number; chunk: RequisitionRecord[] }
  | { id: number; done: true; replace: boolean }
  /** The chunks so far are the stored copy, sent before the VMS is asked what changed. */
  | { id: number; stored: true }
  | {
      id: number;
      error: { message: string };
    };

let worker: Worker | null | undefined;
let nextId = 1;
const pending = new Map<
  number,
  {
    records: RequisitionRecord[];
    onStored: ((records: RequisitionRecord[]) => void) | undefined;
    resolve(result: SyncResult): void;
    reject(error: Error): void;
  }
>();

function syncWorker(): Worker | null {
  if (worker !== undefined) return worker;
  if (typeof Worker === 'undefined') return (worker = null);
  try {
    worker = new Worker(new URL('./sync.worker.ts', import.meta.url), {
      type: 'module',
      name: 'requisition-sync',
    });
  } catch {
    return (worker = null);
  }
  worker.addEventListener('message', (event: MessageEvent<WorkerMessage>) => {
    const message = event.data;
    const call = pending.get(message.id);
    if (!call) return;
    if ('chunk' in message) {
      for (const record of message.chunk) call.records.push(record);
    } else if ('stored' in message) {
      call.onStored?.(call.records);
      call.records = [];
    } else if ('done' in message) {
      pending.delete(message.id);
      call.resolve({ replace: message.replace, records: call.records });
    } else {
      pending.delete(message.id);
      call.reject(new Error(message.error.message));
    }
  });
  worker.addEventListener('error', () => {
    // A worker that cannot run (blocked, failed to load): the page does the work from now on.
    worker = null;
    for (const [id, call] of pending) {
      pending.delete(id);
      call.reject(
        new Error(
          'The requisitions could not be loaded in the background; choose Refresh to try again.',
        ),
      );
    }
  });
  return worker;
}

/**
 * Starts the worker (its script loaded and run, the browser's copy opened) ahead of the first
 * sync, while the page that will ask for the list is still rendering.
 */
export function startRequisitionSync(): void {
  syncWorker()?.postMessage({ id: 0, warm: true });
}

export function runSync(
  request: SyncRequest,
  onStored?: (records: RequisitionRecord[]) => void,
): Promise<SyncResult> {
  const target = syncWorker();
  if (!target) return syncRequisitions(request, onStored ? { onStored } : {});
  const id = nextId++;
  return new Promise((resolve, reject) => {
    pending.set(id, { records: [], onStored, resolve, reject });
    // The worker has no page of its own: it works on the page's connection, told each time.
    target.postMessage({ id, request, connection: currentConnection() });
  });
}

export async function forgetSyncedLists(): Promise<void> {
  const target = syncWorker();
  if (target) target.postMessage({ id: 0, forget: true });
  await forgetCopies();
}
