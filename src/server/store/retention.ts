import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import type { StoreFactories } from './database';
import type { PortalSqlite } from './portal-database';
import type { PortalPool } from './postgres/pool';
import { warnOnFailure } from './purge-rounds';
import './database-plugin';

/** Retention deletes at most this many rows per transaction, yielding to requests in between. */
export const retentionChunk = 500;

/**
 * What a concern's store gives retention: one step that deletes (or empties) at most `limit` of
 * its rows last touched before `cutoff`, in one transaction, and says how many it took. A row
 * another process took first is not counted, so two processes pruning at once count each row once.
 */
export interface RetentionStore {
  pruneBefore(cutoff: number, limit: number): Promise<number>;
}

/**
 * Prunes everything `step` finds before `cutoff`, `chunk` rows at a time, letting the event loop
 * serve requests between steps, until a step takes fewer than a whole chunk. Returns how many rows
 * went. Throws what the step throws.
 */
export async function pruneInSteps(
  step: (cutoff: number, limit: number) => Promise<number>,
  cutoff: number,
  chunk = retentionChunk,
): Promise<number> {
  let pruned = 0;
  for (;;) {
    const taken = await step(cutoff, chunk);
    pruned += taken;
    if (taken < chunk) return pruned;
    await new Promise((resolve) => setImmediate(resolve));
  }
}

/**
 * The retention store of a table whose old rows simply go: `old` is the SQL condition that makes a
 * row old, given the cutoff's placeholder (`?` or `$1`); `postgresKey` the table's key columns, by which
 * PostgreSQL takes the chunk's rows. There the rows are taken `FOR UPDATE SKIP LOCKED`: rows
 * another process is pruning are skipped, not waited for, and counted by that process. SQLite
 * takes them by rowid, one process at a time.
 */
export function deletingRetention({
  table,
  old,
  postgresKey,
}: {
  table: string;
  old: (cutoff: string) => string;
  postgresKey: string;
}): StoreFactories<RetentionStore> {
  return {
    sqlite(db: PortalSqlite) {
      const prune = db.prepare<[number, number]>(
        `DELETE FROM ${table} WHERE rowid IN (
           SELECT rowid FROM ${table} WHERE ${old('?')} ORDER BY rowid LIMIT ?)`,
      );
      return {
        async pruneBefore(cutoff, limit) {
          return prune.run(cutoff, limit).changes;
        },
      };
    },
    postgres(pool: PortalPool) {
      const sql = `DELETE FROM ${table} WHERE (${postgresKey}) IN (
          SELECT ${postgresKey} FROM ${table} WHERE ${old('$1')}
          LIMIT $2 FOR UPDATE SKIP LOCKED)`;
      return {
        async pruneBefore(cutoff, limit) {
          return (await pool.query(sql, [cutoff, limit])).rowCount ?? 0;
        },
      };
    },
  };
}

export interface RetentionRoundsOptions {
  store: RetentionStore;
  /** How long rows are kept; null keeps them for ever (a setting of 0). */
  keepMs: number | null;
  now: () => number;
  log: Pick<FastifyBaseLogger, 'warn'>;
  /** What the log line says when a round fails, naming the store. */
  failure: string;
  everyMs?: number;
  chunk?: number;
}

/**
 * Retention for one store, off the request path: a round once the server is ready, then one
 * `everyMs` after the last ended (never two at once in a process; the timer keeps no process
 * alive). A failed round is logged and left to the next one. `stop` ends the rounds and waits for
 * one in progress, so the database is not closed under it.
 */
export function retentionRounds({
  store,
  keepMs,
  now,
  log,
  failure,
  everyMs = 10 * 60_000,
  chunk = retentionChunk,
}: RetentionRoundsOptions): { start(): void; stop(): Promise<void> } {
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> = Promise.resolve();
  let stopped = false;
  const round = async () => {
    if (keepMs === null || stopped) return;
    const cutoff = now() - keepMs;
    await warnOnFailure(
      () => pruneInSteps((before, limit) => store.pruneBefore(before, limit), cutoff, chunk),
      log,
      failure,
    );
  };
  const next = () => {
    if (stopped) return;
    timer = setTimeout(() => {
      running = round().then(next);
    }, everyMs);
    timer.unref();
  };
  return {
    start() {
      if (keepMs === null) return;
      running = round().then(next);
    },
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await running;
    },
  };
}

/**
 * A concern's retention on the portal database: its store opened under `name` (the metrics count
 * what it prunes by that name), its rounds started once the server is ready and stopped, the round
 * in progress awaited, before the database closes.
 */
export function scheduleRetention(
  app: FastifyInstance,
  {
    name,
    factories,
    keepMs,
    what,
  }: {
    name: string;
    factories: StoreFactories<RetentionStore>;
    keepMs: number | null;
    /** What the store keeps, for the log line of a failed round. */
    what: string;
  },
): void {
  const rounds = retentionRounds({
    store: app.database.open(name, factories),
    keepMs,
    now: Date.now,
    log: app.log,
    failure: `retention: old ${what} could not be pruned`,
  });
  app.addHook('onReady', async () => rounds.start());
  app.addHook('onClose', () => rounds.stop());
}
