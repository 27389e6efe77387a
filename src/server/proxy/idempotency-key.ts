import { createHash } from 'node:crypto';
import { ApiError } from '@/domain/api-error';
import type { CallOutcome, SentAfterBackup } from './store/idempotency-keys';

export type { CallOutcome } from './store/idempotency-keys';

/*
 * What a keyed call is and how it can end (decision 002): the Idempotency-Key as the browser
 * sends it, the fingerprint that binds a key to one request, the ways a forwarded call ends and
 * what the gate (idempotency.ts) makes of them for the browser, the log line and the journal.
 */

/** `Idempotency-Key` values: a UUID from the browser, or any similar opaque token. */
const keyPattern = /^[A-Za-z0-9._:-]{1,128}$/;

export function parseIdempotencyKey(value: string | string[] | undefined): string | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'string' || !keyPattern.test(value)) {
    throw new ApiError(
      'invalid_parameter',
      'The Idempotency-Key header must be one token of 1 to 128 letters, digits or . _ : - (a UUID works). Send a new key for each new batch.',
      [{ field: 'Idempotency-Key', message: 'malformed' }],
    );
  }
  return value;
}

/**
 * The header's key when it is well formed, else null, never throwing: what the journal records
 * of a call refused before its key was read (a wrong org, a bad body), so QA can find it by key.
 */
export function wellFormedKey(value: string | string[] | undefined): string | null {
  return typeof value === 'string' && keyPattern.test(value) ? value : null;
}

/**
 * The fingerprint keys were recorded with before CallFingerprint: one SHA-256 over the method,
 * the URL and the body. Still how such a key's retry is recognised.
 */
export function callFingerprint(method: string, url: string, body: Buffer | undefined): string {
  const hash = createHash('sha256').update(`${method} ${url}\n`);
  if (body) hash.update(body);
  return hash.digest('hex');
}

/** How fingerprints of CallFingerprint's form begin; the earlier ones are bare hex. */
const fingerprintForm = 'b:';

/**
 * The same key may only ever stand for the same operation, orgs and body bytes. The body is
 * hashed once, for the fingerprint and for the journal, which identifies the body it keeps by
 * that SHA-256 (a 31 KB batch's hash is ~20 µs, once a call instead of twice).
 */
export class CallFingerprint {
  /** The body's SHA-256; null without a body. */
  readonly bodySha256: Buffer | null;
  /** What the key is recorded with. */
  readonly value: string;

  constructor(
    private readonly method: string,
    private readonly url: string,
    private readonly body: Buffer | undefined,
  ) {
    this.bodySha256 = body ? createHash('sha256').update(body).digest() : null;
    const hash = createHash('sha256').update(`${method} ${url}\n`);
    if (this.bodySha256) hash.update(this.bodySha256);
    this.value = fingerprintForm + hash.digest('hex');
  }

  /**
   * Whether a key's recorded fingerprint stands for this call: of this form, or of the earlier
   * one, so the retry of a batch sent before an upgrade is still answered from its key.
   */
  matches(recorded: string): boolean {
    if (recorded === this.value) return true;
    return (
      !recorded.startsWith(fingerprintForm) &&
      recorded === callFingerprint(this.method, this.url, this.body)
    );
  }
}

/** A fingerprint as the gate compares it: a CallFingerprint, or (in tests) a plain string. */
export type Fingerprint = string | Pick<CallFingerprint, 'value' | 'matches'>;

/** Whether `recorded` is the fingerprint of the call `fingerprint` stands for. */
export function sameCall(fingerprint: Fingerprint, recorded: string): boolean {
  return typeof fingerprint === 'string' ? recorded === fingerprint : fingerprint.matches(recorded);
}

/** How a forwarded call ended, as far as anyone can know. */
export type ForwardResult =
  /** The VMS answered (any status). */
  | { kind: 'answered'; outcome: CallOutcome }
  /** The call certainly never reached the VMS (no connection was made). */
  | { kind: 'not_sent'; failure: ApiError }
  /** The call may have reached the VMS, but no answer came (reset, or no answer in time). */
  | { kind: 'uncertain'; failure: ApiError };

/** The VMS's status in a forwarded call's result; null when no answer came. */
export function upstreamStatusOf(result: ForwardResult): number | null {
  return result.kind === 'answered' ? result.outcome.status : null;
}

/**
 * What became of a keyed call at the gate, once the browser has its answer: the one reading of it
 * that the proxy's answer, its log line and the call journal all take (vms-proxy.ts).
 */
export type GateOutcome =
  /**
   * This call was the key's first and went to the VMS: `result` is how the call ended, `answer`
   * what the browser gets (a 409 outcome_unknown for a call whose answer never came).
   */
  | { kind: 'forwarded'; result: ForwardResult; answer: CallOutcome }
  /** The VMS was not asked again: the key's remembered answer, or its first call's, awaited. */
  | { kind: 'replayed'; answer: CallOutcome }
  /**
   * No answer yet. `first`: this call went to the VMS and the browser's wait ran out, while the
   * portal waits on for the answer (`KeyedCall.lateAnswer` gets it). Otherwise a repeat whose
   * first call, here or in another process, has not been answered within the wait.
   */
  | { kind: 'waiting'; first: boolean }
  /** Nothing was sent: the key's earlier call may or may not have reached the VMS (409). */
  | { kind: 'unknown'; error: ApiError }
  /** Nothing was sent: the key was used for another request (409 idempotency_conflict). */
  | { kind: 'conflict'; error: ApiError }
  /** Nothing was sent: the key could not be recorded (503 store_unavailable). */
  | { kind: 'unavailable'; error: ApiError }
  /** Nothing was sent: the process began to drain as the key was recorded; it is free again. */
  | { kind: 'draining'; answer: CallOutcome };

/** The outcomes in which the gate refused the call before anything was sent, with its error. */
export type GateRefusal = Extract<GateOutcome, { error: ApiError }>;

export function outcomeUnknownError(): ApiError {
  return new ApiError(
    'outcome_unknown',
    'This batch was sent to the VMS before, but its answer never came, so nobody can tell whether the VMS received it. The portal will not send it again with this key. Check the VMS first: for requisitions, search the Requisitions list for their client internal req; for candidates, look at the requisition’s candidates. Then send only what is missing, as a new batch.',
    [{ field: 'Idempotency-Key', message: 'outcome unknown' }],
  );
}

/**
 * A repeat of a batch sent after the backup the portal was restored from: the VMS has it (or may
 * have it), but the portal's record of its answer went with the database the restore replaced.
 * Refused like any unknown outcome, with what the restore knew of the batch.
 */
export function sentAfterBackupError(batch: SentAfterBackup): ApiError {
  const facts = [
    batch.batchId === null ? null : `batch ${batch.batchId}`,
    `sent ${new Date(batch.sentAt).toISOString()}`,
    batch.email === null ? null : `by ${batch.email}`,
    batch.connection === null ? null : `to the connection ${batch.connection}`,
    batch.itemCount === null ? null : `${batch.itemCount} item${batch.itemCount === 1 ? '' : 's'}`,
  ].filter((fact) => fact !== null);
  return new ApiError(
    'outcome_unknown',
    `This batch was sent after the backup was taken (${facts.join(', ')}), and the portal has since been restored from that backup, so it no longer has the VMS's answer. The portal will not send it again with this key. Check the VMS before sending again: for requisitions, search the Requisitions list for their client internal req; for candidates, look at the requisition’s candidates. Then send only what is missing, as a new batch.`,
    [{ field: 'Idempotency-Key', message: 'sent after the backup was taken' }],
  );
}

export function errorOutcome(error: ApiError): CallOutcome {
  return {
    status: error.statusCode,
    headers: { 'content-type': 'application/json; charset=utf-8' },
    body: Buffer.from(JSON.stringify(error.toBody())),
  };
}
