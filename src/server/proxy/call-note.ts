import type { IncomingHttpHeaders } from 'node:http';
import type { JournalFailure } from '@/domain/journal';
import type { OrgScope, VmsOperation } from '@/domain/vms-contract';
import type { LateAnswerToRecord, RecordedCall } from '@/server/journal/call-journal';
import type { ForwardResult, GateOutcome } from './idempotency-key';
import { pickHeaders } from './upstream-answer';

/*
 * What the proxy tells the journal about one call (decision 025): the note its steps fill in as
 * they go, read by ProxyTap (proxy-tap.ts) when the answer goes out, and how the journal reads
 * the gate's outcome.
 */

/**
 * Upstream answer headers the journal keeps: what helps QA read an answer or quote it to the
 * VMS's support. Anything else (set-cookie, www-authenticate, whatever a VMS echoes) stays out.
 */
export const journalResponseHeaders = [
  'content-type',
  'content-length',
  'content-language',
  'date',
  'retry-after',
  'x-request-id',
  'x-correlation-id',
  'request-id',
  'etag',
  'last-modified',
  'cache-control',
  'location',
] as const;

export function journalHeaders(headers: IncomingHttpHeaders): Record<string, string> {
  return pickHeaders(headers, journalResponseHeaders);
}

/** How a call that got past the proxy's checks ended for the browser. */
export interface NoteAnswer {
  outcome: 'forwarded' | 'failed';
  failure: JournalFailure | null;
  upstreamStatus: number | null;
  replayed: boolean;
}

/** What the proxy learns about a call as it handles it; the journal reads it when it answers. */
export interface CallNote {
  operation: VmsOperation;
  orgs: OrgScope | null;
  itemCount: number | null;
  idempotencyKey: string | null;
  replayOf: number | null;
  /** The VMS address it was sent to. */
  url: string | null;
  /** The request body's SHA-256, when the proxy took it (a keyed call's fingerprint). */
  requestSha256: Buffer | null;
  /**
   * What became of the call once it passed the proxy's checks (the gate's outcome, or a call
   * without a key sent as it came); null when it was refused before or at the gate.
   */
  outcome: GateOutcome | null;
  upstreamHeaders: Record<string, string> | null;
  /** When the VMS's answer headers arrived (performance.now()), for the time to first byte. */
  firstByteAt: number | null;
  /** The signature it was sent with: scrubbed from its bodies, never stored. */
  signature: string | null;
  /** The proxy replaced an echoed secret in the VMS's answer before passing it on. */
  answerRedacted: boolean;
  /**
   * The VMS's answer as it came (credentials replaced), when the browser got it translated from
   * another VMS's dialect: the journal keeps what was on the wire.
   */
  upstreamBody: Buffer | null;
  /** The batch id read from a translated answer. */
  batchId: string | null;
  /** The call as handed to the journal, once its answer went out (its id comes when written). */
  recorded: RecordedCall | null;
  /** A late answer that arrived before the call was handed to the journal. */
  late: LateAnswerToRecord | null;
}

/** A call's note before any step has filled it in. */
export function newCallNote(operation: VmsOperation): CallNote {
  return {
    operation,
    orgs: null,
    itemCount: null,
    idempotencyKey: null,
    replayOf: null,
    url: null,
    requestSha256: null,
    outcome: null,
    upstreamHeaders: null,
    firstByteAt: null,
    signature: null,
    answerRedacted: false,
    upstreamBody: null,
    batchId: null,
    recorded: null,
    late: null,
  };
}

declare module 'fastify' {
  interface FastifyRequest {
    /**
     * The proxy's note on this call for the journal (ProxyTap.begin), null elsewhere. A property
     * of the request rather than a WeakMap entry: every call's key in a WeakMap is an ephemeron
     * the garbage collector must revisit, a cost the journal added to each proxied call.
     */
    journalNote: CallNote | null;
  }
}

/** The outcome the journal records for a forwarded call's result. */
function noteAnswer(result: ForwardResult): NoteAnswer {
  if (result.kind === 'answered') {
    return {
      outcome: 'forwarded',
      failure: null,
      upstreamStatus: result.outcome.status,
      replayed: false,
    };
  }
  return {
    outcome: 'failed',
    failure: result.failure.code === 'upstream_timeout' ? 'timeout' : 'connection',
    upstreamStatus: null,
    replayed: false,
  };
}

/** The browser's 504 while the portal goes on waiting for the VMS. */
const stillWaitingAnswer: NoteAnswer = {
  outcome: 'failed',
  failure: 'timeout',
  upstreamStatus: null,
  replayed: false,
};

/** The answer the idempotency store remembered: the VMS's, not asked again. */
const replayedAnswer: NoteAnswer = {
  outcome: 'forwarded',
  failure: null,
  upstreamStatus: null,
  replayed: true,
};

/**
 * How the journal reads a call's outcome at the gate; null for a call the gate refused (or that
 * never reached it), which the journal records as refused, with the code of its error body.
 */
export function answerOf(outcome: GateOutcome | null): NoteAnswer | null {
  switch (outcome?.kind) {
    case 'forwarded':
      return noteAnswer(outcome.result);
    case 'replayed':
      return replayedAnswer;
    case 'waiting':
      return stillWaitingAnswer;
    default:
      return null;
  }
}
