import { Counter, Gauge, type Registry } from 'prom-client';
import { withDeadline } from '@/server/ops/deadline';
import { metricPrefix } from './metric-prefix';

/** What the journal and the database report when scraped; each may be absent. */
export interface ScrapeSources {
  /** Calls waiting in the journal's queue. */
  journalBacklog?: () => number;
  /** Calls the journal let go unrecorded since the process started. */
  journalUnrecorded?: () => number;
  /** Calls the proxy held before sending them, for the journal's writing to catch up. */
  journalHeld?: () => number;
  /** Calls the journal holds, and the bytes it takes (read from the database on each scrape). */
  journalSize?: () => Promise<{ entries: number; bytes: number }>;
  /** PostgreSQL's pool: connections open, idle, and queries waiting for one. */
  pool?: () => { total: number; idle: number; waiting: number };
}

/** Well inside Prometheus' default scrape timeout of 10 s. */
const journalSizeWaitMs = 2000;

/**
 * The figures read when scraped rather than counted as calls go: the journal's queue and counts,
 * its size in the database, PostgreSQL's pool. `sources` says, at each scrape, where to read them.
 */
export function registerScrapedMetrics(registers: Registry[], sources: () => ScrapeSources): void {
  // One read of the journal's size serves both of its gauges in the same scrape. A database
  // that does not answer in time leaves them at the last figure read, rather than make the
  // scraper time out and lose every other figure with them.
  let sizeRead: Promise<{ entries: number; bytes: number } | null> | null = null;
  const readJournalSize = (from: ScrapeSources) => {
    const reading = (from.journalSize?.() ?? Promise.resolve(null)).catch(() => null);
    sizeRead ??= withDeadline(reading, journalSizeWaitMs, () => null).finally(() =>
      setImmediate(() => (sizeRead = null)),
    );
    return sizeRead;
  };
  new Gauge({
    name: `${metricPrefix}journal_backlog`,
    help: 'Calls waiting in the call journal queue to be written.',
    registers,
    collect() {
      const backlog = sources().journalBacklog;
      if (backlog) this.set(backlog());
    },
  });
  // Counted by the journal itself from its start, as this process's counters are: copied in.
  for (const [name, help, read] of [
    [
      'journal_unrecorded_total',
      'Calls the call journal let go unrecorded: its queue far behind, or a write that failed.',
      'journalUnrecorded',
    ],
    [
      'journal_held_total',
      'Calls held before they were sent, for the call journal writing far behind to catch up.',
      'journalHeld',
    ],
  ] as const) {
    new Counter({
      name: `${metricPrefix}${name}`,
      help,
      registers,
      collect() {
        const count = sources()[read];
        if (!count) return;
        this.reset();
        this.inc(count());
      },
    });
  }
  new Gauge({
    name: `${metricPrefix}journal_entries`,
    help: 'Calls the call journal holds (every process on a shared database counts the same ones).',
    registers,
    async collect() {
      const size = await readJournalSize(sources());
      if (size) this.set(size.entries);
    },
  });
  new Gauge({
    name: `${metricPrefix}journal_bytes`,
    help: 'Bytes the call journal takes in the portal database (what JOURNAL_MAX_MB bounds).',
    registers,
    async collect() {
      const size = await readJournalSize(sources());
      if (size) this.set(size.bytes);
    },
  });
  new Gauge({
    name: `${metricPrefix}db_pool_connections`,
    help: 'PostgreSQL pool connections by state: total open, idle, and queries waiting for one (absent on SQLite).',
    labelNames: ['state'],
    registers,
    collect() {
      const pool = sources().pool?.();
      if (!pool) return;
      this.set({ state: 'total' }, pool.total);
      this.set({ state: 'idle' }, pool.idle);
      this.set({ state: 'waiting' }, pool.waiting);
    },
  });
}
