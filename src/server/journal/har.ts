import { STATUS_CODES } from 'node:http';
import {
  replayOfHeader,
  uncheckedHeader,
  type JournalBody,
  type JournalEntry,
} from '@/domain/journal';
import { signingHeaders, vmsRequest, type HeaderLine } from './call-request';

/**
 * Journal entries as HTTP Archive 1.2 (http://www.softwareishard.com/blog/har-12-spec/): what the
 * portal sent to the VMS and what came back, for tools that read HAR (browsers' network panels,
 * Postman, Insomnia). A call the proxy refused never reached the VMS: its entry is the browser's
 * call to the portal and the portal's answer. The request headers are those that were sent, less
 * the secret ones: the signing headers are never in the journal, so never here (the entries say
 * so), nor is anything of the browser's sign-in (cookie, CSRF token). Journal fields without a
 * HAR place are custom `_fields`, which the spec allows (and tells other readers to ignore).
 */

type HarNameValue = HeaderLine;

export interface HarEntry {
  startedDateTime: string;
  time: number;
  request: {
    method: string;
    url: string;
    httpVersion: string;
    cookies: [];
    headers: HarNameValue[];
    queryString: HarNameValue[];
    postData?: { mimeType: string; text: string; comment?: string };
    headersSize: -1;
    bodySize: number;
    comment?: string;
  };
  response: {
    status: number;
    statusText: string;
    httpVersion: string;
    cookies: [];
    headers: HarNameValue[];
    content: { size: number; mimeType: string; text?: string; encoding?: string; comment?: string };
    redirectURL: string;
    headersSize: -1;
    bodySize: number;
    comment?: string;
  };
  cache: Record<string, never>;
  timings: { send: number; wait: number; receive: number };
  comment?: string;
  [custom: `_${string}`]: unknown;
}

const signedComment = `The portal also sent ${signingHeaders.key} and ${signingHeaders.signature} (a new signature per call); the journal never keeps them.`;

export const harCreator = { name: 'VMS submission portal (call journal)', version: '1' };

function bodyComment(body: JournalBody): string | undefined {
  const notes = [
    body.truncated
      ? `Only the first ${Buffer.byteLength(body.text, body.encoding === 'base64' ? 'base64' : 'utf8')} of ${body.size} bytes were kept (JOURNAL_BODY_LIMIT_KB); SHA-256 of the whole body: ${body.sha256}.`
      : '',
    body.redacted ? 'A secret in it was replaced by [redacted].' : '',
    body.encoding === 'base64' ? 'The body is not UTF-8 text: it is given in base64.' : '',
  ].filter((note) => note !== '');
  return notes.length === 0 ? undefined : notes.join(' ');
}

function withComment<T extends object>(value: T, comment: string | undefined): T {
  return comment === undefined ? value : { ...value, comment };
}

/**
 * The headers of the request as it was sent, less the secret ones: to the VMS, those the proxy
 * builds (call-request.ts) and the HTTP client's host and content-length; to the portal (a call
 * it refused, or answered from memory), those the journal knows the browser sent, which are the
 * ones that change what the portal does with a call.
 */
function sentHeaders(entry: JournalEntry, left: boolean, url: URL): HarNameValue[] {
  const body = entry.requestBody;
  const framing = [
    { name: 'host', value: url.host },
    ...(body ? [{ name: 'content-length', value: String(body.size) }] : []),
  ];
  if (left) return [...framing, ...vmsRequest(entry, url.href).headers];
  return [
    ...framing,
    ...(body ? [{ name: 'content-type', value: 'application/json' }] : []),
    ...(entry.idempotencyKey ? [{ name: 'idempotency-key', value: entry.idempotencyKey }] : []),
    ...(entry.replayOf !== null ? [{ name: replayOfHeader, value: String(entry.replayOf) }] : []),
    ...(entry.unchecked ? [{ name: uncheckedHeader, value: '1' }] : []),
  ];
}

/**
 * HAR's timings of a call: waiting until the VMS's first byte, then receiving its answer and
 * passing it on. Without a first byte (refused, answered from memory, no answer, or recorded
 * before the journal kept it), the whole call is waiting. They add up to `time`, as HAR asks.
 */
export function harTimings(entry: JournalEntry): { send: number; wait: number; receive: number } {
  const total = entry.latencyMs;
  const firstByte = entry.firstByteMs;
  if (firstByte === null || firstByte > total) return { send: 0, wait: total, receive: 0 };
  const receive = Math.round((total - firstByte) * 10) / 10;
  return { send: 0, wait: Math.round((total - receive) * 10) / 10, receive };
}

/** `portalOrigin` (e.g. http://127.0.0.1:8787) places calls the proxy refused. */
export function harEntry(entry: JournalEntry, portalOrigin: string): HarEntry {
  const left = entry.outcome !== 'refused' && !entry.replayed && entry.url !== null;
  const url = left && entry.url !== null ? entry.url : `${portalOrigin}${entry.path}`;
  const parsedUrl = new URL(url);
  const request = entry.requestBody;
  const response = entry.responseBody;
  const requestHeaders = sentHeaders(entry, left, parsedUrl);
  const contentType = entry.responseHeaders['content-type'] ?? 'application/octet-stream';
  const notes = [
    left ? signedComment : '',
    entry.outcome === 'refused'
      ? `Refused by the portal (${entry.errorCode ?? 'no code'}); nothing was sent to the VMS.`
      : '',
    entry.replayed
      ? 'Answered from the portal’s idempotency store; the VMS was not asked again.'
      : '',
    entry.outcome === 'failed' ? `No answer from the VMS (${entry.failure ?? 'failed'}).` : '',
    entry.lateAnswer
      ? `The VMS answered ${entry.lateAnswer.status} later, after ${Math.round(entry.lateAnswer.latencyMs)} ms (see _lateAnswer).`
      : '',
  ].filter((note) => note !== '');

  return withComment(
    {
      startedDateTime: entry.at,
      time: entry.latencyMs,
      request: {
        method: entry.method,
        url: parsedUrl.href,
        httpVersion: 'HTTP/1.1',
        cookies: [],
        headers: requestHeaders,
        queryString: [...parsedUrl.searchParams].map(([name, value]) => ({ name, value })),
        ...(request
          ? {
              postData: withComment(
                { mimeType: 'application/json', text: request.text },
                bodyComment(request),
              ),
            }
          : {}),
        headersSize: -1,
        bodySize: request?.size ?? 0,
      },
      response: {
        status: entry.status,
        statusText: STATUS_CODES[entry.status] ?? '',
        httpVersion: 'HTTP/1.1',
        cookies: [],
        headers: Object.entries(entry.responseHeaders).map(([name, value]) => ({ name, value })),
        content: withComment(
          {
            size: response?.size ?? 0,
            mimeType: contentType,
            ...(response ? { text: response.text } : {}),
            ...(response?.encoding === 'base64' ? { encoding: 'base64' } : {}),
          },
          response ? bodyComment(response) : undefined,
        ),
        redirectURL: entry.responseHeaders.location ?? '',
        headersSize: -1,
        bodySize: response?.size ?? 0,
      },
      cache: {},
      timings: harTimings(entry),
      _journalId: entry.id,
      _outcome: entry.outcome,
      _errorCode: entry.errorCode,
      _portalPath: entry.path,
      _idempotencyKey: entry.idempotencyKey,
      _batchId: entry.batchId,
      _replayOf: entry.replayOf,
      _unchecked: entry.unchecked,
      _lateAnswer: entry.lateAnswer
        ? {
            status: entry.lateAnswer.status,
            latencyMs: entry.lateAnswer.latencyMs,
            text: entry.lateAnswer.body?.text ?? '',
          }
        : null,
    },
    notes.length === 0 ? undefined : notes.join(' '),
  );
}
