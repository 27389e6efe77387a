import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { existsSync } from 'node:fs';
import { join, sep } from 'node:path';
import { sendError } from '../http/portal-error';
import { indexPages } from './route-preloads';

function acceptsHtml(request: FastifyRequest): boolean {
  return request.headers.accept?.includes('text/html') ?? false;
}

/** Paths that are never client routes: the API, and build output that may have gone stale. */
function isServerPath(path: string): boolean {
  return path === '/api' || path.startsWith('/api/') || path.startsWith('/assets/');
}

/**
 * Serves the built single-page app. Hashed files under /assets never change, so browsers may keep
 * them for a year; everything else (index.html above all) is revalidated on each load so a new
 * build is picked up at once. Files are sent brotli- or gzip-compressed from the copies the build
 * made (scripts/precompress.ts) when the browser accepts it. Unknown non-API paths that ask for
 * HTML get index.html with the settings and that page's preloads (route-preloads.ts): they are
 * client routes. A missing build is answered with a 503 that says how to make one.
 * Called on the root instance: its not-found handler is the whole app's (API 404s included).
 */
export function serveSpa(app: FastifyInstance, distDir: string, configBody: unknown): void {
  const built = existsSync(join(distDir, 'index.html'));
  const assetsDir = join(distDir, 'assets') + sep;
  const indexPage = built ? indexPages(distDir, configBody) : null;

  if (built) {
    app.register(fastifyStatic, {
      root: distDir,
      preCompressed: true,
      cacheControl: false,
      setHeaders: (reply, filePath) => {
        reply.header(
          'cache-control',
          filePath.startsWith(assetsDir) ? 'public, max-age=31536000, immutable' : 'no-cache',
        );
      },
    });
  }

  app.setNotFoundHandler((request, reply) => {
    const path = request.url.split('?')[0] ?? '/';
    const clientRoute =
      (request.method === 'GET' || request.method === 'HEAD') &&
      !isServerPath(path) &&
      (path === '/' || acceptsHtml(request));
    if (clientRoute && indexPage) {
      return reply
        .type('text/html; charset=utf-8')
        .header('cache-control', 'no-cache')
        .send(indexPage(path));
    }
    if (clientRoute) {
      return sendError(
        reply,
        'app_not_built',
        `The portal app has not been built, so there is nothing to show at ${path}. Run "npm run build" (or "npm start", which builds first), then reload this page.`,
      );
    }
    return sendError(reply, 'not_found', `There is nothing at ${request.method} ${path}.`);
  });
}
