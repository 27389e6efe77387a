import type { FastifyRequest } from 'fastify';
import type { CheckedCall } from './call-check';
import { upstreamStatusOf, type GateOutcome, type GateRefusal } from './idempotency-key';
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

/** A call the gate did not refuse: forwarded, replayed or still waiting. */
export type PassedGate = Exclude<GateOutcome, GateRefusal>;

/**
 * The proxy's record step, its line: what came of the call, who sent it, and for a POST that it
 * is the audit line of a send. The journal's entry is written by its own hook (ProxyTap).
 */
export function callLineOf(
  request: Pick<FastifyRequest, 'id' | 'method' | 'traceContext' | 'portalSession' | 'apiToken'>,
  call: {
    operation: VmsOperation;
    checked: Pick<CheckedCall, 'orgs' | 'itemCount' | 'key'>;
    connection: string;
    gate: PassedGate;
    /** The browser's status. */
    status: number;
    /** Since the call came in, in milliseconds. */
    durationMs: number;
  },
): CallLine {
  const { checked, gate } = call;
  const line: CallLine = {
    reqId: request.id,
    operation: call.operation,
    clientOrgId: checked.orgs.clientOrgId,
    vendorOrgId: checked.orgs.vendorOrgId,
    itemCount: checked.itemCount,
    status: call.status,
    upstreamStatus: gate.kind === 'forwarded' ? upstreamStatusOf(gate.result) : null,
    durationMs: Math.round(call.durationMs * 10) / 10,
    replayed: gate.kind === 'replayed',
    outcome: gate.kind,
    connection: call.connection,
    traceId: request.traceContext?.traceId ?? null,
    ...(checked.key === undefined ? {} : { idempotencyKey: checked.key }),
  };
  // Who sent it; a POST's line is also the audit line of the send.
  const user = request.portalSession?.user;
  if (user) {
    line.userId = user.id;
    line.email = user.email;
    if (request.apiToken) line.via = `token ${request.apiToken.name}`;
  }
  if (request.method === 'POST') {
    line.audit = true;
    line.event = 'send';
  }
  return line;
}
