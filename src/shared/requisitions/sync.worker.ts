/// <reference lib="webworker" />

/*
 * The list's worker, started by the page's start script as the page is first drawn (or by the
 * list's code, sync-client.ts). Its code loads in two steps: first, with what the start script
 * wrote in this address's fragment, the list of a first visit is asked for (first-load.ts), so
 * the VMS's answer is on its way while the rest (sync-worker.ts) loads.
 *
 * Both are imported, not loaded with this file: this file must hold nothing another module
 * imports. A module shared by the two, bundled into this file, made the rest import this file
 * again, at its address without the fragment, and run it a second time (two requests for the
 * list).
 */
const scope = self as unknown as DedicatedWorkerGlobalScope;

// What the page asks meanwhile waits for the worker's code.
const waiting: MessageEvent[] = [];
const wait = (event: MessageEvent) => waiting.push(event);
scope.addEventListener('message', wait);

const rest = import('./sync-worker');
import('./first-load')
  .then(async ({ readStartData, startFirstLoad }) => {
    const data = readStartData(scope.location.hash);
    const first = data ? await startFirstLoad(data) : null;
    const { runWorker } = await rest;
    scope.removeEventListener('message', wait);
    runWorker(data, first, waiting);
  })
  .catch((error: unknown) => {
    // Code that could not load: thrown where the page hears it (the Worker's `error` event), and
    // the page does the work itself (sync-client.ts).
    setTimeout(() => {
      throw error;
    });
  });
