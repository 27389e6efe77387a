/**
 * Load benchmark helper, run as a child process: the sandbox VMS on its own (startSandbox), at
 * processing delay 0, in the file BENCH_SANDBOX_DB, as the upstream every leg of the load bench
 * ends at. Its own process, so its event loop (and its batch worker) is shared with neither the
 * load generator nor the portals. The orchestrator counts what arrived in that file afterwards.
 */
import { startSandbox } from '../src/sandbox';

const dbPath = process.env.BENCH_SANDBOX_DB;
if (!dbPath) throw new Error('BENCH_SANDBOX_DB is required');

const sandbox = await startSandbox({ port: 0, dbPath, processingDelayMs: 0 });
process.send?.({ port: sandbox.port });
process.on('disconnect', () => {
  void sandbox.close().then(() => process.exit(0));
});
