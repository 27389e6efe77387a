import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyInstance } from 'fastify';
import helmet, { type HelmetOptions } from 'helmet';

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * false: the route's scope sets its own, stricter headers (api-guards.ts: the proxy, the
     * journal, the audit trail), and the page headers are not added.
     */
    pageHeaders?: boolean;
  }
}

/** What helmet's middleware does to an answer: the headers it sets, and those it removes. */
export interface PageHeaders {
  set: Record<string, string>;
  removed: string[];
}

/**
 * The headers helmet sets for `options`, read once by running its middleware on a stand-in answer.
 * With options that give no directive as a function (the portal's), they are the same for every
 * request, so each answer gets a copy of them rather than a run of the middleware.
 */
export function pageHeaders(options: Readonly<HelmetOptions>): PageHeaders {
  const headers: PageHeaders = { set: {}, removed: [] };
  const answer = {
    setHeader(name: string, value: unknown) {
      headers.set[name.toLowerCase()] = String(value);
    },
    removeHeader(name: string) {
      headers.removed.push(name.toLowerCase());
    },
  };
  helmet(options)({} as IncomingMessage, answer as unknown as ServerResponse, (error?: unknown) => {
    if (error) throw error;
  });
  return headers;
}

/**
 * helmet's security headers on every answer whose route does not opt out (`config: { pageHeaders:
 * false }`), the not-found handler's and errors' included, from one synchronous hook. Not
 * @fastify/helmet: its hook stores a new closure on every reply, routes that opt out included, and
 * in V8 that kept each request's objects, its 31 KB body among them, alive until a full
 * collection: in bench/proxy.ts a full GC every ~0.5 s and ~80 µs of CPU a proxied call.
 */
export function registerPageHeaders(app: FastifyInstance, options: Readonly<HelmetOptions>): void {
  const { set, removed } = pageHeaders(options);
  app.addHook('onRequest', (request, reply, done) => {
    if (request.routeOptions.config.pageHeaders !== false) {
      reply.headers(set);
      for (const name of removed) reply.removeHeader(name);
    }
    done();
  });
}
