import { STATUS_CODES } from 'node:http';
import type { JournalBody, JournalEntry } from '../../domain/journal';

/**
 * Journal entries as HTTP Archive 1.2 (http://www.softwareishard.com/blog/har-12-spec/): what the
 * portal sent to the VMS and what came back, for tools that read HAR (browsers' network panels,
 * Postman, Insomnia). A call the proxy refused never reached the VMS: its entry is the browser's
 * call to the portal and the portal's answer. The signing headers are never in the journal, so
 * never here; the entries say so. Journal fields without a HAR place are custom `_fields`, which
 * the spec allows (and tells other readers to ignore).
 */

interface HarNameValue {
  name: string;
  value: string;
}

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

const signedComment =
  'The portal also sent x-api-key and x-signature (a new signature per call); the journal never keeps them.';

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

/** `portalOrigin` (e.g. http://127.0.0.1:8787) places calls the proxy refused. */
export function harEntry(entry: JournalEntry, portalOrigin: string): HarEntry {
  const left = entry.outcome !== 'refused' && !entry.replayed && entry.url !== null;
  const url = left && entry.url !== null ? entry.url : `${portalOrigin}${entry.path}`;
  const parsedUrl = new URL(url);
  const request = entry.requestBody;
  const response = entry.responseBody;
  const requestHeaders: HarNameValue[] = left
    ? [
        { name: 'accept', value: 'application/json' },
        ...(request ? [{ name: 'content-type', value: 'application/json' }] : []),
      ]
    : [];
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
      // The portal times the whole call; HAR's `time` must equal the sum of the timings.
      timings: { send: 0, wait: entry.latencyMs, receive: 0 },
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
