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
 * path in between (a proxy, the portal) added to that very call.
 */
import { Server, type IncomingMessage, type ServerResponse } from 'node:http';
import { startSandbox } from '@/sandbox';

const dbPath = process.env.BENCH_SANDBOX_DB;
if (!dbPath) throw new Error('BENCH_SANDBOX_DB is required');

const sends = new Map<string, number>();
const polls = new Map<string, number[]>();

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
    response.once('finish', () => {
      const list = polls.get(batchId) ?? [];
      list.push(performance.now() - start);
      polls.set(batchId, list);
    });
  }
}

// Before the sandbox makes its server: every request of every http.Server in this process.
const emit = Server.prototype.emit;
Server.prototype.emit = function (this: Server, event: string | symbol, ...args: unknown[]) {
  if (event === 'request') time(args[0] as IncomingMessage, args[1] as ServerResponse);
  return Reflect.apply(emit, this, [event, ...args]) as boolean;
};

const sandbox = await startSandbox({ port: 0, dbPath, processingDelayMs: 0 });
process.send?.({ port: sandbox.port });
process.on('message', (message: unknown) => {
  if (message === 'timings') {
    process.send?.({ timings: { sends: [...sends], polls: [...polls] } });
  }
});
process.on('disconnect', () => {
  void sandbox.close().then(() => process.exit(0));
});
