import { ApiError } from '@/domain/api-error';
interface ErrorWithCode {
  code?: unknown;
  message?: unknown;
  cause?: unknown;
  statusCode?: unknown;
}

function asCoded(value: unknown): ErrorWithCode {
  return typeof value === 'object' && value !== null ? value : {};
}

/** undici's and Node's error codes for "no answer in time". */
const timeoutCodes = new Set(['UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT']);

const unreachableReasons: Record<string, string> = {
  ECONNREFUSED: 'connection refused',
  ENOTFOUND: 'host name not found',
  EAI_AGAIN: 'host name lookup failed',
  EHOSTUNREACH: 'host unreachable',
  ENETUNREACH: 'network unreachable',
  ECONNRESET: 'connection closed unexpectedly',
  UND_ERR_SOCKET: 'connection closed unexpectedly',
  UND_ERR_CONNECT_TIMEOUT: 'no answer to the connection attempt',
};

/** Failures that happen before a connection exists: the call certainly never reached the VMS. */
const notSentCodes = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'UND_ERR_CONNECT_TIMEOUT',
]);

/**
 * Whether a failed call may have reached the VMS. Only a failure to connect proves it did not; a
 * reset or a missing answer after the request was (perhaps) written leaves it open (decision 002).
 */
export function certainlyNotSent(error: unknown): boolean {
  const outer = asCoded(error);
  const cause = asCoded(outer.cause ?? error);
  return typeof cause.code === 'string' && notSentCodes.has(cause.code);
}

/**
 * Turns a failed upstream call (as undici reports it) into the portal's
 * answer: 504 when the VMS was too slow, 502 naming the host when it could not be reached.
 * A wrapped error's cause carries the code that says what happened.
 */
export function upstreamFailure(
  error: unknown,
  context: { host: string; timeoutMs: number; method: string },
): ApiError {
  const outer = asCoded(error);
  const cause = asCoded(outer.cause ?? error);
  const code = typeof cause.code === 'string' ? cause.code : '';
  const connectTimeout = code === 'UND_ERR_CONNECT_TIMEOUT';

  if (timeoutCodes.has(code) || (outer.statusCode === 504 && !connectTimeout)) {
    const advice =
      context.method === 'GET'
        ? 'Try again in a moment.'
        : 'It may still have received the batch: check the batch results before sending it again.';
    return new ApiError(
      'upstream_timeout',
      `The VMS at ${context.host} did not answer within ${context.timeoutMs} ms (VMS_TIMEOUT_MS). ${advice}`,
    );
  }

  const reason =
    unreachableReasons[code] ??
    (typeof cause.message === 'string' && cause.message ? cause.message : 'unknown error');
  return new ApiError(
    'upstream_unreachable',
    `Could not reach the VMS at ${context.host} (${reason}). Check that VMS_BASE_URL is right and the VMS is running, then try again.`,
    [{ field: 'upstream', message: code || reason }],
  );
}
