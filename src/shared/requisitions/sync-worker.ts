/// <reference lib="webworker" />
import '@/shared/lib/zod-config';
import type { RequisitionRecord } from '@/domain';
import type { PortalConfigResponse } from '@/domain/portal-config';
import { portalConfigSchema } from '@/domain/portal-config';
import type { StartedRequest } from '@/shared/api/http';
import { adoptConnection } from '@/shared/config/current-connection';
import { openRequisitionCopies } from './cache';
import type { FirstLoad, StartData } from './first-load';
import { listRequestFrom } from './list-request';
import { listRequestStores } from './list-request-stores';
import type { SyncRequest, SyncResult } from './sync';
import { dropCopiesInMemory, syncRequisitions } from './sync';
import type { WorkerMessage } from './sync-client';

/** Records per message: each is taken in by the page as one short task. */
const chunkSize = 250;

const scope = self as unknown as DedicatedWorkerGlobalScope;
const post = (message: WorkerMessage) => scope.postMessage(message);

/**
 * The sync started with the worker, before the page asked (startRequisitionSync), until the
 * page's request for the same list joins it. The stored copy it read, if any, is kept for the
 * page, which shows it while the VMS is asked what changed.
 */
let early: {
  key: string;
  stored: readonly RequisitionRecord[] | null;
  onStored: ((records: readonly RequisitionRecord[]) => void) | null;
  result: Promise<SyncResult>;
  /** Settled once its records are on their way to the page that joined it. */
  handedOn: Deferred;
} | null = null;

interface Deferred {
  promise: Promise<void>;
  settle(): void;
}
function deferred(): Deferred {
  let settle!: () => void;
  const promise = new Promise<void>((resolve) => {
    settle = resolve;
  });
  return { promise, settle };
}

/**
 * A list loaded before the page asked is stored once the page has it (syncRequisitions'
 * `handedOn`): a copy of 2,000 records stored first held the worker's thread ~100 ms (4× CPU
 * throttle) just as the page asked for them. One the page never asks for is stored after this
 * long all the same.
 */
const storeUnaskedAfterMs = 10_000;
const keyOf = (request: SyncRequest, connection: string | null | undefined) =>
  JSON.stringify([
    request.orgs.vendorOrgId,
    request.orgs.clientOrgId,
    request.source,
    request.mainHas,
    connection ?? null,
  ]);

/**
 * Starts the sync the page will ask for first, unless it is under way already; its whole list
 * is `started` already when the worker asked for it as it started (first-load.ts).
 */
function startEarly(
  first: SyncRequest,
  connection: string | null | undefined,
  started?: StartedRequest,
): void {
  const key = keyOf(first, connection);
  if (early?.key === key) return;
  const handedOn = deferred();
  setTimeout(handedOn.settle, storeUnaskedAfterMs);
  const sync: NonNullable<typeof early> = {
    key,
    stored: null,
    onStored: null,
    handedOn,
    result: syncRequisitions(first, {
      onStored: (records) => {
        if (sync.onStored) sync.onStored(records);
        else sync.stored = records;
      },
      handedOn: () => handedOn.promise,
      ...(started ? { started } : {}),
    }),
  };
  // Its failure is the page's to hear, when it joins; unjoined, it is nobody's.
  sync.result.catch(() => undefined);
  early = sync;
}

/**
 * What the page's start script tells the worker it starts as the page is first drawn (before the
 * app's code has run): the settings in the page and the stored choices the first request
 * depends on (listRequestStores). The worker works out that request as the page will
 * (listRequestFrom) and starts it: the VMS's answer is then on its way ~200 ms sooner than when
 * the app's code has run and asks.
 */
function startFromPage({ config, storage }: StartData, firstLoad: FirstLoad | null) {
  let settings: PortalConfigResponse | null = null;
  try {
    const parsed = portalConfigSchema.safeParse(JSON.parse(config ?? 'null'));
    settings = parsed.success ? parsed.data : null;
  } catch {
    settings = null;
  }
  if (!settings) {
    firstLoad?.started.abort();
    return;
  }
  const first = listRequestFrom(settings, {
    connection: listRequestStores.connection.read(
      storage[listRequestStores.connection.key] ?? null,
    ),
    clientOrg: listRequestStores.clientOrg.read(storage[listRequestStores.clientOrg.key] ?? null),
  });
  // The list asked for as the worker started is this one's only if it is the same request.
  const asked =
    firstLoad &&
    first &&
    keyOf(firstLoad.request, firstLoad.connection) === keyOf(first.request, first.connection)
      ? firstLoad.started
      : undefined;
  if (firstLoad && !asked) firstLoad.started.abort();
  if (!first) return;
  adoptConnection(first.connection);
  startEarly(first.request, first.connection, asked);
}

/** What the page asks of the worker. */
type PageMessage = MessageEvent<{
  id: number;
  request?: SyncRequest;
  connection?: string | null;
  forget?: true;
  warm?: true;
  early?: SyncRequest;
}>;

/**
 * The worker, once its code has loaded (sync.worker.ts): it starts the sync the page's start
 * script told it of (`data`, taking the list asked for as it started, `firstLoad`), then answers
 * the page, the messages that came while its code loaded (`waiting`) first.
 */
export function runWorker(
  data: StartData | null,
  firstLoad: FirstLoad | null,
  waiting: readonly PageMessage[],
): void {
  // Anything but what the start script writes: the page asks when its code has run.
  if (data) startFromPage(data, firstLoad);
  scope.addEventListener('message', onMessage);
  for (const event of waiting) onMessage(event);
}

function onMessage(event: PageMessage): void {
  const { id, request, connection, forget, warm } = event.data;
  // The list is read from, and kept for, the connection of the page that asks.
  if (connection !== undefined) adoptConnection(connection);
  if (warm) {
    // The page is still rendering: start the sync the page will ask for, when it says which;
    // else open the browser's copy now, so the first read need not.
    const first = event.data.early;
    if (first) startEarly(first, connection);
    else void openRequisitionCopies();
    return;
  }
  if (forget) {
    // The page removes the stored copies; the worker forgets what it holds.
    dropCopiesInMemory();
    return;
  }
  if (!request) return;
  const sendChunks = (records: readonly RequisitionRecord[], from = 0) => {
    for (let start = from; start < records.length; start += chunkSize)
      post({ id, chunk: records.slice(start, start + chunkSize) });
  };
  let pageHas = request.mainHas;
  const onStored = (records: readonly RequisitionRecord[]) => {
    sendChunks(records);
    post({ id, stored: true });
    pageHas = true;
  };
  // Only the page's first request may join the sync started for it: a later one asks afresh.
  const joined = early?.key === keyOf(request, connection) ? early : null;
  early = null;
  let result: Promise<SyncResult>;
  let handedOn: Deferred;
  if (joined) {
    // The sync this request would start is under way already: it joins it.
    if (joined.stored) onStored(joined.stored);
    joined.onStored = onStored;
    result = joined.result;
    handedOn = joined.handedOn;
  } else {
    handedOn = deferred();
    result = syncRequisitions(request, { onStored, handedOn: () => handedOn.promise });
  }
  result.then(
    ({ replace, records, warning }) => {
      if (replace && !pageHas && records.length > chunkSize) {
        // A page with no list yet can draw its first rows from the first chunk, while it
        // takes in the rest (WorkerMessage's `first`).
        post({ id, chunk: records.slice(0, chunkSize) });
        post({ id, first: true, total: records.length });
        sendChunks(records, chunkSize);
      } else {
        sendChunks(records);
      }
      post({ id, done: true, replace, warning });
      handedOn.settle();
    },
    (error: unknown) => {
      post({ id, error: { message: error instanceof Error ? error.message : String(error) } });
      handedOn.settle();
    },
  );
}
