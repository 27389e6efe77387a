/** `npm run bench`: every benchmark, one after the other; exit 1 when a budget is missed. */
import { runDomainBench } from './domain';

const domain = runDomainBench();
if (!domain.withinBudget) process.exitCode = 1;
