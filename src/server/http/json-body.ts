import type { FastifyInstance } from 'fastify';
import type { z } from 'zod';
import { ApiError } from '../../domain/api-error';

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

/** Parses a request body with its schema; a 400 that says what is wrong, field by field. */
export function parseBody<S extends z.ZodType>(schema: S, body: unknown): z.output<S> {
  const parsed = schema.safeParse(body);
  if (parsed.success) return parsed.data;
  throw new ApiError(
    'invalid_body',
    parsed.error.issues.map((issue) => issue.message).join(' '),
    parsed.error.issues.map((issue) => ({
      field: issue.path.join('.') || 'body',
      message: issue.message,
    })),
  );
}
