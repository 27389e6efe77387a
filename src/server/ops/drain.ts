import { ApiError } from '@/domain/api-error';

/** What a drain did, for its closing log line and for tests. */
export interface DrainReport {
  /** VMS calls that were in flight when the drain began, or began during it, and got an answer. */
  callsFinished: number;
  /** Keys whose call was still waiting when PORTAL_DRAIN_TIMEOUT_MS ran out, now `unknown`. */
  keysMarkedUnknown: number;
  /** Journal entries (calls and late answers) written between the drain's start and its end. */
  journalFlushed: number;
  /** Whether PORTAL_DRAIN_TIMEOUT_MS ran out before every call had its answer. */
  timedOut: boolean;
  durationMs: number;
}

/** The proxy's part in a drain: its calls still at the VMS. */
export interface ProxyDrain {
  /** VMS calls this process is waiting for now, keyed or not. */
  inFlight(): number;
  /**
   * Waits for the calls in flight (and any that start meanwhile) for up to `timeoutMs`; then
   * marks the keys of those still waiting unknown and aborts every call left.
   */
  settle(
    timeoutMs: number,
  ): Promise<{ finished: number; markedUnknown: number; timedOut: boolean }>;
}

/**
 * What the parts of one portal process share about its shutdown: whether it is draining (the
 * proxy refuses new sends, readiness says 503), and the proxy's handle for the drain itself.
 */
export class PortalLifecycle {
  draining = false;
  proxy: ProxyDrain | null = null;
  /**
   * Work that stops first when a drain begins, before the proxy's calls settle (QA suite runs:
   * a run would otherwise go on reading results and meet a refusal at its next batch).
   */
  readonly stopFirst: Array<() => Promise<void>> = [];
}

/**
 * A send that reaches a draining process: refused before anything is recorded or forwarded, so
 * sending it again (to whichever process the load balancer picks next) is always safe.
 */
export function drainingError(): ApiError {
  return new ApiError(
    'draining',
    'This portal process is shutting down; send again — another process or the restarted one will take it. Nothing was sent.',
  );
}
