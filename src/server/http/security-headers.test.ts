import { createServer, request, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import Fastify from 'fastify';
import helmet from 'helmet';
import { describe, expect, it } from 'vitest';
import { registerPageHeaders } from './security-headers';

const options = {
  contentSecurityPolicy: { useDefaults: false, directives: { defaultSrc: ["'self'"] } },
  frameguard: { action: 'deny' as const },
  strictTransportSecurity: false,
};

/** The headers helmet's own middleware gives an answer, from a plain node:http server. */
async function helmetsOwn(): Promise<IncomingHttpHeaders> {
  const middleware = helmet(options);
  const server = createServer((req, res) => middleware(req, res, () => res.end('ok')));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  try {
    const { port } = server.address() as AddressInfo;
    return await new Promise((resolve, reject) => {
      request({ port, host: '127.0.0.1', path: '/' }, (res) => {
        res.resume();
        resolve(res.headers);
      })
        .on('error', reject)
        .end();
    });
  } finally {
    server.close();
  }
}

/** The security headers among an answer's (the transport's own left out). */
function security(headers: Record<string, unknown>): Record<string, unknown> {
  const transport = ['date', 'connection', 'keep-alive', 'content-length', 'content-type'];
  return Object.fromEntries(Object.entries(headers).filter(([name]) => !transport.includes(name)));
}

describe('page headers', () => {
  it("gives pages and the not-found answer the headers helmet's own middleware gives, and no others", async () => {
    const expected = security(await helmetsOwn());
    expect(expected['content-security-policy']).toBe("default-src 'self'");

    const app = Fastify();
    registerPageHeaders(app, options);
    app.get('/page', async () => 'ok');
    for (const url of ['/page', '/nowhere']) {
      const res = await app.inject(url);
      expect(security(res.headers)).toEqual(expected);
    }
  });

  it('leaves them off a route that opts out (it sets its own)', async () => {
    const app = Fastify();
    registerPageHeaders(app, options);
    app.get('/api/data', { config: { pageHeaders: false } }, async (_request, reply) =>
      reply.header('content-security-policy', "default-src 'none'").send({}),
    );
    const res = await app.inject('/api/data');
    expect(res.headers['content-security-policy']).toBe("default-src 'none'");
    expect(res.headers['x-frame-options']).toBeUndefined();
  });
});
