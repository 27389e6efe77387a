/**
 * What the two bench peers (proxy-peer.ts, proxy-floor.ts) do alike, as anyone would write a
 * signing proxy with Fastify and undici: take the body as bytes, check it is a JSON array of
 * objects, sign each call (lowercase hex SHA-256 of key + secret + Unix seconds), forward it over
 * kept-alive connections, and tell the bench their port and, when asked, their CPU time.
 */
import { createHash } from 'node:crypto';
import Fastify, { type FastifyInstance, type FastifyReply } from 'fastify';
import { Pool } from 'undici';

export interface Upstream {
  pool: Pool;
  url: URL;
  apiKey: string;
  secret: string;
}

export function upstreamFromEnv(): Upstream {
  const upstreamUrl = process.env.BENCH_UPSTREAM_URL;
  if (!upstreamUrl) throw new Error('BENCH_UPSTREAM_URL is required');
  const url = new URL(upstreamUrl);
  return {
    pool: new Pool(url.origin, { connections: 128, pipelining: 1 }),
    url,
    // The load bench points the peer at the sandbox, with the sandbox's demo pair.
    apiKey: process.env.BENCH_API_KEY ?? 'bench-key',
    secret: process.env.BENCH_API_SECRET ?? 'bench-secret',
  };
}

/** A Fastify app that hands a JSON body over as the bytes that came. */
export function bytesApp(): FastifyInstance {
  const app = Fastify({ logger: false, bodyLimit: 5 * 1024 * 1024 });
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (_request, body, done) =>
    done(null, body),
  );
  return app;
}

/** Null when the bytes are a JSON array of objects, else what is wrong. */
export function batchProblem(body: Buffer): string | null {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body.toString('utf8'));
  } catch {
    return 'not JSON';
  }
  const objects =
    Array.isArray(parsed) &&
    parsed.every((item) => typeof item === 'object' && item !== null && !Array.isArray(item));
  return objects ? null : 'not an array of objects';
}

export interface Answer {
  status: number;
  contentType: string | null;
  bytes: Buffer;
}

/** Signs and forwards one call to `operation`, with the query the browser sent. */
export async function forwardSigned(
  upstream: Upstream,
  method: 'GET' | 'POST',
  operation: string,
  url: string,
  body?: Buffer,
): Promise<Answer> {
  const seconds = Math.floor(Date.now() / 1000);
  const signature = createHash('sha256')
    .update(`${upstream.apiKey}${upstream.secret}${seconds}`)
    .digest('hex');
  const queryAt = url.indexOf('?');
  const answer = await upstream.pool.request({
    method,
    path: `${upstream.url.pathname}${operation}${queryAt < 0 ? '' : url.slice(queryAt)}`,
    headers: {
      accept: 'application/json',
      ...(body ? { 'content-type': 'application/json' } : {}),
      'x-api-key': upstream.apiKey,
      'x-signature': signature,
    },
    ...(body ? { body } : {}),
  });
  const type = answer.headers['content-type'];
  return {
    status: answer.statusCode,
    contentType: typeof type === 'string' ? type : null,
    bytes: Buffer.from(await answer.body.arrayBuffer()),
  };
}

/** Passes an answer on as it came. */
export function sendAnswer(reply: FastifyReply, answer: Answer): FastifyReply {
  reply.code(answer.status);
  if (answer.contentType) reply.header('content-type', answer.contentType);
  return reply.send(answer.bytes);
}

/** Listens, tells the bench its port, answers its requests for CPU time, closes when it goes. */
export async function serveForBench(app: FastifyInstance): Promise<void> {
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  process.send?.({ port: typeof address === 'object' && address ? address.port : 0 });
  process.on('message', (message: unknown) => {
    if (message === 'cpu') process.send?.({ cpu: process.cpuUsage() });
  });
  process.on('disconnect', () => {
    void app.close().then(() => process.exit(0));
  });
}
