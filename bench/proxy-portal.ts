/**
 * Proxy benchmark helper, run as a child process: the real portal server (buildPortal, as
 * `npm start` builds it) in front of the bench upstream. Logs go to a file, one line per call,
 * as nginx's access log does in the nginx leg. BENCH_JOURNAL=off starts it with JOURNAL=off: the
 * baseline the call journal's cost is measured against.
 */
import pino from 'pino';
import { buildPortal } from '@/server/app';
import { loadConfig } from '@/server/config';

const upstreamUrl = process.env.BENCH_UPSTREAM_URL;
const logFile = process.env.BENCH_LOG_FILE;
if (!upstreamUrl || !logFile) throw new Error('BENCH_UPSTREAM_URL and BENCH_LOG_FILE are required');

const config = loadConfig({
  VMS_BASE_URL: upstreamUrl,
  VMS_API_KEY: 'bench-key',
  VMS_API_SECRET: 'bench-secret',
  VMS_CLIENT_ORG_IDS: '1001,1002',
  VMS_VENDOR_ORG_ID: '9001',
  // The limiter stays in the path (its cost is measured) but never refuses a bench request.
  PORTAL_RATE_LIMIT_PER_MINUTE: '1000000',
  // A real file beside the log: each keyed call writes its key there (and, with the journal on,
  // the call), as in production.
  PORTAL_DB: `${logFile}.portal.db`,
  JOURNAL: process.env.BENCH_JOURNAL ?? 'on',
});
const app = buildPortal(config, {
  // Synchronous writes, one per line, as pino does on stdout and nginx does for its access log.
  logStream: pino.destination({ dest: logFile, sync: true }),
});
await app.listen({ port: 0, host: '127.0.0.1' });
const address = app.server.address();
process.send?.({ port: typeof address === 'object' && address ? address.port : 0 });
process.on('disconnect', () => {
  void app.close().then(() => process.exit(0));
});
// The orchestrator asks for CPU time around each measurement: per-request cost, free of noise
// from whatever else the machine is running.
process.on('message', (message: unknown) => {
  if (message === 'cpu') process.send?.({ cpu: process.cpuUsage() });
  // Whether the journal kept every call it was handed: figures of a journal that fell behind and
  // let calls go unrecorded would be of one that keeps less than it promises.
  if (message === 'journal') {
    void (app.journal?.flush() ?? Promise.resolve()).then(() =>
      process.send?.({
        journal: {
          written: app.journal?.written ?? 0,
          unrecorded: app.journal?.unrecordedCalls ?? 0,
        },
      }),
    );
  }
});
