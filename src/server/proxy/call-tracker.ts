import { withDeadline } from '@/server/ops/deadline';
import type { IdempotencyGate } from './idempotency';

/** What a drain learned of the calls still at the VMS when it began. */
export interface SettledCalls {
  /** Calls that got their answer (or failed) since the drain began. */
  finished: number;
  /** Keys still in flight when the drain gave up, now read as outcome unknown. */
  markedUnknown: number;
  timedOut: boolean;
}

/**
 * The calls at the VMS right now, keyed (they may outlive their request: the answer settles the
 * key) and unkeyed, so a drain can wait for them (decision 033).
 */
export class CallTracker {
  /** Keyed calls whose upstream answer is still awaited. */
  readonly settling = new Set<Promise<unknown>>();
  /** Calls without a key still at the VMS: a drain lets them finish too. */
  readonly unkeyed = new Set<Promise<unknown>>();
  /** Calls that got their answer (or failed) since the drain began, for its report. */
  private finishedWhileDraining = 0;

  constructor(private readonly draining: () => boolean) {}

  get inFlight(): number {
    return this.settling.size + this.unkeyed.size;
  }

  /** Keeps `call` in `calls` until it ends, and counts it if it ends during a drain. */
  track(calls: Set<Promise<unknown>>, call: Promise<unknown>): void {
    calls.add(call);
    // Whoever awaits the call sees its failure; this bookkeeping must not add an unhandled one.
    call
      .finally(() => {
        calls.delete(call);
        if (this.draining()) this.finishedWhileDraining += 1;
      })
      .catch(() => {});
  }

  /**
   * Waits up to `timeoutMs` for every call at the VMS; past it, marks the keys still in flight
   * unknown, then `abort`s the calls.
   */
  async settle(
    timeoutMs: number,
    idempotency: Pick<IdempotencyGate, 'abandonInFlight'>,
    abort: () => Promise<unknown>,
  ): Promise<SettledCalls> {
    const deadline = performance.now() + timeoutMs;
    // A loop, not one wait: a read that starts during the drain is waited for as well.
    while (this.inFlight > 0) {
      const left = deadline - performance.now();
      if (left <= 0) break;
      const next = Promise.race([...this.settling, ...this.unkeyed]).then(
        () => false,
        () => false,
      );
      await withDeadline(next, left, () => true);
    }
    // Counted now: calls aborted below end during the drain too, but without an answer.
    const finished = this.finishedWhileDraining;
    const timedOut = this.inFlight > 0;
    // Keys first, then the calls: once a key reads unknown, an answer lost to the abort below
    // can no longer be mistaken for a batch that was never sent.
    const markedUnknown = timedOut ? await idempotency.abandonInFlight() : 0;
    if (timedOut) await abort();
    return { finished, markedUnknown, timedOut };
  }
}
