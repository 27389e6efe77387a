import { join, sep } from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { displayCookieName, displayFromCookie } from '@/domain/display';
import type { PageShell } from '@/domain/page-shell';
import { cookieValues } from '@/server/accounts/session-cookie';
import { sendError } from '@/server/http/portal-error';
import { indexPages, type BuiltPages } from './route-preloads';

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
 * HTML get index.html with the settings, that page's preloads and its prerendered page in the
 * shell `shellFor` chooses for the request (route-preloads.ts, decision 040): they are client
 * routes. `built` is null when there is no build: those are answered with a 503 that says how to
 * make one. Called on the root instance: its not-found handler is the whole app's (API 404s
 * included).
 */
export function serveSpa(
  app: FastifyInstance,
  distDir: string,
  built: BuiltPages | null,
  configBody: unknown,
  shellFor: (request: FastifyRequest, reply: FastifyReply) => Promise<PageShell | null>,
): void {
  const assetsDir = join(distDir, 'assets') + sep;
  const indexPage = built ? indexPages(built, configBody) : null;

  /** The page at `path`, for this request's session. */
  const sendPage = async (request: FastifyRequest, reply: FastifyReply, path: string) => {
    if (!indexPage) {
      return sendError(
        reply,
        'app_not_built',
        `The portal app has not been built, so there is nothing to show at ${path}. Run "npm run build" (or "npm start", which builds first), then reload this page.`,
      );
    }
    const shell = await shellFor(request, reply);
    return (
      reply
        .type('text/html; charset=utf-8')
        .header('cache-control', 'no-cache')
        // The shell depends on the session cookie, the display on its own.
        .header('vary', 'Cookie')
        .send(
          indexPage(path, shell, displayFromCookie(cookieValues(request, displayCookieName)[0])),
        )
    );
  };

  if (built) {
    app.register(fastifyStatic, {
      root: distDir,
      preCompressed: true,
      cacheControl: false,
      // `/` is a client route like any other, not dist/index.html as it is (below).
      index: false,
      setHeaders: (reply, filePath) => {
        reply.header(
          'cache-control',
          filePath.startsWith(assetsDir) ? 'public, max-age=31536000, immutable' : 'no-cache',
        );
      },
    });
  }
  // Before the static files' wildcard, which would answer a folder with 403.
  app.get('/', (request, reply) => sendPage(request, reply, '/'));

  app.setNotFoundHandler(async (request, reply) => {
    const path = request.url.split('?')[0] ?? '/';
    const clientRoute =
      (request.method === 'GET' || request.method === 'HEAD') &&
      !isServerPath(path) &&
      (path === '/' || acceptsHtml(request));
    if (clientRoute) return sendPage(request, reply, path);
    return sendError(reply, 'not_found', `There is nothing at ${request.method} ${path}.`);
  });
}
