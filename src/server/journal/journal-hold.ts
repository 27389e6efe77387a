/** When the proxy holds a new call for the journal to catch up (decision 062). */
export interface HoldNewCalls {
  /** Calls, or bytes of their bodies, waiting to be written from which new calls are held. */
  fromCalls: number;
  fromBytes: number;
  /** The longest a call is held: a store that stalls, rather than fails, must not stop sends. */
  atMostMs: number;
}

/**
 * Under a load the writer cannot match, the journal's queue would grow to its limits (10,000
 * calls, 64 MB) and calls would go unrecorded: the writer shares the event loop with the calls,
 * and each turn of it runs more calls than one batch of writing (the proxy bench on 2 cores:
 * ~1,300 calls a second taken, ~900 written, 3 in 10 unrecorded). So past a twentieth of those
 * limits the proxy holds each new call before it is sent until the queue is back under them: the
 * call is late, not unrecorded, and the time it waits goes to writing. Below readiness's mark
 * (1,000 waiting), so a portal that holds its calls still reads as ready: it keeps up, slower.
 */
export const holdNewCalls: HoldNewCalls = {
  fromCalls: 500,
  fromBytes: 16 * 1024 * 1024,
  atMostMs: 2000,
};

/** Where the hold reports; the journal's log. */
export interface HoldLog {
  warn(details: Record<string, number>, message: string): void;
  info(details: Record<string, number>, message: string): void;
}

/**
 * The calls the proxy holds while the journal's writing is behind. `waiting` reads the journal's
 * queue; the journal calls `written` after each write, which lets the held calls go once the
 * queue is back under the marks.
 */
export class JournalHold {
  /** Each held call's release. */
  private held: (() => void)[] = [];
  /** Calls held since the journal opened. */
  private heldCount = 0;
  /**
   * heldCount when writing fell behind, or null while it keeps up. The log says when holding
   * starts, and when the queue is down to a quarter of the marks, how many calls were held since:
   * the queue hovers at the marks while the load lasts, and a line each time it dips under them
   * would be hundreds a minute.
   */
  private heldBefore: number | null = null;

  constructor(
    private readonly marks: HoldNewCalls,
    private readonly waiting: () => { calls: number; bytes: number },
    private readonly log: HoldLog,
  ) {}

  /** Calls held since the journal opened. */
  get heldCalls(): number {
    return this.heldCount;
  }

  /**
   * Null while writing keeps up, which is almost always: the proxy goes on at once. When it has
   * fallen behind (fromCalls calls or fromBytes bytes waiting), a promise the proxy awaits before
   * a call is sent, resolved once the queue is back under both marks or after atMostMs,
   * whichever comes first. Nothing has been sent when a call waits here.
   */
  room(): Promise<void> | null {
    if (!this.behind()) return null;
    if (this.heldBefore === null) {
      this.heldBefore = this.heldCount;
      this.log.warn(
        { waiting: this.waiting().calls },
        'call journal: writing is behind; new calls wait before they are sent until it catches up',
      );
    }
    this.heldCount += 1;
    return new Promise((resolve) => {
      const timer = setTimeout(resolve, this.marks.atMostMs);
      this.held.push(() => {
        clearTimeout(timer);
        resolve();
      });
    });
  }

  /** After a write: lets the held calls go once the queue is back under the marks. */
  written(): void {
    if (this.heldBefore === null || this.behind()) return;
    for (const release of this.held.splice(0)) release();
    if (this.behind(1 / 4)) return;
    this.log.info(
      { held: this.heldCount - this.heldBefore },
      'call journal: writing caught up; calls go on at once',
    );
    this.heldBefore = null;
  }

  /** Whether the queue is at the marks (`share` 1) or at that share of them. */
  private behind(share = 1): boolean {
    const { calls, bytes } = this.waiting();
    return calls >= this.marks.fromCalls * share || bytes >= this.marks.fromBytes * share;
  }
}
