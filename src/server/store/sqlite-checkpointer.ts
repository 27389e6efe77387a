import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';

/**
 * Copies a SQLite database's write-ahead log into the database file from a thread of its own.
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
db.pragma('busy_timeout = 0');
const checkpoint = () => {
  try {
    db.pragma('wal_checkpoint(PASSIVE)');
  } catch {
    // A busy database is checkpointed at the next turn or by its own connection later.
  }
};
const timer = setInterval(checkpoint, workerData.everyMs);
parentPort.on('message', () => {
  clearInterval(timer);
  checkpoint();
  db.close();
  parentPort.close();
});
`;

export interface Checkpointer {
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
  return {
    async stop() {
      thread.postMessage('stop');
      await exited;
    },
  };
}
