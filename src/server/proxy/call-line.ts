import type { GateOutcome, GateRefusal } from './idempotency';
import type { VmsOperation } from './vms-operations';

/**
 * The one line per forwarded call, and everything in it: numbers, flags, the operation's name and
 * the Idempotency-Key (a token checked against a strict pattern), and who sent it. Nothing here can hold a secret,
 * so it is written by a logger without the app's redaction, which would cost ~10 µs per line
 * (a walk and copy of the object for 14 censored paths; 3 µs without) on every call.
 */
export interface CallLine {
  reqId: string;
  operation: VmsOperation;
  clientOrgId: number;
  vendorOrgId: number;
  itemCount: number | null;
  status: number;
  upstreamStatus: number | null;
  durationMs: number;
  replayed: boolean;
  /** What became of the call at the gate (a refusal never gets this far: it has no line). */
  outcome: Exclude<GateOutcome['kind'], GateRefusal['kind']>;
  idempotencyKey?: string;
  /** The connection the call went to. */
  connection: string;
  /** The signed-in user: their id and e-mail address, never more. */
  userId?: string;
  email?: string;
  /** Made with a personal API token: `token <its name>` (decision 037); never the token. */
  via?: string;
  /** The W3C trace id of the call, as recorded in the audit trail and sent to the VMS. */
  traceId: string | null;
  /** A POST's line is the audit line of a send (decision 026). */
  audit?: true;
  event?: 'send';
}

/** What came of a call and how long it took: what the metrics count and the audit trail keeps. */
export type CallAnswerFields = Pick<
  CallLine,
  | 'operation'
  | 'itemCount'
  | 'status'
  | 'upstreamStatus'
  | 'durationMs'
  | 'replayed'
  | 'idempotencyKey'
>;
