import type { FastifyReply } from 'fastify';
import {
  apiErrorBody,
  apiErrorStatus,
  type ApiErrorCode,
  type ApiErrorDetail,
} from '../domain/api-error';

/**
 * A refusal the portal server answers itself, in the one error body shape. Thrown from handlers
 * and hooks; the app's error handler turns it into the response.
 */
export class PortalError extends Error {
  override name = 'PortalError';

  constructor(
    readonly code: ApiErrorCode,
    message: string,
    readonly details: ApiErrorDetail[] = [],
  ) {
    super(message);
  }

  toBody() {
    return apiErrorBody(this.code, this.message, this.details);
  }

  /** Read by Fastify and by plugins (rate-limit) that look for an HTTP status on errors. */
  get statusCode(): number {
    return apiErrorStatus(this.code);
  }
}

export function sendError(
  reply: FastifyReply,
  code: ApiErrorCode,
  message: string,
  details: ApiErrorDetail[] = [],
): FastifyReply {
  return reply.code(apiErrorStatus(code)).send(apiErrorBody(code, message, details));
}
