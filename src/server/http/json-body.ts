import type { FastifyInstance } from 'fastify';

/**
 * Bodies are JSON only (decision 026): Fastify's own text/plain parser is removed, so a form
 * another site posts (text/plain, urlencoded, multipart: no CORS preflight) is 415 before it is
 * read, and a JSON body from another origin needs a preflight the portal never grants.
 */
export function acceptJsonOnly(app: FastifyInstance): void {
  app.removeAllContentTypeParsers();
  app.addContentTypeParser(
    'application/json',
    { parseAs: 'string' },
    app.getDefaultJsonParser('error', 'error'),
  );
}
