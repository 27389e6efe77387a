import type { PortalSqlite } from './portal-database';

/** What one statement of a turn did: its value, or the error that undid it. */
type Ran = { ok: true; value: unknown } | { ok: false; error: unknown };

/**
 * Statements that the calls of one turn of the event loop ask for, committed together: every
 * keyed POST writes its key before it is forwarded and again when its answer comes, an accepted
 * batch's watch is recorded, and a commit of its own cost each write a lock, an unlock and its
 * pages written to the WAL (about 12 system calls). Each statement still resolves only once its
 * transaction is committed, so what it wrote is as durable when its promise resolves as with a
 * commit of its own (a key before its call leaves, decision 002); the writes of a turn share the
 * commit, whichever store asked. Each statement runs in a savepoint of its own: one that fails
 * is undone and refused alone, so a fault in one store's write never refuses another's (a watch
 * that cannot be recorded does not refuse the keys of the sends beside it). A commit that fails
 * refuses them all.
 */
class TurnCommit {
  private pending: { run: () => unknown; done: (error: unknown, value?: unknown) => void }[] = [];
  private scheduled = false;
  private readonly runAll: (statements: (() => unknown)[]) => Ran[];

  constructor(db: PortalSqlite) {
    // Inside the turn's transaction, better-sqlite3 runs a nested one as a savepoint.
    const alone = db.transaction((statement: () => unknown) => statement());
    this.runAll = db.transaction((statements: (() => unknown)[]) =>
      statements.map((statement): Ran => {
        try {
          return { ok: true, value: alone(statement) };
        } catch (error) {
          return { ok: false, error };
        }
      }),
    );
  }

  run<T>(statement: () => T): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.pending.push({
        run: statement,
        done: (error, value) => (error === null ? resolve(value as T) : reject(error)),
      });
      if (this.scheduled) return;
      this.scheduled = true;
      // After the callbacks of this turn's I/O: every call that arrived with it asks first.
      setImmediate(() => this.commit());
    });
  }

  private commit(): void {
    this.scheduled = false;
    const batch = this.pending;
    this.pending = [];
    let ran: Ran[];
    try {
      // One statement alone is its own transaction already.
      const only = batch.length === 1 ? batch[0] : undefined;
      ran = only ? [{ ok: true, value: only.run() }] : this.runAll(batch.map((entry) => entry.run));
    } catch (error) {
      for (const entry of batch) entry.done(error);
      return;
    }
    batch.forEach((entry, index) => {
      const outcome: Ran = ran[index] ?? { ok: false, error: new Error('no outcome') };
      if (outcome.ok) entry.done(null, outcome.value);
      else entry.done(outcome.error);
    });
  }
}

const turnCommits = new WeakMap<PortalSqlite, TurnCommit>();

/** The one TurnCommit of a database, shared by the stores that write on a call's path. */
export function turnCommitOf(db: PortalSqlite): TurnCommit {
  let turn = turnCommits.get(db);
  if (!turn) {
    turn = new TurnCommit(db);
    turnCommits.set(db, turn);
  }
  return turn;
}
