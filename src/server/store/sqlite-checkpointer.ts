import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';

/**
 * Copies a SQLite database's write-ahead log into the database file from a thread of its own, and
 * runs long housekeeping statements there on request.
 *
 * A connection checkpoints its log itself when a commit leaves it past `wal_autocheckpoint` pages,
 * and that copy (and its fsync) runs on the thread that committed: tens of milliseconds for a
 * thousand pages, more when the log has grown under a long run of writes. A checkpoint in
 * PASSIVE mode on another connection takes no write lock, so writers go on meanwhile; run from a
 * worker thread, it keeps the copy off the event loop of the process that writes.
 *
 * The worker is plain CommonJS given as text, so that the built server and the sources run it
 * alike, and it loads the same better-sqlite3 as the caller.
 */
const worker = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driver);
const db = new Database(workerData.path, { fileMustExist: true });
// What this connection frees is zeroed, as the portal's own connection does.
db.pragma('secure_delete = ON');
const changes = db.prepare('SELECT total_changes() AS n');
const checkpoint = () => {
  try {
    db.pragma('busy_timeout = 0');
    db.pragma('wal_checkpoint(PASSIVE)');
  } catch {
    // A busy database is checkpointed at the next turn or by its own connection later.
  }
};
const timer = setInterval(checkpoint, workerData.everyMs);
// One statement run again and again, each time its own transaction, with a pause between (for
// the other connection to take the write lock), until a run changes fewer than two rows.
const repeat = ({ statement, pauseMs }) => {
  let runs = 0;
  const step = () => {
    try {
      db.pragma('busy_timeout = 5000');
      const before = changes.get().n;
      db.exec(statement);
      runs += 1;
      if (changes.get().n - before < 2) return parentPort.postMessage({ settled: runs });
      setTimeout(step, pauseMs);
    } catch (error) {
      parentPort.postMessage({ failed: String(error && error.message ? error.message : error) });
    }
  };
  step();
};
parentPort.on('message', (message) => {
  if (message !== 'stop') return repeat(message);
  clearInterval(timer);
  checkpoint();
  db.close();
  parentPort.close();
});
`;

export interface Checkpointer {
  /**
   * Runs `statement` on the worker's connection again and again, each run its own transaction
   * with `pauseMs` between runs, until one changes fewer than two rows; resolves with the number
   * of runs. Rejects when a run failed or the worker is gone: the caller does the work itself.
   */
  repeat(statement: string, pauseMs: number): Promise<number>;
  /** Stops after one last checkpoint; resolves once the worker has closed its connection (or failed). */
  stop(): Promise<void>;
}

/** Checkpoints the database at `path` every `everyMs` from a worker thread until stopped. */
export function startCheckpointer(path: string, everyMs: number): Checkpointer {
  const driver = createRequire(import.meta.url).resolve('better-sqlite3');
  const thread = new Worker(worker, { eval: true, workerData: { driver, path, everyMs } });
  // A worker that failed has checkpointed nothing; the caller's connection checkpoints the log
  // itself again once its own checkpointing is back on, so a failure here loses nothing.
  const exited = new Promise<void>((resolve) => {
    thread.once('error', () => resolve());
    thread.once('exit', () => resolve());
  });
  let gone = false;
  void exited.then(() => (gone = true));
  return {
    repeat(statement, pauseMs) {
      if (gone) return Promise.reject(new Error('the worker has stopped'));
      return new Promise((resolve, reject) => {
        const answer = (message: { settled?: number; failed?: string }) => {
          thread.off('exit', lost);
          if (message.settled !== undefined) resolve(message.settled);
          else reject(new Error(message.failed ?? 'the worker could not run the statement'));
        };
        const lost = () => {
          thread.off('message', answer);
          reject(new Error('the worker stopped'));
        };
        thread.once('message', answer);
        thread.once('exit', lost);
        thread.postMessage({ statement, pauseMs });
      });
    },
    async stop() {
      thread.postMessage('stop');
      await exited;
    },
  };
}
