import type { FastifyReply, FastifyRequest } from 'fastify';
import { ApiError, apiErrorBodySchema } from '@/domain/api-error';
import { replayOfHeader, uncheckedHeader } from '@/domain/journal';
import { vmsOperations, type VmsOperation } from '@/domain/vms-contract';
import type { CallJournal, LateAnswerToRecord } from '@/server/journal/call-journal';
import type { CallSender } from '@/server/journal/call-record';
import { answerOf, newCallNote, type CallNote } from './call-note';
import type { ForwardResult } from './idempotency-key';
import { wellFormedKey } from './idempotency-key';

function header(request: FastifyRequest, name: string): string | undefined {
  const value = request.headers[name];
  return typeof value === 'string' ? value : undefined;
}

/** An org id read leniently from a refused call's query: a whole number, or null. */
function orgParameter(query: unknown, name: string): number | null {
  const value = typeof query === 'object' && query !== null ? Reflect.get(query, name) : undefined;
  return typeof value === 'string' && /^[1-9]\d{0,15}$/.test(value) ? Number(value) : null;
}

/** The operation a refused call's path names (under the proxy's prefix), if any. */
function operationOfPath(url: string, prefix: string): VmsOperation | null {
  const path = url.split('?')[0] ?? '';
  const name = path.startsWith(prefix) ? path.slice(prefix.length) : '';
  return vmsOperations.find((operation) => operation.name === name)?.name ?? null;
}

function payloadBytes(payload: unknown): Buffer | null {
  if (Buffer.isBuffer(payload)) return payload;
  if (typeof payload === 'string') return Buffer.from(payload, 'utf8');
  return null;
}

/** The signed-in user the call was made as, or null. */
function senderOf(request: FastifyRequest): CallSender | null {
  const user = request.portalSession?.user;
  return user ? { userId: user.id, email: user.email } : null;
}

/** The code in the portal's own error body. */
function errorCodeOf(body: Buffer | null): string | null {
  if (body === null) return null;
  try {
    const parsed = apiErrorBodySchema.safeParse(JSON.parse(body.toString('utf8')));
    return parsed.success ? parsed.data.error.code : null;
  } catch {
    return null;
  }
}

/**
 * Connects the proxy to the journal: a note per call that the handler fills in, and one onSend
 * hook that records every answer under /api/vms — forwarded, failed, or refused by the proxy
 * before or after its handler ran (org checks, body shape, 413, 415, 429, unknown paths) — save,
 * with sign-in on, those to calls made without a session.
 * Recording is a push onto the journal's queue; nothing here waits, except `room` before a call
 * is sent while the journal's writing is far behind.
 */
export class ProxyTap {
  constructor(
    private readonly journal: CallJournal,
    /** Where the proxy's routes are mounted, e.g. /api/vms/ */
    private readonly prefix: string,
    /**
     * The connection a call was for and its VMS base (ending in `/`; null when unknown): read
     * for every call, those refused before the proxy chose a connection too.
     */
    private readonly connectionOf: (request: FastifyRequest) => {
      name: string;
      baseUrl: string | null;
    },
    /** Sign-in is on: a call without a session is not recorded (api-guards logs it instead). */
    private readonly signInRequired = false,
  ) {}

  begin(request: FastifyRequest, operation: VmsOperation): CallNote {
    const note = newCallNote(operation);
    request.journalNote = note;
    return note;
  }

  /** Null while the journal keeps up; else what to await before the call is sent (CallJournal.room). */
  room(): Promise<void> | null {
    return this.journal.room();
  }

  /** Whether the call names the journal entry it re-sends (`X-Portal-Replay-Of`). */
  static isReplay(request: FastifyRequest): boolean {
    return header(request, replayOfHeader) !== undefined;
  }

  /**
   * `X-Portal-Replay-Of` must name a call in the journal: a replay linked to nothing would be
   * worse than none. Absent → null.
   */
  async replayOf(request: FastifyRequest): Promise<number | null> {
    const value = header(request, replayOfHeader);
    if (value === undefined) return null;
    const field = [{ field: 'X-Portal-Replay-Of', message: 'no such call in the journal' }];
    if (!/^[1-9]\d{0,15}$/.test(value.trim())) {
      throw new ApiError(
        'invalid_parameter',
        `The X-Portal-Replay-Of header must be the id of a call in the journal, a whole number such as 42; got "${value.slice(0, 40)}". Send again from the inspector, or without the header.`,
        field,
      );
    }
    const id = Number(value.trim());
    if (!(await this.journal.exists(id))) {
      throw new ApiError(
        'invalid_parameter',
        `X-Portal-Replay-Of names call ${id}, which is not in the call journal (it may have been pruned). Nothing was sent. Open the call again in the inspector, or send without the header.`,
        field,
      );
    }
    return id;
  }

  /** The onSend hook: records the call whose answer is going out. */
  readonly onSend = (
    request: FastifyRequest,
    reply: FastifyReply,
    payload: unknown,
    done: (error: null, payload: unknown) => void,
  ): void => {
    this.record(request, reply, payload);
    done(null, payload);
  };

  private record(request: FastifyRequest, reply: FastifyReply, payload: unknown): void {
    // With sign-in on, the journal is the record of what signed-in people sent. A call without a
    // session is refused before anything is sent, and recording it would let anyone who can
    // reach the portal write to its database without an account.
    if (this.signInRequired && request.portalSession === null) return;
    const note = request.journalNote;
    const answer = answerOf(note?.outcome ?? null);
    const body = Buffer.isBuffer(request.body) ? request.body : null;
    const forwarded = answer?.outcome === 'forwarded' && !answer.replayed;
    const responseBody = (forwarded ? note?.upstreamBody : null) ?? payloadBytes(payload);
    const operation = note?.operation ?? operationOfPath(request.url, this.prefix);
    const queryAt = request.url.indexOf('?');
    const connection = this.connectionOf(request);
    const receivedAt = performance.now() - reply.elapsedTime;
    const firstByteAt = note?.firstByteAt ?? null;
    const recorded = this.journal.record({
      // When the call came in, on the monotonic clock anchored to the wall clock at start-up:
      // Date.now() counts whole milliseconds, so "now − elapsed" could put a call that came in
      // after a sub-millisecond one before it, and the journal and its HAR export, oldest first,
      // out of order.
      at: performance.timeOrigin + receivedAt,
      operation,
      method: request.method,
      path: request.url,
      url:
        note?.url ??
        (operation === null || connection.baseUrl === null
          ? null
          : `${connection.baseUrl}${operation}${queryAt < 0 ? '' : request.url.slice(queryAt)}`),
      clientOrgId: note?.orgs?.clientOrgId ?? orgParameter(request.query, 'Client_Org_Id'),
      vendorOrgId: note?.orgs?.vendorOrgId ?? orgParameter(request.query, 'Vendor_Org_Id'),
      itemCount: note?.itemCount ?? null,
      idempotencyKey:
        note?.idempotencyKey ?? wellFormedKey(request.headers['idempotency-key']) ?? null,
      replayed: answer?.replayed ?? false,
      status: reply.statusCode,
      upstreamStatus: answer?.upstreamStatus ?? null,
      outcome: answer?.outcome ?? 'refused',
      errorCode: answer?.outcome === 'forwarded' ? null : errorCodeOf(responseBody),
      failure: answer?.failure ?? null,
      latencyMs: reply.elapsedTime,
      // A remembered answer's first byte was the VMS's long ago, not this call's.
      firstByteMs: forwarded && firstByteAt !== null ? firstByteAt - receivedAt : null,
      replayOf: note?.replayOf ?? null,
      unchecked: header(request, uncheckedHeader) === '1',
      requestBody: body,
      requestSha256: note?.requestSha256 ?? null,
      responseBody,
      responseHeaders:
        answer?.outcome === 'forwarded' && note?.upstreamHeaders
          ? note.upstreamHeaders
          : this.answerHeaders(reply),
      signature: note?.signature ?? null,
      answerRedacted: answer?.outcome === 'forwarded' && note?.answerRedacted === true,
      ...(forwarded && note?.batchId ? { batchId: note.batchId } : {}),
      sentBy: senderOf(request),
      connection: connection.name,
      traceId: request.traceContext?.traceId ?? null,
      suiteRun: request.suiteRun,
    });
    if (note && recorded !== null) {
      note.recorded = recorded;
      if (note.late) this.journal.recordLateAnswer(recorded, note.late);
    }
  }

  /**
   * A further page of a list the proxy read page by page for one call of the browser's: each
   * page is a signed call of its own, so each is an entry of its own, as the VMS answered it.
   */
  page(
    request: FastifyRequest,
    page: {
      url: string;
      status: number;
      headers: Record<string, string>;
      body: Buffer;
      signature: string;
      latencyMs: number;
    },
  ): void {
    const note = request.journalNote;
    this.journal.record({
      at: performance.timeOrigin + performance.now() - page.latencyMs,
      operation: note?.operation ?? null,
      method: request.method,
      path: request.url,
      url: page.url,
      clientOrgId: note?.orgs?.clientOrgId ?? null,
      vendorOrgId: note?.orgs?.vendorOrgId ?? null,
      itemCount: null,
      idempotencyKey: null,
      replayed: false,
      status: page.status,
      upstreamStatus: page.status,
      outcome: 'forwarded',
      errorCode: null,
      failure: null,
      latencyMs: page.latencyMs,
      replayOf: null,
      unchecked: false,
      requestBody: null,
      responseBody: page.body,
      responseHeaders: page.headers,
      signature: page.signature,
      sentBy: senderOf(request),
      connection: this.connectionOf(request).name,
      traceId: request.traceContext?.traceId ?? null,
      suiteRun: request.suiteRun,
    });
  }

  /** The portal's own answer's content type (a refusal, a failure, a remembered answer). */
  private answerHeaders(reply: FastifyReply): Record<string, string> {
    const kept: Record<string, string> = {};
    for (const name of ['content-type', 'retry-after']) {
      const value = reply.getHeader(name);
      if (typeof value === 'string' || typeof value === 'number') kept[name] = String(value);
    }
    return kept;
  }

  /**
   * A keyed batch's answer from the VMS after the browser's 504: added to the call's entry. When
   * none ever comes, the entry stays as it was (failed: timeout), which is what happened.
   */
  lateAnswer(request: FastifyRequest, result: ForwardResult, latencyMs: number): void {
    const note = request.journalNote;
    if (!note || result.kind !== 'answered') return;
    const late: LateAnswerToRecord = {
      status: result.outcome.status,
      latencyMs,
      headers: note.upstreamHeaders ?? result.outcome.headers,
      body: result.outcome.body,
      signature: note.signature,
      answerRedacted: note.answerRedacted,
    };
    if (note.recorded === null) note.late = late;
    else this.journal.recordLateAnswer(note.recorded, late);
  }
}
