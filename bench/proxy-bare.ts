/**
 * Proxy benchmark helper, run as a child process: the "bare Node `http` pass-through", the
 * floor for any proxy written in Node. A `node:http` server that pipes each request to the bench
 * upstream over kept-alive connections and pipes the answer back: no checks, no signing, no
 * logging, no framework. What our proxy costs beyond this is what its features cost.
 */
import { Agent, createServer, request } from 'node:http';

const upstreamUrl = process.env.BENCH_UPSTREAM_URL;
if (!upstreamUrl) throw new Error('BENCH_UPSTREAM_URL is required');
const upstream = new URL(upstreamUrl);
const agent = new Agent({ keepAlive: true, maxSockets: 64 });

const server = createServer((req, res) => {
  const outgoing = request(
    {
      host: upstream.hostname,
      port: upstream.port,
      method: req.method,
      path: req.url,
      headers: req.headers,
      agent,
    },
    (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    },
  );
  outgoing.on('error', () => {
    if (!res.headersSent) res.writeHead(502);
    res.end();
  });
  req.pipe(outgoing);
});
server.keepAliveTimeout = 60_000;

server.listen(0, '127.0.0.1', () => {
  const address = server.address();
  process.send?.({ port: typeof address === 'object' && address ? address.port : 0 });
});
process.on('message', (m: unknown) => {
  if (m === 'cpu') process.send?.({ cpu: process.cpuUsage() });
});
process.on('disconnect', () => process.exit(0));
