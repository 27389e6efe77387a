/**
 * `npm run bench`: every benchmark, one after the other; exit 1 when a budget is missed.
 * `BENCH_ONLY=import npm run bench` (names comma-separated) runs only those: the whole is long.
 */
import { runAuditBench } from './audit-send';
import { runBrowserBench } from './browser';
import { runDatesBench } from './dates';
import { runDomainBench } from './domain';
import { runImportBench } from './import';
import { runLoadBench } from './load';
import { runPrivacyBench } from './privacy';
import { runProxyBench } from './proxy';
import { runSandboxBatchBench } from './sandbox-batch';
import { runSuitesBench } from './suites';
import { runValidatorBench } from './validator';
import { runWatchBench } from './watch';

const suites: Record<string, () => Promise<{ withinBudget: boolean }>> = {
  domain: async () => runDomainBench(),
  dates: async () => runDatesBench(),
  sandbox: runSandboxBatchBench,
  proxy: runProxyBench,
  audit: runAuditBench,
  validator: runValidatorBench,
  browser: runBrowserBench,
  import: runImportBench,
  load: runLoadBench,
  suites: runSuitesBench,
  watch: runWatchBench,
  privacy: runPrivacyBench,
};
const only = process.env.BENCH_ONLY?.split(',')
  .map((name) => name.trim())
  .filter((name) => name !== '');
const unknown = (only ?? []).filter((name) => !(name in suites));
if (unknown.length > 0) {
  console.error(
    `BENCH_ONLY names ${unknown.join(', ')}, which is no benchmark; choose from ${Object.keys(suites).join(', ')}.`,
  );
  process.exit(2);
}
let withinBudget = true;
for (const [name, run] of Object.entries(suites)) {
  if (only && !only.includes(name)) continue;
  const result = await run();
  withinBudget &&= result.withinBudget;
}
if (!withinBudget) process.exitCode = 1;
