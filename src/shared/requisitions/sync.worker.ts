/// <reference lib="webworker" />
import { readStartData, startFirstLoad } from './first-load';

/*
 * The list's worker, started by the page's start script as the page is first drawn (or by the
 * list's code, sync-client.ts). Its own code loads in a second step: first, with what the start
 * script wrote in this address's fragment, the list of a first visit is asked for
 * (first-load.ts), so the VMS's answer is on its way while the rest loads.
 */
const scope = self as unknown as DedicatedWorkerGlobalScope;

// What the page asks meanwhile waits for the worker's code.
const waiting: MessageEvent[] = [];
const wait = (event: MessageEvent) => waiting.push(event);
scope.addEventListener('message', wait);

const data = readStartData(scope.location.hash);
const firstLoad = data ? startFirstLoad(data) : Promise.resolve(null);
// The rest of the worker's code takes over once it has loaded, with what the page asked meanwhile.
Promise.all([import('./sync-worker'), firstLoad]).then(
  ([{ runWorker }, first]) => {
    scope.removeEventListener('message', wait);
    runWorker(data, first, waiting);
  },
  (error: unknown) => {
    // Code that could not load: thrown where the page hears it (the Worker's `error` event), and
    // the page does the work itself (sync-client.ts).
    setTimeout(() => {
      throw error;
    });
  },
);
