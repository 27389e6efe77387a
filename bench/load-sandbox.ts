/**
 * Load benchmark helper, run as a child process: the sandbox VMS on its own (startSandbox), at
 * processing delay 0, in the file BENCH_SANDBOX_DB, as the upstream every leg of the load bench
 * ends at. Its own process, so its event loop (and its batch worker) is shared with neither the
 * load generator nor the portals. The orchestrator counts what arrived in that file afterwards.
 *
 * It also times each call inside the VMS, from the request's arrival at its server to the last
 * byte of the answer handed to the socket: sends by the batch id they were answered with, results
 * polls by the batch id asked about, in order. Asked with the message 'timings', it answers them,
 * so the bench can take each call's time inside the VMS from its time seen by the user: what the
 * path in between (a proxy, the portal) added to that very call. It counts the results calls too,
 * and the most that were in flight at once (the watch bench holds that to WATCH_CONCURRENCY).
 */
import { Server, type IncomingMessage, type ServerResponse } from 'node:http';
import { startSandbox } from '@/sandbox';

const dbPath = process.env.BENCH_SANDBOX_DB;
if (!dbPath) throw new Error('BENCH_SANDBOX_DB is required');

const sends = new Map<string, number>();
const polls = new Map<string, number[]>();
/** Results calls: how many, the most at once, and when the first began and the last ended. */
const results = { count: 0, inFlight: 0, maxInFlight: 0, firstAt: 0, lastAt: 0 };

function time(request: IncomingMessage, response: ServerResponse): void {
  const start = performance.now();
  const url = request.url ?? '';
  if (request.method === 'POST') {
    let answer = '';
    const end = response.end.bind(response) as (...args: unknown[]) => ServerResponse;
    response.end = ((...args: unknown[]) => {
      const [chunk] = args;
      if (typeof chunk === 'string' || Buffer.isBuffer(chunk)) answer = chunk.toString();
      return end(...args);
    }) as typeof response.end;
    response.once('finish', () => {
      const batchId = /"batchid":"([^"]+)"/.exec(answer)?.[1];
      if (batchId) sends.set(batchId, performance.now() - start);
    });
  } else {
    const batchId = new URL(url, 'http://sandbox').searchParams.get('batchid');
    if (!batchId) return;
    results.count += 1;
    results.inFlight += 1;
    results.maxInFlight = Math.max(results.maxInFlight, results.inFlight);
    if (results.firstAt === 0) results.firstAt = start;
    response.once('close', () => {
      results.inFlight -= 1;
      results.lastAt = performance.now();
    });
    response.once('finish', () => {
      const list = polls.get(batchId) ?? [];
      list.push(performance.now() - start);
      polls.set(batchId, list);
    });
  }
}

/**
 * BENCH_RESULTS_DELAY_MS: each results call waits this long before the sandbox reads it, as a
 * real VMS takes its time to answer; calls then overlap, and the most in flight at once shows.
 */
const resultsDelayMs = Number(process.env.BENCH_RESULTS_DELAY_MS ?? 0);

// Before the sandbox makes its server: every request of every http.Server in this process.
const emit = Server.prototype.emit;
Server.prototype.emit = function (this: Server, event: string | symbol, ...args: unknown[]) {
  if (event !== 'request') return Reflect.apply(emit, this, [event, ...args]) as boolean;
  const request = args[0] as IncomingMessage;
  time(request, args[1] as ServerResponse);
  if (resultsDelayMs > 0 && request.method === 'GET' && request.url?.includes('batchid=')) {
    setTimeout(() => Reflect.apply(emit, this, [event, ...args]), resultsDelayMs);
    return true;
  }
  return Reflect.apply(emit, this, [event, ...args]) as boolean;
};

const sandbox = await startSandbox({ port: 0, dbPath, processingDelayMs: 0 });
process.send?.({ port: sandbox.port });
process.on('message', (message: unknown) => {
  if (message === 'timings') {
    const { inFlight: _inFlight, ...resultsCalls } = results;
    process.send?.({ timings: { sends: [...sends], polls: [...polls], results: resultsCalls } });
  }
});
process.on('disconnect', () => {
  void sandbox.close().then(() => process.exit(0));
});
