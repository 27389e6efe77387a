import rateLimit, { type RateLimitPluginOptions } from '@fastify/rate-limit';
import type { FastifyInstance } from 'fastify';
import { ApiError } from '@/domain/api-error';

export interface MinuteLimit {
  /** Calls a minute from one key. */
  max: number;
  /** Whom a count is for; the plugin's default, the caller's address, when absent. */
  keyGenerator?: RateLimitPluginOptions['keyGenerator'];
  /** The 429's message, given the limit and how long until it lets calls through again. */
  message: (max: number, after: string) => string;
}

/**
 * A limit on calls a minute for every route of `app`'s scope, refused with 429 `rate_limited`.
 * Not per route: the plugin would add its hook to each route's own, which run after this
 * scope's, after the sign-in check; a hook of this scope counts from where it is added.
 */
export async function limitPerMinute(app: FastifyInstance, limit: MinuteLimit): Promise<void> {
  await app.register(rateLimit, {
    global: false,
    max: limit.max,
    timeWindow: 60_000,
    ...(limit.keyGenerator ? { keyGenerator: limit.keyGenerator } : {}),
    // The x-ratelimit-* headers go on the 429 only: the browser has no use for them on every
    // answer, and leaving them off saves work on each call.
    addHeadersOnExceeding: {
      'x-ratelimit-limit': false,
      'x-ratelimit-remaining': false,
      'x-ratelimit-reset': false,
    },
    errorResponseBuilder: (_request, context) =>
      new ApiError('rate_limited', limit.message(context.max, context.after)),
  });
  app.addHook('onRequest', app.rateLimit());
}
