/**
 * A process's looks at a table for the work due in it (watches to check, schedules to run). One
 * look at a time: a slow database must not let two looks take the same row. A look asked for while
 * one runs comes right after it, so what was written meanwhile is seen. Each look says when the
 * next is due, on a timer that keeps no process alive; after `close` there is no look, and `close`
 * waits for the one in flight.
 */
export class TableLooks {
  private timer: NodeJS.Timeout | null = null;
  private looking: Promise<void> | null = null;
  private again = false;
  private stopped = false;

  /**
   * `look` looks once, logging its own failures (it must not reject), and answers in how many
   * milliseconds the next look is due, or null for none until `wake` is called.
   */
  constructor(private readonly look: () => Promise<number | null>) {}

  get closed(): boolean {
    return this.stopped;
  }

  /** A look now, or right after the one in flight; resolves once a look begun since has ended. */
  wake(): Promise<void> {
    if (this.stopped) return Promise.resolve();
    this.again = true;
    this.looking ??= this.looks();
    return this.looking;
  }

  /** Stops looking; resolves once the look in flight, if any, has ended. */
  async close(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    await this.looking;
  }

  private async looks(): Promise<void> {
    let nextMs: number | null = null;
    try {
      while (this.again && !this.stopped) {
        this.again = false;
        nextMs = await this.look();
      }
    } finally {
      // Cleared in the same turn as the last check of `again`: a wake after it starts a new look.
      this.looking = null;
    }
    if (nextMs !== null) this.arm(nextMs);
  }

  private arm(waitMs: number): void {
    if (this.stopped) return;
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => void this.wake(), waitMs);
    this.timer.unref();
  }
}
