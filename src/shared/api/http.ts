import type { z } from 'zod';
import type { ApiErrorDetail } from '@/domain/api-error';
import { apiErrorBodySchema } from '@/domain/api-error';
import { currentConnection } from '@/shared/config/current-connection';
import { requestHeaders } from './request-headers';

/**
 * Every call the browser makes goes to its own origin (`/api/...`) through here, so every
 * failure reaches the user as one kind of error with a message that says what is wrong and what
 * to do, and every answer is parsed with a schema: what crosses a boundary is checked where it
 * arrives, never trusted.
 */
export type FailureKind = 'offline' | 'timeout' | 'http' | 'shape';

export class RequestFailure extends Error {
  override name = 'RequestFailure';
  constructor(
    readonly kind: FailureKind,
    message: string,
    readonly status: number | null = null,
    readonly code: string | null = null,
    readonly details: readonly ApiErrorDetail[] = [],
    /** The answer's JSON as sent (a 409's current version, say); undefined when none. */
    readonly body: unknown = undefined,
  ) {
    super(message);
  }
}

/** The portal server waits up to 30 s for the VMS (VMS_TIMEOUT_MS); wait a little longer. */
export const defaultTimeoutMs = 40_000;

export interface RequestOptions {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  body?: unknown;
  headers?: Record<string, string>;
  /** TanStack Query's signal: a cancelled query is not an error to show. */
  signal?: AbortSignal;
  timeoutMs?: number;
  /** The same call, sent already (with requestHeaders): its answer is taken instead of asking. */
  started?: StartedRequest;
}

/** A GET sent before its caller was ready for it, and how to cancel it. */
export interface StartedRequest {
  response: Promise<Response>;
  abort(): void;
}

export interface JsonAnswer<T> {
  status: number;
  data: T;
  headers: Headers;
  /** The body exactly as received (the results' Raw tab shows it). */
  text: string;
}

/**
 * The CSRF token of this browser's session: sent in `x-csrf-token` on every call that
 * changes something. Read from `GET /api/session` the first time one is made, and again when the
 * server refuses it (a new session after signing in).
 */
let csrfToken: Promise<string | null> | null = null;

async function readCsrfToken(): Promise<string | null> {
  try {
    const response = await fetch('/api/session', {
      headers: { accept: 'application/json' },
      credentials: 'same-origin',
    });
    if (!response.ok) return null;
    const body = (await response.json()) as { csrfToken?: unknown };
    return typeof body.csrfToken === 'string' ? body.csrfToken : null;
  } catch {
    return null;
  }
}

/** Sets the token (the session query read it) or forgets it (null: read again when needed). */
export function setCsrfToken(token: string | null): void {
  csrfToken = token === null ? null : Promise.resolve(token);
}

const changing = (method: string) => method !== 'GET' && method !== 'HEAD';

/** Listeners told when the server says the session is gone (401): the app shows sign-in. */
const signedOutListeners = new Set<() => void>();
export function onSignedOut(listener: () => void): () => void {
  signedOutListeners.add(listener);
  return () => signedOutListeners.delete(listener);
}

function combine(signals: AbortSignal[]): AbortSignal {
  return signals.length === 1 && signals[0] ? signals[0] : AbortSignal.any(signals);
}

function snippet(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > 160 ? `${flat.slice(0, 160)}…` : flat;
}

function firstIssue(error: z.ZodError): string {
  const issue = error.issues[0];
  if (!issue) return 'no detail';
  const where = issue.path.length > 0 ? `at ${issue.path.join('.')}: ` : '';
  return `${where}${issue.message}`;
}

/** A non-2xx answer as a failure: the server's own message when it sent our error body. */
export async function failureFromResponse(
  response: Response,
  what: string,
): Promise<RequestFailure> {
  const text = await response.text().catch(() => '');
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  const body = apiErrorBodySchema.safeParse(json);
  if (body.success) {
    const { code, message, details } = body.data.error;
    return new RequestFailure('http', message, response.status, code, details, json);
  }
  const statusText = `${response.status}${response.statusText ? ` ${response.statusText}` : ''}`;
  const said = text.trim() === '' ? 'with an empty body' : `saying “${snippet(text)}”`;
  const advice =
    response.status >= 500
      ? 'The VMS or the portal server had a problem; try again in a minute, and tell the administrator if it keeps happening.'
      : 'Check what you sent; if it looks right, tell the administrator.';
  return new RequestFailure(
    'http',
    `${what} failed: the server answered ${statusText} ${said}. ${advice}`,
    response.status,
  );
}

/**
 * Calls the portal server: the CSRF token added to a call that changes something, the network
 * failure, timeout or non-2xx status turned into a RequestFailure that says what to do.
 */
async function respond(
  url: string,
  what: string,
  options: RequestOptions & { text?: string },
  anyStatus = false,
): Promise<Response> {
  const timeoutMs = options.timeoutMs ?? defaultTimeoutMs;
  const timeout = AbortSignal.timeout(timeoutMs);
  const signal = combine(options.signal ? [options.signal, timeout] : [timeout]);
  const method = options.method ?? 'GET';
  const headers = requestHeaders(url, currentConnection(), {
    json: options.body !== undefined || options.text !== undefined,
    ...(options.headers ? { headers: options.headers } : {}),
  });

  let started = options.started;
  const send = async () => {
    if (started) {
      // Asked for already (by the list's worker as it started), with these headers: its answer
      // is this call's, and this call's deadline and cancelling are its.
      const { response, abort } = started;
      started = undefined;
      if (signal.aborted) abort();
      else signal.addEventListener('abort', abort, { once: true });
      return response;
    }
    if (changing(method)) {
      csrfToken ??= readCsrfToken();
      const token = await csrfToken;
      if (token) headers['x-csrf-token'] = token;
    }
    return fetch(url, {
      method,
      headers,
      body: options.text ?? (options.body === undefined ? null : JSON.stringify(options.body)),
      signal,
      credentials: 'same-origin',
    });
  };

  let response: Response;
  try {
    response = await send();
    // A token from an earlier session (signed in since, or expired): read it again, once.
    if (response.status === 403 && changing(method)) {
      const refused = (await response
        .clone()
        .json()
        .catch(() => null)) as { error?: { code?: string } } | null;
      if (refused?.error?.code === 'csrf_failed') {
        csrfToken = readCsrfToken();
        response = await send();
      }
    }
  } catch (error) {
    // Cancelled by the caller (a query no longer needed): not a failure to show.
    if (options.signal?.aborted) throw error;
    if (timeout.aborted) {
      const seconds = Math.max(1, Math.round(timeoutMs / 1000));
      throw new RequestFailure(
        'timeout',
        `${what} got no answer within ${seconds} ${seconds === 1 ? 'second' : 'seconds'}. The VMS may be slow or unreachable; try again in a minute.`,
      );
    }
    const offline = typeof navigator !== 'undefined' && navigator.onLine === false;
    throw new RequestFailure(
      'offline',
      offline
        ? `${what} failed: this computer is offline. Reconnect, then try again.`
        : `${what} failed: the portal server could not be reached. Check your network connection and that the portal is still running, then try again.`,
    );
  }

  if (!response.ok && !(anyStatus && response.status !== 401)) {
    const failure = await failureFromResponse(response, what);
    if (response.status === 401 && failure.code === 'unauthenticated')
      for (const listener of signedOutListeners) listener();
    throw failure;
  }
  return response;
}

/** A call whose answer's body is not read (204, or any 2xx): resolves when it succeeded. */
export async function requestOk(
  url: string,
  what: string,
  options: RequestOptions = {},
): Promise<void> {
  const response = await respond(url, what, options);
  await response.body?.cancel();
}

/** A file the server answered with: its bytes and the name its Content-Disposition gave. */
export interface DownloadAnswer {
  blob: Blob;
  fileName: string;
}

/**
 * A call whose answer is a file (`Content-Disposition: attachment`), read whole: for a download
 * that must be a POST, since what it sends may not be put in an address (a reason to reveal
 * personal data). `fallbackName` names the file when the server did not.
 */
export async function requestDownload(
  url: string,
  what: string,
  fallbackName: string,
  options: RequestOptions = {},
): Promise<DownloadAnswer> {
  const response = await respond(url, what, options);
  const named = /filename="([^"]+)"/u.exec(response.headers.get('content-disposition') ?? '');
  return { blob: await response.blob(), fileName: named?.[1] ?? fallbackName };
}

/** An answer taken as it came, whatever its status. */
export interface TextAnswer {
  status: number;
  headers: Headers;
  text: string;
}

/**
 * A call whose answer is wanted whatever its status (a call QA composes to see what the VMS
 * says): `text` is sent byte for byte as JSON. A network failure, a timeout and a lost session
 * (401) still throw, as for any call.
 */
export async function requestText(
  url: string,
  what: string,
  options: Omit<RequestOptions, 'body'> & { text?: string } = {},
): Promise<TextAnswer> {
  const response = await respond(url, what, options, true);
  return { status: response.status, headers: response.headers, text: await response.text() };
}

/**
 * Calls the portal server and parses the JSON answer with `schema`. Throws a RequestFailure for
 * a network failure, a timeout, a non-2xx status or an answer of an unexpected shape.
 * `what` names the call in messages: "Loading the requisitions", "Sending the batch".
 */
export async function requestJson<S extends z.ZodType>(
  url: string,
  schema: S,
  what: string,
  options: RequestOptions = {},
): Promise<JsonAnswer<z.output<S>>> {
  const response = await respond(url, what, options);
  const text = await response.text();
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new RequestFailure(
      'shape',
      `${what}: the server answered ${response.status} with something that is not JSON (“${snippet(text)}”). Nothing can be read from it; tell the administrator.`,
      response.status,
    );
  }
  const parsed = schema.safeParse(json);
  if (!parsed.success) {
    throw new RequestFailure(
      'shape',
      `${what}: the answer is not in the shape the portal expects (${firstIssue(parsed.error)}). Tell the administrator; the answer was: ${snippet(text)}`,
      response.status,
    );
  }
  return {
    status: response.status,
    data: parsed.data as z.output<S>,
    headers: response.headers,
    text,
  };
}

/** The parsed body of `requestJson` alone, for a call whose answer says nothing in its headers. */
export async function requestData<S extends z.ZodType>(
  url: string,
  schema: S,
  what: string,
  options: RequestOptions = {},
): Promise<z.output<S>> {
  return (await requestJson(url, schema, what, options)).data;
}

/** An error as a sentence for the user. */
export function errorMessage(error: unknown): string {
  if (error instanceof Error) return error.message;
  return 'Something unexpected went wrong. Reload the page and try again.';
}
