import type { JournalSettings } from '@/server/config';
import { RecordMaker, type CallToRecord, type LateAnswerToRecord } from './call-record';
import { holdNewCalls, JournalHold, type HoldLog, type HoldNewCalls } from './journal-hold';
import { pruneJournal } from './journal-retention';
import type {
  JournalLateRecord,
  JournalLateTarget,
  JournalReader,
  JournalRecord,
  JournalStore,
} from './store/journal-store';

export type { CallToRecord, LateAnswerToRecord } from './call-record';

/**
 * A call handed to the journal. Its id is the store's to give when the call is written, so it is
 * null until then, and stays null if the write fails.
 */
export interface RecordedCall {
  readonly id: number | null;
}

/** The journal's own side of a RecordedCall: the id is filled in after the write. */
interface QueuedCall {
  id: number | null;
}

type Pending =
  | {
      kind: 'call';
      handle: QueuedCall;
      call: CallToRecord;
      /** Its bodies' bytes that are new to the journal (a repeat is held once, and costs a look). */
      bytes: number;
    }
  | { kind: 'late'; call: RecordedCall; answer: LateAnswerToRecord };

/** Where the journal reports: the server's logger. Never given a body. */
export interface JournalLog extends HoldLog {
  error(details: { code: string; reason: string }, message: string): void;
}

export interface CallJournalOptions {
  store: JournalStore;
  settings: JournalSettings;
  /** The API key and secret: replaced by [redacted] wherever they appear. */
  secrets: readonly string[];
  log: JournalLog;
  /** The setting that names the database, for health's message (default PORTAL_DB). */
  setting?: 'PORTAL_DB' | 'DATABASE_URL';
  /** Told when writes start failing (a reason) and when they work again (null). */
  onHealth?: (problem: string | null) => void;
  now?: () => number;
  /** How often retention runs besides at start (default 10 minutes). */
  pruneEveryMs?: number;
  /** How long a call may wait in the queue for others to share its transaction (default 50 ms). */
  flushDelayMs?: number;
  /** When `room` holds new calls, and for how long at most (defaults: holdNewCalls). */
  hold?: HoldNewCalls;
}

/**
 * Most calls one transaction writes; most time one turn of writing may hold the event loop. A
 * transaction costs a few pages written to the WAL whatever it holds, so calls are gathered for
 * up to `flushDelayMs` (or until a batch is full): for the proxy bench's batch the journal's
 * writing costs ~75 µs a call alone in its transaction, ~33 µs with 10 or more.
 */
const batchSize = 64;
/**
 * A batch also ends past this many body bytes: a new body costs its hashing, compression and
 * indexing (~15 µs per KB of JSON, FTS5 the most), so 512 KB of new bodies hold the event loop
 * for about 8 ms; repeated bodies cost a comparison.
 */
const batchBytes = 512 * 1024;
const turnBudgetMs = 8;
/** Past these, calls go unrecorded rather than pile up in memory (a store far behind or broken). */
const maxQueued = 10_000;
const maxQueuedBytes = 64 * 1024 * 1024;
/**
 * Past this many calls waiting to be written, /api/health/ready says the journal does not keep
 * up: a tenth of the point where calls start going unrecorded, so a load balancer sends calls
 * elsewhere well before any is lost. A healthy writer holds at most a batch or two (64 calls
 * each, written every 50 ms).
 */
export const journalReadyBacklog = 1000;

function pendingBytes(item: Pending): number {
  return item.kind === 'call' ? item.bytes : (item.answer.body?.length ?? 0);
}

/**
 * Where a late answer goes: its call's id once written, or the call's place in this batch. Null
 * when its call went unrecorded (a write that failed): the answer goes with it.
 */
function lateTarget(
  call: RecordedCall,
  places: ReadonlyMap<RecordedCall, number>,
): JournalLateTarget | null {
  if (call.id !== null) return { id: call.id };
  const index = places.get(call);
  return index === undefined ? null : { index };
}

function describe(error: unknown): { code: string; reason: string } {
  const code =
    typeof error === 'object' && error !== null && typeof Reflect.get(error, 'code') === 'string'
      ? String(Reflect.get(error, 'code'))
      : 'unknown';
  // Store errors name what failed (disk full, read-only…), never the data being written.
  const reason = (error instanceof Error ? error.message : String(error)).slice(0, 300);
  return { code, reason };
}

/**
 * The call journal (decision 025): every call through the proxy, recorded without failing it.
 * `record` only queues; the queue is written dozens of calls per transaction on a later turn of
 * the event loop, when the answer is long on its way. A write that fails is logged once (no
 * bodies), reported to health, and the calls in it go unrecorded. The proxy waits for the journal
 * only when its writing falls far behind, before a call is sent (`room`).
 */
export class CallJournal {
  private readonly store: JournalStore;
  private readonly settings: JournalSettings;
  private readonly log: JournalLog;
  private readonly now: () => number;
  private queue: Pending[] = [];
  private queuedBytes = 0;
  private timer: NodeJS.Timeout | null = null;
  private immediate = false;
  private readonly flushDelayMs: number;
  private readonly records: RecordMaker;
  /** Writes in order, one at a time. */
  private writing: Promise<void> = Promise.resolve();
  private failing = false;
  /** Calls that went unrecorded since the journal opened (a queue too far behind, a failed write). */
  private unrecordedCount = 0;
  /** unrecordedCount when writes last worked again: the log tells how many went since. */
  private unrecordedBefore = 0;
  private overflowing = false;
  private readonly hold: JournalHold;
  private pruning: Promise<void> | null = null;
  private readonly pruneTimer: NodeJS.Timeout;
  /** Calls and late answers written since the journal opened (a drain reports what it flushed). */
  private writtenCount = 0;

  private constructor(private readonly options: CallJournalOptions) {
    this.store = options.store;
    this.settings = options.settings;
    this.records = new RecordMaker(options.secrets, options.settings.bodyLimitBytes);
    this.log = options.log;
    this.now = options.now ?? Date.now;
    this.flushDelayMs = options.flushDelayMs ?? 50;
    this.hold = new JournalHold(
      options.hold ?? holdNewCalls,
      () => ({ calls: this.queue.length, bytes: this.queuedBytes }),
      options.log,
    );
    this.pruneTimer = setInterval(() => void this.prune(), options.pruneEveryMs ?? 10 * 60_000);
    this.pruneTimer.unref();
  }

  /** Opens the journal on its store and prunes what retention no longer allows. */
  static async open(options: CallJournalOptions): Promise<CallJournal> {
    const journal = new CallJournal(options);
    await journal.prune();
    return journal;
  }

  /**
   * Queues a call; returns it, to be given its id when written, or null when the journal is too
   * far behind to take it (the call itself is unaffected either way).
   */
  record(call: CallToRecord): RecordedCall | null {
    // A repeated body waits in the queue as the copy already held, not as the request's Buffer,
    // and counts for nothing against the batch's and the queue's bytes: it takes no memory of its
    // own and costs a comparison to write. Counting it made the proxy bench's 31 KB batch end a
    // batch every ~16 calls (512 KB), a transaction every ~10 calls instead of every 64.
    const bytes = this.records.hold(call);
    if (this.queue.length >= maxQueued || this.queuedBytes + bytes > maxQueuedBytes) {
      this.unrecordedCount += 1;
      if (!this.overflowing) {
        this.overflowing = true;
        this.log.warn(
          { dropped: 1 },
          'call journal: writing is far behind; calls go unrecorded until it catches up',
        );
      }
      return null;
    }
    const handle: QueuedCall = { id: null };
    this.queue.push({ kind: 'call', handle, call, bytes });
    this.queuedBytes += bytes;
    this.schedule();
    return handle;
  }

  /**
   * Null while writing keeps up; else a promise the proxy awaits before a call is sent, resolved
   * once writing has caught up or after a limit (JournalHold.room, decision 062).
   */
  room(): Promise<void> | null {
    return this.hold.room();
  }

  /**
   * Adds the late answer of a call recorded as 504. Queued after its call, so written with it or
   * after it: in the same transaction when they share a batch, else on the id the call was given.
   */
  recordLateAnswer(call: RecordedCall, answer: LateAnswerToRecord): void {
    this.queue.push({ kind: 'late', call, answer });
    this.queuedBytes += answer.body?.length ?? 0;
    this.schedule();
  }

  /**
   * Whether a call with this id is recorded. Only a written call has an id (the browser learns ids
   * from the journal's API, which writes what is queued first), so the store alone knows.
   */
  async exists(id: number): Promise<boolean> {
    return this.store.exists(id);
  }

  /** The stored calls to read, with everything queued written first (a call just made shows). */
  async reader(): Promise<JournalReader> {
    await this.flush();
    return this.store;
  }

  /** Calls and late answers waiting to be written. */
  get backlog(): number {
    return this.queue.length;
  }

  /** Calls and late answers written since the journal opened. */
  get written(): number {
    return this.writtenCount;
  }

  /**
   * Calls that went unrecorded since the journal opened: queued past its limits while writing was
   * far behind, or in a write that failed. Zero is the promise, one entry per call.
   */
  get unrecordedCalls(): number {
    return this.unrecordedCount;
  }

  /** Calls the proxy held before sending them, for writing to catch up, since the journal opened. */
  get heldCalls(): number {
    return this.hold.heldCalls;
  }

  /** Writes everything queued so far. */
  async flush(): Promise<void> {
    this.writing = this.writing.then(() => this.drain(Number.POSITIVE_INFINITY));
    await this.writing;
  }

  /** A write on a later turn: at once when a batch is full, else after flushDelayMs. */
  private schedule(): void {
    if (this.immediate) return;
    if (this.queue.length >= batchSize || this.queuedBytes >= batchBytes) {
      if (this.timer) clearTimeout(this.timer);
      this.timer = null;
      this.immediate = true;
      setImmediate(() => {
        this.immediate = false;
        this.startWriting();
      });
      return;
    }
    if (this.timer) return;
    this.timer = setTimeout(() => {
      this.timer = null;
      this.startWriting();
    }, this.flushDelayMs);
  }

  private startWriting(): void {
    this.writing = this.writing.then(() => this.drain(turnBudgetMs));
  }

  /** Writes batches until the queue is empty or the turn's budget is spent (then a next turn). */
  private async drain(budgetMs: number): Promise<void> {
    const started = performance.now();
    while (this.queue.length > 0) {
      const batch = this.takeBatch();
      await this.write(batch);
      if (performance.now() - started > budgetMs) break;
    }
    if (this.queue.length > 0) this.schedule();
  }

  /** The next calls to write together: up to batchSize of them, or batchBytes of bodies. */
  private takeBatch(): Pending[] {
    let count = 0;
    let bytes = 0;
    while (count < this.queue.length && count < batchSize && bytes < batchBytes) {
      const item = this.queue[count];
      bytes += item ? pendingBytes(item) : 0;
      count += 1;
    }
    return this.queue.splice(0, count);
  }

  private async write(batch: Pending[]): Promise<void> {
    const records: JournalRecord[] = [];
    const late: JournalLateRecord[] = [];
    /** The calls of this batch, by their place in `records`. */
    const handles: QueuedCall[] = [];
    const places = new Map<RecordedCall, number>();
    try {
      for (const item of batch) {
        if (item.kind === 'call') {
          places.set(item.handle, records.length);
          handles.push(item.handle);
          records.push(this.records.call(item.call));
        } else {
          const target = lateTarget(item.call, places);
          if (target !== null) late.push(this.records.late(target, item.answer));
        }
      }
      const ids = await this.store.write(records, late);
      handles.forEach((handle, index) => {
        handle.id = ids[index] ?? null;
      });
      this.writtenCount += records.length + late.length;
      this.worked();
    } catch (error) {
      this.failed(error, records.length);
    } finally {
      for (const item of batch) this.queuedBytes -= pendingBytes(item);
      if (this.overflowing && this.queue.length < maxQueued / 2) this.overflowing = false;
      this.hold.written();
    }
  }

  private worked(): void {
    if (!this.failing) return;
    this.failing = false;
    this.log.info(
      { unrecorded: this.unrecordedCount - this.unrecordedBefore },
      'call journal: writes work again',
    );
    this.unrecordedBefore = this.unrecordedCount;
    this.options.onHealth?.(null);
  }

  private failed(error: unknown, calls: number): void {
    this.unrecordedCount += calls;
    if (this.failing) return;
    this.failing = true;
    const details = describe(error);
    this.log.error(
      details,
      'call journal: could not write to the portal database; calls go on, unrecorded',
    );
    this.options.onHealth?.(
      `call journal (${this.options.setting ?? 'PORTAL_DB'}): ${details.reason}; calls are not being recorded`,
    );
  }

  /** Retention (pruneJournal): at start, every few minutes, never twice at once. */
  prune(): Promise<void> {
    this.pruning ??= this.pruneNow().finally(() => {
      this.pruning = null;
    });
    return this.pruning;
  }

  private async pruneNow(): Promise<void> {
    try {
      await pruneJournal(this.store, this.settings, this.now());
    } catch (error) {
      // Not "once": it runs every few minutes at most, and a failing prune is worth repeating.
      this.log.error(describe(error), 'call journal: retention could not prune old calls');
    }
  }

  /** Stops retention and writes what is queued. */
  async close(): Promise<void> {
    clearInterval(this.pruneTimer);
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    await this.pruning;
    await this.flush();
  }
}
