/**
 * Proxy benchmark helper, run as a child process: the peer the portal's proxy is held to, a
 * minimal but correct signing proxy, as anyone would write one with Fastify and undici. It reads
 * the body, parses it, checks it is an array of objects, signs the call (lowercase hex SHA-256 of
 * key + secret + Unix seconds), forwards it over kept-alive connections and returns the answer.
 * What the portal costs beyond this is what its own features cost: org checks, durable
 * idempotency keys, the call journal, credential scrubbing, the per-call log line, sign-in hooks.
 * For the load bench it also passes a batch's results on (GET requisitionresults), and signs
 * with BENCH_API_KEY and BENCH_API_SECRET when they are set (the sandbox's demo pair).
 */
import { createHash } from 'node:crypto';
import Fastify from 'fastify';
import { Pool } from 'undici';

const upstreamUrl = process.env.BENCH_UPSTREAM_URL;
if (!upstreamUrl) throw new Error('BENCH_UPSTREAM_URL is required');
const upstream = new URL(upstreamUrl);
const pool = new Pool(upstream.origin, { connections: 128, pipelining: 1 });
// The load bench points it at the sandbox, with the sandbox's demo pair.
const apiKey = process.env.BENCH_API_KEY ?? 'bench-key';
const secret = process.env.BENCH_API_SECRET ?? 'bench-secret';

const app = Fastify({ logger: false, bodyLimit: 5 * 1024 * 1024 });
app.removeAllContentTypeParsers();
app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (_request, body, done) =>
  done(null, body),
);

const isArrayOfObjects = (value: unknown) =>
  Array.isArray(value) &&
  value.every((item) => typeof item === 'object' && item !== null && !Array.isArray(item));

app.post('/api/vms/requisitionimport', async (request, reply) => {
  const body = request.body as Buffer;
  let parsed: unknown;
  try {
    parsed = JSON.parse(body.toString('utf8'));
  } catch {
    return reply.code(400).send({ error: 'not JSON' });
  }
  if (!isArrayOfObjects(parsed)) return reply.code(400).send({ error: 'not an array of objects' });
  const seconds = Math.floor(Date.now() / 1000);
  const signature = createHash('sha256').update(`${apiKey}${secret}${seconds}`).digest('hex');
  const query = request.url.slice(request.url.indexOf('?'));
  const answer = await pool.request({
    method: 'POST',
    path: `${upstream.pathname}requisitionimport${query}`,
    headers: {
      accept: 'application/json',
      'content-type': 'application/json',
      'x-api-key': apiKey,
      'x-signature': signature,
    },
    body,
  });
  const bytes = Buffer.from(await answer.body.arrayBuffer());
  reply.code(answer.statusCode);
  const type = answer.headers['content-type'];
  if (typeof type === 'string') reply.header('content-type', type);
  return reply.send(bytes);
});

// A batch's results, for the load bench's users polling through it: signed and passed on.
app.get('/api/vms/requisitionresults', async (request, reply) => {
  const seconds = Math.floor(Date.now() / 1000);
  const signature = createHash('sha256').update(`${apiKey}${secret}${seconds}`).digest('hex');
  const query = request.url.slice(request.url.indexOf('?'));
  const answer = await pool.request({
    method: 'GET',
    path: `${upstream.pathname}requisitionresults${query}`,
    headers: { accept: 'application/json', 'x-api-key': apiKey, 'x-signature': signature },
  });
  const bytes = Buffer.from(await answer.body.arrayBuffer());
  reply.code(answer.statusCode);
  const type = answer.headers['content-type'];
  if (typeof type === 'string') reply.header('content-type', type);
  return reply.send(bytes);
});

await app.listen({ port: 0, host: '127.0.0.1' });
const address = app.server.address();
process.send?.({ port: typeof address === 'object' && address ? address.port : 0 });
process.on('message', (message: unknown) => {
  if (message === 'cpu') process.send?.({ cpu: process.cpuUsage() });
});
process.on('disconnect', () => {
  void app.close().then(() => process.exit(0));
});
