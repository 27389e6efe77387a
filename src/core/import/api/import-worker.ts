import * as Comlink from 'comlink';
import type { ImportWorkerApi } from '@/core/import/worker/import-api';

/**
 * The import's worker (one per page load, started when the import page first needs it), called
 * through Comlink: each method of import-api.ts becomes a promise here.
 */
let remote: Comlink.Remote<ImportWorkerApi> | null = null;

export function importWorker(): Comlink.Remote<ImportWorkerApi> {
  remote ??= Comlink.wrap<ImportWorkerApi>(
    new Worker(new URL('../worker/import.worker.ts', import.meta.url), {
      type: 'module',
      name: 'import',
    }),
  );
  return remote;
}
