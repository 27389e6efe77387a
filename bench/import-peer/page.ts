/**
 * The peer page: the file chosen goes to the worker (peer.worker.ts), or to the portal-steps
 * profile when the address has `?steps`; the worker's figures are left in `window.__peer` for
 * the benchmark to read.
 */
import * as Comlink from 'comlink';
import { settingDefaults } from '@/domain/settings';
import type { PeerWorkerApi } from './peer.worker';

const worker = Comlink.wrap<PeerWorkerApi>(
  new Worker(new URL('./peer.worker.js', import.meta.url), { type: 'module' }),
);
const options = { dateFormat: settingDefaults.dateFormat, org: '1001' };
const steps = new URLSearchParams(location.search).has('steps');
const status = document.querySelector('[role="status"]');
const input = document.querySelector('input[type="file"]');

input?.addEventListener('change', async () => {
  const file = input instanceof HTMLInputElement ? input.files?.[0] : undefined;
  if (!file || !status) return;
  try {
    const result = steps
      ? await worker.portalSteps(file, options)
      : await worker.parseThenValidate(file, options);
    Object.assign(window, { __peer: result });
    status.textContent = 'done';
  } catch (error) {
    status.textContent = `failed: ${error instanceof Error ? error.stack : String(error)}`;
  }
});
