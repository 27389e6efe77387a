/** `npm run bench`: every benchmark, one after the other; exit 1 when a budget is missed. */
import { runDomainBench } from './domain';
import { runSandboxBatchBench } from './sandbox-batch';

const domain = runDomainBench();
const sandbox = await runSandboxBatchBench();
if (!domain.withinBudget || !sandbox.withinBudget) process.exitCode = 1;
