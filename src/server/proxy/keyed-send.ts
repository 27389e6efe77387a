import { ApiError } from '@/domain/api-error';
import type { CallTracker } from './call-tracker';
import type { IdempotencyGate } from './idempotency';
import {
  errorOutcome,
  type CallFingerprint,
  type CallOutcome,
  type ForwardResult,
  type GateOutcome,
} from './idempotency-key';
import type { Channel } from './proxy-channel';

/*
 * The proxy's key step (decision 002): a POST with an Idempotency-Key passes the gate, which
 * records the key durably before the call leaves; a call without one is sent as it comes.
 */

/** A call on its way through the key step: how to send it, and who is told of a late answer. */
export interface SendStep {
  channel: Channel;
  /** Sends the call to the VMS, waiting up to `waitMs` for its answer. */
  send(waitMs: number): Promise<ForwardResult>;
  calls: CallTracker;
}

/** A call without an Idempotency-Key (a read, or QA's own POST): sent as it comes, every time. */
export async function sendUnkeyed({ channel, send, calls }: SendStep): Promise<GateOutcome> {
  const call = send(channel.connection.timeoutMs);
  calls.track(calls.unkeyed, call);
  const result = await call;
  return {
    kind: 'forwarded',
    result,
    answer: result.kind === 'answered' ? result.outcome : errorOutcome(result.failure),
  };
}

/** A keyed call at the gate: what it was asked with, and who hears of its late answer. */
export interface KeyedSend extends SendStep {
  gate: IdempotencyGate;
  key: string;
  /**
   * What the key stands for: the method, the connection and the browser's URL with its query,
   * and the body (the same key on another connection is another batch, refused as a conflict
   * rather than answered with the first one's result).
   */
  fingerprint: CallFingerprint;
  draining(): boolean;
  /** The VMS's answer to a call whose browser was told "still waiting", once it came. */
  lateAnswer(result: ForwardResult): void;
}

/**
 * A keyed POST through the gate: its key recorded durably before it is sent, the answer settling
 * the key (even one that comes after the browser was told 504), a repeat answered from the key.
 */
export function sendKeyed(call: KeyedSend): Promise<GateOutcome> {
  const { channel, gate, key, calls } = call;
  const { connection } = channel;
  return gate.pass(key, call.fingerprint, {
    send: () => call.send(connection.lateAnswerMs),
    timeoutMs: connection.timeoutMs,
    draining: call.draining,
    settling: (settling) => calls.track(calls.settling, settling),
    lateAnswer: call.lateAnswer,
  });
}

/** The browser's 504 while the portal goes on waiting for a keyed batch's answer. */
export function stillWaiting(channel: Channel, first: boolean): CallOutcome {
  const { lateAnswerMs, timeoutMs } = channel.connection;
  const minutes = Math.round(lateAnswerMs / 60_000);
  const wait = minutes >= 1 ? `${minutes} min` : `${lateAnswerMs} ms`;
  return errorOutcome(
    new ApiError(
      'upstream_timeout',
      `${first ? `The VMS at ${channel.host} did not answer within ${timeoutMs} ms (VMS_TIMEOUT_MS)` : 'The VMS has still not answered the first send of this batch'}. It may have received the batch, so the portal keeps waiting for its answer (up to ${wait}, VMS_LATE_ANSWER_MS). Send the same batch again, unchanged: you get the VMS's answer as soon as it comes, and the batch is never sent twice.`,
    ),
  );
}
