import type { FastifyInstance } from 'fastify';
import { ApiError } from '@/domain/api-error';
import { apiErrorBody, apiErrorStatus } from '@/domain/api-error';
import { describeOperations } from '@/domain/vms-contract';
import { isStorageFailure } from './storage-failure';

export const bodyLimitBytes = 5 * 1024 * 1024;

const operations = describeOperations('/');

function codeOf(error: unknown): string | undefined {
  return error instanceof Error && 'code' in error && typeof error.code === 'string'
    ? error.code
    : undefined;
}

/** Fastify's own refusals (body parsing, limits) in the project's words and error body. */
function asSandboxError(error: unknown, contentType: string | undefined): ApiError {
  if (error instanceof ApiError) return error;
  switch (codeOf(error)) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return new ApiError(
        'body_too_large',
        'The body is larger than 5 MB, the most the sandbox accepts in one request; split the ' +
          'items into several smaller batches.',
      );
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return new ApiError(
        'malformed_request',
        `The body must be JSON sent with Content-Type: application/json, but the Content-Type is ` +
          `${contentType ? `'${contentType}'` : 'missing'}; set the header and send a JSON array.`,
      );
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return new ApiError(
        'malformed_request',
        'The body is empty; send a JSON array of objects, one per item.',
      );
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return new ApiError(
        'malformed_request',
        'The body is not valid JSON; send a JSON array of objects, one per item (check quotes, ' +
          'commas and brackets).',
      );
  }
  if (isStorageFailure(error)) {
    return new ApiError(
      'store_unavailable',
      `The sandbox could not store this request (its database failed: ${error instanceof Error ? error.message : String(error)}); nothing was stored. Try again later.`,
    );
  }
  if (error instanceof SyntaxError) {
    return new ApiError(
      'malformed_request',
      'The body is not valid JSON; send a JSON array of objects, one per item.',
    );
  }
  return new ApiError(
    'internal_error',
    'The sandbox failed to answer this request (an internal error, see its log); try again.',
  );
}

export function registerErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((error: unknown, request, reply) => {
    const refusal = asSandboxError(error, request.headers['content-type']);
    if (refusal.code === 'internal_error' || refusal.code === 'store_unavailable') {
      request.log.error({ err: error }, 'sandbox failure');
    }
    return reply
      .code(apiErrorStatus(refusal.code))
      .send(apiErrorBody(refusal.code, refusal.message, refusal.details));
  });

  app.setNotFoundHandler((request, reply) => {
    const path = request.url.split('?')[0] ?? request.url;
    return reply
      .code(404)
      .send(
        apiErrorBody(
          'not_found',
          `There is no operation ${request.method} ${path}; the sandbox answers ${operations}.`,
        ),
      );
  });
}
