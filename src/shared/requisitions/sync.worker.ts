/// <reference lib="webworker" />
import { z } from 'zod';
import type { RequisitionRecord } from '@/domain';
import type { PortalConfigResponse } from '@/domain/portal-config';
import { portalConfigSchema } from '@/domain/portal-config';
import { adoptConnection } from '@/shared/config/current-connection';
import { openRequisitionCopies } from './cache';
import { listRequestFrom, listRequestStores } from './list-request';
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

/** Starts the sync the page will ask for first, unless it is under way already. */
function startEarly(first: SyncRequest, connection: string | null | undefined): void {
  const key = keyOf(first, connection);
  if (early?.key === key) return;
  const handedOn = deferred();
  setTimeout(handedOn.settle, storeUnaskedAfterMs);
  const started: NonNullable<typeof early> = {
    key,
    stored: null,
    onStored: null,
    handedOn,
    result: syncRequisitions(first, {
      onStored: (records) => {
        if (started.onStored) started.onStored(records);
        else started.stored = records;
      },
      handedOn: () => handedOn.promise,
    }),
  };
  // Its failure is the page's to hear, when it joins; unjoined, it is nobody's.
  started.result.catch(() => undefined);
  early = started;
}

const startDataSchema = z.object({
  config: z.string().nullable(),
  storage: z.record(z.string(), z.string().nullable()),
});

/**
 * What the page's start script tells the worker it starts as the page is first drawn (before the
 * app's code has run): the settings in the page and the stored choices the first request
 * depends on (listRequestStores). The worker works out that request as the page will
 * (listRequestFrom) and starts it: the VMS's answer is then on its way ~200 ms sooner than when
 * the app's code has run and asks.
 */
function startFromPage({ config, storage }: z.infer<typeof startDataSchema>) {
  let settings: PortalConfigResponse | null = null;
  try {
    const parsed = portalConfigSchema.safeParse(JSON.parse(config ?? 'null'));
    settings = parsed.success ? parsed.data : null;
  } catch {
    settings = null;
  }
  if (!settings) return;
  const first = listRequestFrom(settings, {
    connection: listRequestStores.connection.read(
      storage[listRequestStores.connection.key] ?? null,
    ),
    clientOrg: listRequestStores.clientOrg.read(storage[listRequestStores.clientOrg.key] ?? null),
  });
  if (!first) return;
  adoptConnection(first.connection);
  startEarly(first.request, first.connection);
}

// Started by the page's start script with what it holds in this address's fragment.
if (scope.location.hash.length > 1) {
  try {
    const data = startDataSchema.safeParse(
      JSON.parse(decodeURIComponent(scope.location.hash.slice(1))),
    );
    // Anything else is not what the start script writes: the page asks when its code has run.
    if (data.success) startFromPage(data.data);
  } catch {
    // Not JSON: as above.
  }
}

scope.addEventListener(
  'message',
  (
    event: MessageEvent<{
      id: number;
      request?: SyncRequest;
      connection?: string | null;
      forget?: true;
      warm?: true;
      early?: SyncRequest;
    }>,
  ) => {
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
      ({ replace, records }) => {
        if (replace && !pageHas && records.length > chunkSize) {
          // A page with no list yet can draw its first rows from the first chunk, while it
          // takes in the rest (WorkerMessage's `first`).
          post({ id, chunk: records.slice(0, chunkSize) });
          post({ id, first: true, total: records.length });
          sendChunks(records, chunkSize);
        } else {
          sendChunks(records);
        }
        post({ id, done: true, replace });
        handedOn.settle();
      },
      (error: unknown) => {
        post({ id, error: { message: error instanceof Error ? error.message : String(error) } });
        handedOn.settle();
      },
    );
  },
);
