import { randomBytes, randomUUID } from 'node:crypto';
import { z } from 'zod';
import type { BatchResultRow } from '@/domain/batch-results';
import { payloadKindByOperation } from '@/domain/payload-kind';
import type { AcceptedBatch } from '@/server/proxy/accepted-batch';
import { TableLooks } from '@/server/store/table-looks';
import type { FinishedBatches } from './finished-batch';
import type { CheckOutcome, NewWatch, StoredWatch, WatchStore } from './store/watch-store';
import {
  backoffMs,
  defaultBackoff,
  isSettled,
  retryAfterMs,
  stillPendingAfter,
  type Backoff,
} from './watch-timing';

/** One results call's answer, as the watcher reads it. */
export interface WatchAnswer {
  status: number;
  body: string;
  retryAfter: string | undefined;
}

/** Asks the VMS for one watched batch's results (through the proxy, as its sender). */
export type WatchTransport = (watch: StoredWatch) => Promise<WatchAnswer>;

/**
 * Where due checks wait when a queue outside this process holds them (pg-boss on PostgreSQL):
 * `check` runs one and says when the next is due (null: the watch is finished). Without one, the
 * watcher runs its checks itself off the watches table.
 */
export interface WatchQueue {
  start(check: (connection: string, batchId: string) => Promise<number | null>): Promise<void>;
  /** A watch was recorded, or is resumed: its check is due at `at`. */
  added(connection: string, batchId: string, at: number): Promise<void>;
  close(): Promise<void>;
}

/** What the watcher does, as it does it: for the audit trail and the metrics. */
export interface WatchEvents {
  /** A watch was recorded (once per batch, whichever process was told of it). */
  recorded(watch: NewWatch): void;
  /** A results call for `connection` starts (+1) or ends (-1). */
  asking(connection: string, delta: 1 | -1): void;
  /** A check's outcome was written: still watching, settled or given up. */
  checked(watch: StoredWatch, outcome: CheckOutcome): void;
  /** A check whose outcome could not be told or written: the batch is checked again later. */
  failed(watch: StoredWatch): void;
}

export interface WatcherOptions {
  store: WatchStore;
  /** The job queue that holds the checks; none: this process schedules them itself. */
  queue?: WatchQueue;
  /**
   * The database is this process's alone (SQLite): a lease found at start was left by a process
   * that died mid-check, and is ended rather than waited out.
   */
  ownsDatabase?: boolean;
  transport: WatchTransport;
  /** Most results calls in flight at once per connection (WATCH_CONCURRENCY). */
  concurrency: number;
  /** A batch pending this long after it was accepted is given up (WATCH_GIVE_UP_HOURS). */
  giveUpMs: number;
  /** How long one check may hold its batch: the connection's timeout and some. */
  leaseMs(connection: string): number;
  log: { warn(object: object, message: string): void };
  /** Told of a batch the watch is done with, before that is written (finished-batch.ts). */
  finished?: FinishedBatches | null;
  events?: WatchEvents;
  backoff?: Backoff;
  now?: () => number;
  random?: () => number;
  /**
   * The longest the watcher goes without looking at the table: what another process recorded,
   * and a lease a dead process left, are found within it. Default 5 s.
   */
  idleMs?: number;
}

/** Watches looked at in one go; the rest wait for the next. */
const dueBatch = 100;

/**
 * A new trace id for a watch's calls (W3C trace context: 16 bytes, lowercase hex). Made with every
 * accepted batch, on the send's path: a random UUID comes from Node's cached pool of random bytes,
 * where 16 bytes of their own each asked the system's generator (about 2 % of a send's CPU). Its
 * six fixed version bits leave 122 random ones, as many as a trace needs to be its own.
 */
export function newTraceId(): string {
  return randomUUID().replaceAll('-', '');
}

/**
 * Watches every batch the VMS accepted until its rows are final or it is given up (decision 050),
 * in this process, over the watches table: a check is due at the watch's `next_at`, takes the
 * watch's lease (so no other check, here or in another process, asks about the same batch
 * meanwhile), asks through `transport`, and writes what it read and when to ask next. At most
 * `concurrency` checks per connection run at once; the rest wait their turn. The table is the
 * truth: a restart, or another process, carries on from it.
 */
export class Watcher {
  /** This process's name on the leases it holds. */
  readonly owner = randomBytes(8).toString('hex');
  private readonly now: () => number;
  private readonly random: () => number;
  private readonly backoff: Backoff;
  private readonly inFlight = new Map<string, Promise<unknown>>();
  private readonly busy = new Map<string, number>();
  private readonly looks = new TableLooks(() => this.look());
  /** Watches being recorded: a stopping process finishes them before its queue stops. */
  private readonly accepting = new Set<Promise<boolean>>();

  constructor(private readonly options: WatcherOptions) {
    this.now = options.now ?? Date.now;
    this.random = options.random ?? Math.random;
    this.backoff = options.backoff ?? defaultBackoff;
  }

  /** Records the watch of a batch the VMS accepted; false when it had one already. */
  async accepted(batch: AcceptedBatch): Promise<boolean> {
    const recording = this.record(batch);
    this.accepting.add(recording);
    try {
      return await recording;
    } finally {
      this.accepting.delete(recording);
    }
  }

  private async record(batch: AcceptedBatch): Promise<boolean> {
    const watch: NewWatch = {
      connection: batch.connection,
      batchId: batch.batchId,
      operation: batch.operation,
      clientOrgId: batch.orgs.clientOrgId,
      vendorOrgId: batch.orgs.vendorOrgId,
      sentBy: batch.sentBy,
      itemCount: batch.itemCount,
      traceId: newTraceId(),
      acceptedAt: batch.at,
      nextAt: batch.at + backoffMs(0, this.backoff, this.random),
    };
    const recorded = await this.options.store.record(watch);
    if (recorded) this.options.events?.recorded(watch);
    if (recorded && this.options.queue) {
      await this.options.queue.added(watch.connection, watch.batchId, watch.nextAt);
    } else if (recorded) {
      this.wake();
    }
    return recorded;
  }

  /**
   * Starts the checks: with a queue, its workers, and every unfinished watch handed to it again
   * (one it holds already is not added twice); without, the look at the table.
   */
  async start(): Promise<void> {
    const { queue, store } = this.options;
    if (this.options.ownsDatabase) await store.releaseLeases();
    if (!queue) {
      this.wake();
      return;
    }
    await queue.start((connection, batchId) => this.checkOne(connection, batchId));
    for (const watch of await store.due(Number.MAX_SAFE_INTEGER, 10_000)) {
      await queue.added(watch.connection, watch.batchId, watch.nextAt);
    }
    void this.looks.wake();
  }

  /** One check the queue runs; when the next is due, or null once the watch is finished. */
  async checkOne(connection: string, batchId: string): Promise<number | null> {
    const { store } = this.options;
    const watch = (await store.byBatch(batchId)).find((found) => found.connection === connection);
    if (!watch || watch.state !== 'watching') return null;
    const now = this.now();
    const until = now + this.options.leaseMs(connection);
    // Another check holds the batch: a job run again while the first is still at the VMS, or
    // failed by a process that stopped as its check ended (it gives its lease back once stopped).
    // This one comes back after the first step of the backoff, not when the lease runs out (the
    // VMS's timeout and a minute): the holder's check takes well under a second, and the batch
    // would go unwatched for the rest of the lease.
    if (!(await store.claim(connection, batchId, this.owner, until, now))) {
      return Math.min(until, now + this.backoff.firstMs);
    }
    const outcome = await this.check(watch);
    // A check that failed is looked at again when its lease runs out; but one cut short by this
    // process stopping, after the first step of the backoff: this process gives its leases back
    // as it stops, and another takes the batch then instead of a minute and more later.
    if (outcome === null) return this.looks.closed ? now + this.backoff.firstMs : until;
    return outcome.state === 'watching' ? outcome.nextAt : null;
  }

  /** Looks for due watches now, and from then on when the next is due. */
  wake(): void {
    if (this.options.queue) return;
    void this.looks.wake();
  }

  /** Stops looking and waits for the checks in flight and the watches being recorded. */
  async close(): Promise<void> {
    await this.looks.close();
    await Promise.allSettled([...this.inFlight.values()]);
    // A batch accepted a moment before the stop has its watch recorded and its first check sent
    // to the queue before the queue stops: recorded without a job, no process would check it.
    await Promise.allSettled([...this.accepting]);
    await this.options.queue?.close();
    // A check the queue stopped mid-way leaves its lease: given back, another process takes the
    // batch at once rather than when the lease runs out.
    await this.options.store.releaseOwn(this.owner).catch((error: unknown) => {
      this.options.log.warn({ err: error }, 'batch watch: leases not given back on close');
    });
  }

  /**
   * Takes the checks due (with a queue: hands the queue again those no check holds); answers
   * when to look again: when the next is due, at most `idleMs`.
   */
  private async look(): Promise<number | null> {
    const idle = this.options.idleMs ?? 5000;
    try {
      const { queue } = this.options;
      if (queue) {
        await this.handDue(queue);
        return idle;
      }
      await this.takeDue();
      const next = await this.options.store.nextDueAt();
      return next === null ? idle : Math.min(idle, Math.max(10, next - this.now()));
    } catch (error) {
      this.options.log.warn({ err: error }, 'batch watch: could not read the watches');
      return idle;
    }
  }

  /**
   * A watch due that no check holds may have lost its job: a process that died between
   * recording a watch and sending its first check, or whose check could not send the next. The
   * queue adds nothing for a batch it holds a job for, so handing it every such watch again
   * costs a look and finds the lost ones.
   */
  private async handDue(queue: WatchQueue): Promise<void> {
    for (const watch of await this.options.store.due(this.now(), dueBatch)) {
      if (this.looks.closed) return;
      await queue.added(watch.connection, watch.batchId, watch.nextAt);
    }
  }

  private async takeDue(): Promise<void> {
    const { store, concurrency } = this.options;
    const now = this.now();
    for (const watch of await store.due(now, dueBatch)) {
      if (this.looks.closed) return;
      const key = `${watch.connection}\n${watch.batchId}`;
      const busy = this.busy.get(watch.connection) ?? 0;
      if (this.inFlight.has(key) || busy >= concurrency) continue;
      const until = now + this.options.leaseMs(watch.connection);
      if (!(await store.claim(watch.connection, watch.batchId, this.owner, until, now))) continue;
      this.busy.set(watch.connection, busy + 1);
      const run = this.check(watch).then(
        () => undefined,
        () => undefined,
      );
      this.inFlight.set(
        key,
        run.finally(() => {
          this.busy.set(watch.connection, (this.busy.get(watch.connection) ?? 1) - 1);
          this.inFlight.delete(key);
          this.wake();
        }),
      );
    }
  }

  /** One check of one batch, its lease held: ask, read, write what comes next. */
  private async check(watch: StoredWatch): Promise<CheckOutcome | null> {
    const { store, giveUpMs } = this.options;
    try {
      const outcome = await this.outcomeOf(watch);
      // Told first: should the process die before the outcome is written, the next check finds
      // the batch done again and tells again, which the listener takes as nothing new.
      if (outcome.state !== 'watching') await this.tellFinished(watch, outcome);
      await store.checked(watch.connection, watch.batchId, this.owner, outcome);
      this.options.events?.checked(watch, outcome);
      return outcome;
    } catch (error) {
      this.options.events?.failed(watch);
      // The lease runs out and the batch is checked again then.
      this.options.log.warn(
        { err: error, batchId: watch.batchId, connection: watch.connection, giveUpMs },
        'batch watch: check not recorded',
      );
      return null;
    }
  }

  private async tellFinished(watch: StoredWatch, outcome: CheckOutcome): Promise<void> {
    const { finished } = this.options;
    if (!finished || outcome.state === 'watching') return;
    await finished.finished({
      connection: watch.connection,
      batchId: watch.batchId,
      operation: watch.operation,
      sentBy: watch.sentBy,
      state: outcome.state,
      rows: (outcome.results ?? watch.results)?.rows ?? null,
      giveUpHours: Math.round(this.options.giveUpMs / 3_600_000),
      at: outcome.finishedAt ?? outcome.checkedAt,
    });
  }

  private async outcomeOf(watch: StoredWatch): Promise<CheckOutcome> {
    const started = this.now();
    if (started - watch.acceptedAt >= this.options.giveUpMs) {
      return {
        state: 'gave_up',
        nextAt: started,
        checkedAt: started,
        status: watch.lastStatus,
        problem: stillPendingAfter(this.options.giveUpMs),
        finishedAt: started,
        results: null,
      };
    }
    const wait = backoffMs(watch.attempts + 1, this.backoff, this.random);
    let answer: WatchAnswer;
    const { events } = this.options;
    events?.asking(watch.connection, 1);
    try {
      answer = await this.options.transport(watch);
    } catch (error) {
      return this.pending(wait, null, `no answer: ${(error as Error).message}`);
    } finally {
      events?.asking(watch.connection, -1);
    }
    const now = this.now();
    if (answer.status < 200 || answer.status >= 300) {
      const asked = retryAfterMs(answer.retryAfter, now);
      return this.pending(
        Math.max(wait, asked ?? 0),
        answer.status,
        `the results call was answered ${answer.status}${asked === null ? '' : ` (Retry-After ${answer.retryAfter})`}`,
      );
    }
    const rows = readRows(watch, answer.body);
    if (typeof rows === 'string') return this.pending(wait, answer.status, rows);
    const results = { rows, body: answer.body, at: now };
    const kind = payloadKindByOperation(watch.operation);
    if (kind && isSettled(kind, rows)) {
      return {
        state: 'settled',
        nextAt: now,
        checkedAt: now,
        status: answer.status,
        problem: null,
        finishedAt: now,
        results,
      };
    }
    return { ...this.pending(wait, answer.status, null), results };
  }

  private pending(waitMs: number, status: number | null, problem: string | null): CheckOutcome {
    const now = this.now();
    return {
      state: 'watching',
      nextAt: now + waitMs,
      checkedAt: now,
      status,
      problem,
      finishedAt: null,
      results: null,
    };
  }
}

/** The rows of a results answer in the portal's terms, or what is wrong with it. */
function readRows(watch: StoredWatch, body: string): BatchResultRow[] | string {
  const kind = payloadKindByOperation(watch.operation);
  if (!kind) return `the portal does not know the operation ${watch.operation}`;
  let json: unknown;
  try {
    json = JSON.parse(body);
  } catch {
    return 'the VMS answered the results call with something that is not JSON';
  }
  const parsed = z.array(kind.resultRowSchema).safeParse(json);
  if (!parsed.success) {
    return `the VMS's results could not be read: ${parsed.error.issues[0]?.message ?? 'not a list of rows'}`;
  }
  return parsed.data;
}
