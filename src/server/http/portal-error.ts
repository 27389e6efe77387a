import type { FastifyReply } from 'fastify';
import {
  apiErrorBody,
  apiErrorStatus,
  type ApiErrorCode,
  type ApiErrorDetail,
} from '@/domain/api-error';

/** Answers with the one error body shape (the error handler's path for Fastify's own errors). */
export function sendError(
  reply: FastifyReply,
  code: ApiErrorCode,
  message: string,
  details: ApiErrorDetail[] = [],
): FastifyReply {
  return reply.code(apiErrorStatus(code)).send(apiErrorBody(code, message, details));
}
