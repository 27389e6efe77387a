/** `npm run bench`: every benchmark, one after the other; exit 1 when a budget is missed. */
import { runBrowserBench } from './browser';
import { runDomainBench } from './domain';
import { runProxyBench } from './proxy';
import { runSandboxBatchBench } from './sandbox-batch';
import { runValidatorBench } from './validator';

const domain = runDomainBench();
const sandbox = await runSandboxBatchBench();
const proxy = await runProxyBench();
const validator = await runValidatorBench();
const browser = await runBrowserBench();
if (![domain, sandbox, proxy, validator, browser].every((result) => result.withinBudget))
  process.exitCode = 1;
