/** `npm run bench`: every benchmark, one after the other; exit 1 when a budget is missed. */
import { runBrowserBench } from './browser';
import { runDomainBench } from './domain';
import { runProxyBench } from './proxy';
import { runSandboxBatchBench } from './sandbox-batch';

const domain = runDomainBench();
const sandbox = await runSandboxBatchBench();
const proxy = await runProxyBench();
const browser = await runBrowserBench();
if (!domain.withinBudget || !sandbox.withinBudget || !proxy.withinBudget || !browser.withinBudget)
  process.exitCode = 1;
