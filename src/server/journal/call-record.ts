import { acceptedBatchId } from '@/domain/accepted-batch';
import { recordedUrl } from '@/server/http/recorded-path';
import { scrubText, SecretNeedles } from '@/server/redaction/credential-scrub';
import { keptBody, RecentBodies } from './kept-body';
import type {
  BodyToKeep,
  JournalLateRecord,
  JournalLateTarget,
  JournalRecord,
} from './store/journal-store';

/**
 * One call through the proxy as the proxy hands it over: what the journal writes, but with the
 * raw bodies (nothing derived yet), the signature to search them for, and the batch id only
 * where the proxy read it from another VMS's answer.
 */
export interface CallToRecord extends Omit<
  JournalRecord,
  'requestBody' | 'responseBody' | 'batchId'
> {
  requestBody: Buffer | null;
  /** The request body's SHA-256 when the proxy already took it: not hashed again. */
  requestSha256?: Buffer | null;
  responseBody: Buffer | null;
  /** The signature the call was signed with: searched for in its bodies, never stored. */
  signature: string | null;
  /**
   * Whether the proxy already replaced an echoed secret in the VMS's answer before passing it on:
   * the body the journal gets is clean, and the entry still says the VMS echoed one.
   */
  answerRedacted?: boolean;
  /**
   * The batch the call is about, when the proxy read it from an answer in another VMS's dialect
   * (the body kept is the VMS's own, which the journal cannot read the id from).
   */
  batchId?: string | null;
}

/** The signed-in user a call was made as, as they were then. */
export type CallSender = NonNullable<JournalRecord['sentBy']>;

/** A keyed batch's answer that arrived after the browser was told 504. */
export interface LateAnswerToRecord {
  status: number;
  latencyMs: number;
  headers: Record<string, string>;
  body: Buffer | null;
  signature: string | null;
  /** As CallToRecord's answerRedacted. */
  answerRedacted?: boolean;
}

/** The batch a call is about: a POST's 2xx answer names it, a results poll asks for it. */
function batchIdOf(call: CallToRecord): string | null {
  if (call.method === 'POST') return acceptedBatchId(call.status, call.responseBody);
  const queryAt = call.path.indexOf('?');
  if (queryAt < 0 || !call.operation?.endsWith('results')) return null;
  const batchId = new URLSearchParams(call.path.slice(queryAt + 1)).get('batchid');
  return batchId === null || batchId === '' ? null : batchId.slice(0, 200);
}

/**
 * A call's time to first byte as kept: to a tenth of a millisecond like its latency, and never
 * past it (the two are read off one clock, but rounded apart).
 */
function firstByteOf(call: CallToRecord): number | null {
  const ms = call.firstByteMs;
  if (ms === undefined || ms === null || !Number.isFinite(ms)) return null;
  return Math.min(Math.max(Math.round(ms * 10) / 10, 0), Math.round(call.latencyMs * 10) / 10);
}

/** A kept body flagged as redacted when the proxy had already cleaned it; a new object, never the shared one. */
function markedRedacted(kept: BodyToKeep | null, redacted: boolean | undefined): BodyToKeep | null {
  return kept && redacted && !kept.redacted ? { ...kept, redacted: true } : kept;
}

/**
 * Turns calls as the proxy hands them over into the journal's records: secrets replaced in
 * bodies, headers and paths (the key and secret always; the call's signature in what could echo
 * it), bodies cut to the limit and identified by SHA-256, the batch id found. Runs on the
 * journal's write turn, never on the request path.
 */
export class RecordMaker {
  private readonly needles: SecretNeedles;
  private readonly recent = new RecentBodies();
  /** The last 2xx answer body a batch id was read from, and that id: a repeat is not parsed again. */
  private lastAccepted: { body: Buffer; batchId: string | null } | null = null;

  constructor(
    secrets: readonly string[],
    private readonly bodyLimitBytes: number,
  ) {
    this.needles = SecretNeedles.of(secrets);
  }

  /**
   * Swaps a call's bodies for the copies the journal already holds when it saw the same bytes
   * lately (RecentBodies.held), as the call is queued: the request's own Buffers are then free
   * as soon as its answer is sent. Returns the bytes of its bodies that are not held (new ones).
   */
  hold(call: CallToRecord): number {
    let fresh = 0;
    const request = this.recent.held(call.requestBody);
    if (request) call.requestBody = request;
    else fresh += call.requestBody?.length ?? 0;
    const response = this.recent.held(call.responseBody);
    if (response) call.responseBody = response;
    else fresh += call.responseBody?.length ?? 0;
    return fresh;
  }

  call(call: CallToRecord): JournalRecord {
    const signature = call.signature ? SecretNeedles.ofSignature(call.signature) : null;
    const needles = signature ? this.needles.and(signature) : this.needles;
    const limit = this.bodyLimitBytes;
    const batchId = call.batchId ?? this.batchIdOf(call);
    return {
      // Whole milliseconds, as the tables keep them (the proxy's arithmetic with elapsedTime is not).
      at: Math.floor(call.at),
      operation: call.operation,
      method: call.method,
      path: scrubText(recordedUrl(call.path), needles),
      url: call.url === null ? null : scrubText(call.url, needles),
      clientOrgId: call.clientOrgId,
      vendorOrgId: call.vendorOrgId,
      itemCount: call.itemCount,
      batchId: batchId === null ? null : scrubText(batchId, needles),
      idempotencyKey: call.idempotencyKey,
      replayed: call.replayed,
      status: call.status,
      upstreamStatus: call.upstreamStatus,
      outcome: call.outcome,
      errorCode: call.errorCode,
      failure: call.failure,
      latencyMs: Math.round(call.latencyMs * 10) / 10,
      firstByteMs: firstByteOf(call),
      replayOf: call.replayOf,
      unchecked: call.unchecked,
      // The request body arrived before its signature was made: only the answer can echo it.
      requestBody: this.recent.keep(
        call.requestBody,
        limit,
        this.needles,
        null,
        call.requestSha256 ?? null,
      ),
      responseBody: markedRedacted(
        this.recent.keep(call.responseBody, limit, this.needles, signature),
        call.answerRedacted,
      ),
      responseHeaders: this.cleanHeaders(call.responseHeaders, needles),
      sentBy: call.sentBy ?? null,
      connection: call.connection ?? null,
      traceId: call.traceId ?? null,
      suiteRun: call.suiteRun ?? null,
    };
  }

  /** batchIdOf, with a 2xx answer held by the journal (the same Buffer) read only once. */
  private batchIdOf(call: CallToRecord): string | null {
    const body = call.responseBody;
    if (call.method !== 'POST' || body === null || call.status < 200 || call.status >= 300) {
      return batchIdOf(call);
    }
    if (this.lastAccepted?.body !== body) {
      this.lastAccepted = { body, batchId: acceptedBatchId(call.status, body) };
    }
    return this.lastAccepted.batchId;
  }

  late(target: JournalLateTarget, answer: LateAnswerToRecord): JournalLateRecord {
    const needles = this.needles.with(answer.signature);
    return {
      call: target,
      status: answer.status,
      latencyMs: Math.round(answer.latencyMs * 10) / 10,
      headers: this.cleanHeaders(answer.headers, needles),
      body: markedRedacted(
        keptBody(answer.body, this.bodyLimitBytes, needles),
        answer.answerRedacted,
      ),
      batchId: acceptedBatchId(answer.status, answer.body),
    };
  }

  private cleanHeaders(headers: Record<string, string>, needles: SecretNeedles) {
    const clean: Record<string, string> = {};
    for (const [name, value] of Object.entries(headers)) clean[name] = scrubText(value, needles);
    return clean;
  }
}
