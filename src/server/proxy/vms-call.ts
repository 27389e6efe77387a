import type { IncomingHttpHeaders } from 'node:http';
import { joinQuery } from '@/domain/vms-profile';
import { signRequest } from '@/node/signature';
import { traceScope } from '@/server/http/trace-context';
import { journalHeaders, type CallNote } from './call-note';
import type { CallOutcome } from './idempotency-key';
import type { Channel } from './proxy-channel';
import { pickHeaders, readBody } from './upstream-answer';

/*
 * The proxy's sign and send steps: one call to the VMS, signed afresh with the connection's
 * recipe, its answer read in full and cleaned of any echoed credential before anything keeps or
 * passes it on.
 */

/** A call to the VMS, signed: what goes on the wire besides the body. */
export interface SignedCall {
  /** The path under the VMS's origin, with the signature's query parameters when it has any. */
  path: string;
  /** Built from nothing: no browser header reaches the VMS. */
  headers: IncomingHttpHeaders;
  /** The signature sent: scrubbed from the answer, never stored. */
  signature: string;
}

/**
 * Signs a call to `path` (under the channel's base path, query included) with the connection's
 * key, secret and recipe, at `now` (the clock by default). The headers are built from nothing
 * rather than filtered: no browser header (x-api-key, x-signature, authorization, cookie,
 * hop-by-hop, anything else) can reach the VMS. undici adds `host`.
 */
export function signCall(
  channel: Pick<Channel, 'connection' | 'profile' | 'basePath'>,
  path: string,
  body: Buffer | undefined,
  now?: number,
): SignedCall {
  const { connection, profile } = channel;
  const signed = signRequest(profile.signature, {
    apiKey: connection.apiKey,
    secret: connection.apiSecret,
    ...(body ? { body } : {}),
    ...(now === undefined ? {} : { now }),
  });
  const headers: IncomingHttpHeaders = { accept: 'application/json', ...signed.headers };
  if (body) headers['content-type'] = 'application/json';
  const trace = traceScope.getStore();
  if (trace) headers.traceparent = trace.traceparent;
  // The route fixes the path; the query is the checked one (forwardedQuery), with the
  // signature's timestamp where the recipe sends it there.
  const signedPath =
    Object.keys(signed.query).length === 0
      ? path
      : joinQuery(path, new URLSearchParams(signed.query));
  return {
    path: channel.basePath + signedPath,
    headers,
    signature: signed.headers[profile.signature.signatureHeader] ?? '',
  };
}

/** One VMS answer as callVms read it. */
export interface VmsAnswer {
  outcome: CallOutcome;
  /** The address called, for the journal. */
  url: string;
  journalHeaders: Record<string, string>;
  signature: string;
  latencyMs: number;
}

/**
 * One signed call to the VMS, its answer read in full and cleaned of any echoed credential: the
 * browser, a remembered answer for a retry and the journal all get it without the key, the
 * secret or the signature. `note` is the journal's, for the call's first (or only) upstream
 * request. Throws undici's error when no answer comes (upstream-failure.ts reads it).
 */
export async function callVms(
  channel: Channel,
  method: string,
  path: string,
  body: Buffer | undefined,
  waitMs: number,
  note: CallNote | undefined,
): Promise<VmsAnswer> {
  const signed = signCall(channel, path, body);
  if (note) note.signature = signed.signature;
  const started = performance.now();
  const answer = await channel.pool.request({
    method: method === 'POST' ? 'POST' : 'GET',
    path: signed.path,
    headers: signed.headers,
    body: body ?? null,
    headersTimeout: waitMs,
    bodyTimeout: waitMs,
  });
  if (note) note.firstByteAt = performance.now();
  const clean = channel.credentials.answer(
    pickHeaders(answer.headers),
    await readBody(answer.body),
    signed.signature,
  );
  const kept = journalHeaders(answer.headers);
  if (note) {
    note.upstreamHeaders = kept;
    if (clean.redacted) note.answerRedacted = true;
  }
  return {
    outcome: { status: answer.statusCode, headers: clean.headers, body: clean.body },
    url: `${channel.upstream.origin}${signed.path}`,
    journalHeaders: kept,
    signature: signed.signature,
    latencyMs: performance.now() - started,
  };
}
