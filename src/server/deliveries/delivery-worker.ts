import { randomUUID } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import { TableLooks } from '@/server/store/table-looks';
import type { AttemptEnd, DeliveryStore, StoredDelivery } from './store/delivery-store';

/** What one attempt came to, as a channel's sender reports it. */
export type AttemptResult =
  | { sent: true; status: number | null }
  | { sent: false; status: number | null; reason: string; retry: boolean };

export interface RetrySchedule {
  /** The wait after the first failed attempt (default 30 s), doubled after each. */
  firstMs: number;
  /** The longest wait (default 30 min). */
  maxMs: number;
  /** Past this long after it was made, a delivery that still fails is failed (default 24 h). */
  giveUpMs: number;
}

export const defaultRetrySchedule: RetrySchedule = {
  firstMs: 30_000,
  maxMs: 30 * 60_000,
  giveUpMs: 24 * 60 * 60_000,
};

export interface DeliveryWorkerOptions {
  store: DeliveryStore;
  send: (delivery: StoredDelivery) => Promise<AttemptResult>;
  /** Told of each attempt recorded: sent, due again, or failed for good (audit events, metrics). */
  attempted?: (delivery: StoredDelivery, end: AttemptEnd) => void;
  log: Pick<FastifyBaseLogger, 'warn' | 'error'>;
  retry?: Partial<RetrySchedule>;
  /** How often the outbox is looked at when nothing woke the worker (default 5 s). */
  pollMs?: number;
  /** How long a claimed attempt is ours (default 2 minutes, well past a send's timeouts). */
  leaseMs?: number;
  now?: () => number;
  random?: () => number;
}

/** Deliveries sent at once by one process. */
const batchSize = 10;

/**
 * The wait before attempt `attempts + 1`: the first wait doubled per failure, capped, and spread
 * by ±20 % so that deliveries that failed together (a receiver that was down) do not all come
 * back at the same second.
 */
export function retryDelay(
  attempts: number,
  schedule: RetrySchedule,
  random: () => number,
): number {
  const base = Math.min(schedule.maxMs, schedule.firstMs * 2 ** Math.max(0, attempts - 1));
  return Math.round(base * (0.8 + 0.4 * random()));
}

/**
 * Sends what the outbox holds (decision 056): takes due deliveries under a lease (so no two
 * processes send one at once, and a dead process's lease runs out for another to take), sends
 * each through its channel, and records the end: sent, due again after a backoff, or failed when
 * the failure is for good or the delivery is older than the schedule allows. A round that fails
 * (the database away) is logged and the next round tries again; nothing here throws out.
 */
export class DeliveryWorker {
  private readonly owner = `deliveries-${randomUUID()}`;
  private readonly schedule: RetrySchedule;
  private readonly now: () => number;
  private readonly random: () => number;
  /** One round at a time; a wake during one brings the next right after it. */
  private readonly looks = new TableLooks(() => this.look());

  constructor(private readonly options: DeliveryWorkerOptions) {
    this.schedule = { ...defaultRetrySchedule, ...options.retry };
    this.now = options.now ?? Date.now;
    this.random = options.random ?? Math.random;
  }

  start(): void {
    this.wake();
  }

  /** Looks at the outbox now (a delivery was just added), or right after the round in flight. */
  wake(): void {
    void this.looks.wake();
  }

  async stop(): Promise<void> {
    await this.looks.close();
  }

  /** A round, then when the next is due: the earliest delivery due, at most `pollMs` away. */
  private async look(): Promise<number> {
    await this.round();
    const pollMs = this.options.pollMs ?? 5_000;
    try {
      const next = await this.options.store.nextDueAt();
      return next === null ? pollMs : Math.max(0, Math.min(pollMs, next - this.now()));
    } catch {
      return pollMs;
    }
  }

  private async round(): Promise<void> {
    try {
      for (;;) {
        const now = this.now();
        const claimed = await this.options.store.claimDue(
          now,
          this.owner,
          now + (this.options.leaseMs ?? 120_000),
          batchSize,
        );
        if (claimed.length === 0) return;
        await Promise.all(claimed.map((delivery) => this.attempt(delivery)));
        if (this.looks.closed) return;
      }
    } catch (error) {
      this.options.log.error(
        { err: error instanceof Error ? { message: error.message } : String(error) },
        'deliveries: the outbox could not be read; trying again shortly',
      );
    }
  }

  private async attempt(delivery: StoredDelivery): Promise<void> {
    let result: AttemptResult;
    try {
      result = await this.options.send(delivery);
    } catch (error) {
      // A sender reports failures; one that throws is a fault here, tried again like any failure.
      result = {
        sent: false,
        status: null,
        reason: `The delivery could not be attempted (${error instanceof Error ? error.message : String(error)}).`,
        retry: true,
      };
    }
    const at = this.now();
    const attempts = delivery.attempts + 1;
    let end: AttemptEnd;
    if (result.sent) end = { state: 'sent', status: result.status, at };
    else {
      const nextAt = at + retryDelay(attempts, this.schedule, this.random);
      const tooOld = nextAt - delivery.createdAt > this.schedule.giveUpMs;
      end =
        result.retry && !tooOld
          ? { state: 'pending', status: result.status, error: result.reason, nextAt, at }
          : {
              state: 'failed',
              status: result.status,
              error: result.retry
                ? `${result.reason} Gave up after ${attempts} attempts.`
                : result.reason,
              at,
            };
      this.options.log.warn(
        {
          delivery: delivery.id,
          channel: delivery.channel,
          attempts,
          status: result.status,
          reason: result.reason,
          state: end.state,
        },
        `deliveries: ${delivery.channel} delivery ${delivery.id} failed (attempt ${attempts})`,
      );
    }
    const recorded = await this.options.store.finish(delivery.id, this.owner, end);
    if (recorded) this.options.attempted?.({ ...delivery, attempts }, end);
  }
}
