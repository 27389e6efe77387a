import type { RequisitionRecord } from '@/domain';
import { currentConnection } from '@/shared/config/current-connection';
import { listRequestStores } from './list-request-stores';
import type { SyncRequest, SyncResult } from './sync';

/**
 * Runs the requisition list's sync (sync.ts) in a Web Worker where the browser has
 * them, else in the page (its code loaded then: this module is part of every page's first load,
 * which starts the list page's sync, and the sync's is not). The worker sends the records in chunks of a few hundred, so taking
 * them in is many short tasks rather than one long one.
 */
export type WorkerMessage =
  | { id: number; chunk: RequisitionRecord[] }
  | { id: number; done: true; replace: boolean; warning: string | null }
  /** The chunks so far are the stored copy, sent before the VMS is asked what changed. */
  | { id: number; stored: true }
  /**
   * The chunks so far are the start of a whole list of `total` records (in Req ID order) that a
   * page without a list is being sent: the rest follow, then `done`.
   */
  | { id: number; first: true; total: number }
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
    onFirst: ((first: FirstRecords) => void) | undefined;
    resolve(result: SyncResult): void;
    reject(error: Error): void;
  }
>();

/**
 * The sync's worker: its name, by which the page's start script hands over one it started
 * (below), and its source file, which syncWorker makes it from (the URL below must name it
 * literally, for the build to find it).
 */
export const listWorker = {
  name: 'requisition-sync',
  source: 'src/shared/requisitions/sync.worker.ts',
  /** The stored choices its first sync depends on: the start script tells it their texts. */
  storage: Object.values(listRequestStores).map((store) => store.key),
};
const workerName = listWorker.name;

/**
 * The worker the page's start script started as the page was first drawn, if any: the list page
 * links the worker's file (`data-worker`), and the script starts it then rather than ~200 ms later
 * when this code has run (src/app/prerender.tsx, startScript). Taken once.
 */
function startedByPage(): Worker | null {
  const started = (globalThis as { portalWorkers?: Record<string, Worker> }).portalWorkers;
  const found = started?.[workerName] ?? null;
  if (started) delete started[workerName];
  return found;
}

function syncWorker(): Worker | null {
  if (worker !== undefined) return worker;
  if (typeof Worker === 'undefined') return (worker = null);
  try {
    worker =
      startedByPage() ??
      new Worker(new URL('./sync.worker.ts', import.meta.url), {
        type: 'module',
        name: workerName,
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
    } else if ('first' in message) {
      call.onFirst?.({ records: call.records.slice(), total: message.total });
    } else if ('done' in message) {
      pending.delete(message.id);
      call.resolve({ replace: message.replace, records: call.records, warning: message.warning });
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
 * sync, while the page that will ask for the list is still rendering. Given the page's first
 * request (listRequestAtStart), the worker starts that sync at once, and the page's own request,
 * when it comes, joins it: on a first visit the VMS's answer is on its way while the page
 * hydrates and renders, not after.
 */
export function startRequisitionSync(
  first: { request: SyncRequest; connection: string | null } | null = null,
): void {
  syncWorker()?.postMessage({
    id: 0,
    warm: true,
    ...(first ? { early: first.request, connection: first.connection } : {}),
  });
}

/** The first records of a whole list still coming, and how many it has. */
export interface FirstRecords {
  records: readonly RequisitionRecord[];
  total: number;
}

/**
 * `onStored` receives the stored copy, shown while the VMS is asked what changed (the result is
 * then the list's changes); `onFirst`, on a page that has no list yet, the first records of the
 * whole list while the rest are on their way (from the worker only: without one, the list is
 * read on the page's own thread and comes whole).
 */
export async function runSync(
  request: SyncRequest,
  {
    onStored,
    onFirst,
  }: {
    onStored?: (records: RequisitionRecord[]) => void;
    onFirst?: (first: FirstRecords) => void;
  } = {},
): Promise<SyncResult> {
  const target = syncWorker();
  if (!target) {
    const { syncRequisitions } = await import('./sync');
    return syncRequisitions(request, onStored ? { onStored } : {});
  }
  const id = nextId++;
  return new Promise((resolve, reject) => {
    pending.set(id, { records: [], onStored, onFirst, resolve, reject });
    // The worker has no page of its own: it works on the page's connection, told each time.
    target.postMessage({ id, request, connection: currentConnection() });
  });
}

export async function forgetSyncedLists(): Promise<void> {
  const target = syncWorker();
  if (target) target.postMessage({ id: 0, forget: true });
  const { forgetCopies } = await import('./sync');
  await forgetCopies();
}
