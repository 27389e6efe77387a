import type { BatchResultRow } from '@/domain/batch-results';
import type { PortalSqlite } from '@/server/store/portal-database';
import { turnCommitOf } from '@/server/store/turn-commit';

/** Where a watch stands: still asked about, every row final, or no longer asked about. */
export type WatchState = 'watching' | 'settled' | 'gave_up';

/** A batch the VMS accepted, as the watch concern records it (decision 050). */
export interface NewWatch {
  connection: string;
  batchId: string;
  operation: 'requisitionimport' | 'candidates';
  clientOrgId: number;
  vendorOrgId: number;
  /** Who sent it; null with sign-in off. */
  sentBy: { userId: string; email: string } | null;
  itemCount: number;
  /** The trace the watcher's calls for this batch are made under (the journal's mark). */
  traceId: string;
  acceptedAt: number;
  /** When the first check is due. */
  nextAt: number;
}

/** The latest results of a batch, as the results call returned them. */
export interface KeptResults {
  rows: BatchResultRow[];
  /** The answer's body as the VMS sent it. */
  body: string;
  at: number;
}

export interface StoredWatch extends NewWatch {
  state: WatchState;
  /** Results calls made so far. */
  attempts: number;
  lastCheckedAt: number | null;
  /** The status of the last results call; null before the first. */
  lastStatus: number | null;
  /** What went wrong with the last call, in words; null when it was read. */
  lastProblem: string | null;
  /** When it settled or was given up. */
  finishedAt: number | null;
  results: KeptResults | null;
}

/** What one check leaves: where the watch stands next, and the rows when it read them. */
export interface CheckOutcome {
  state: WatchState;
  nextAt: number;
  checkedAt: number;
  status: number | null;
  problem: string | null;
  finishedAt: number | null;
  results: KeptResults | null;
}

/**
 * The watches (decision 050), asynchronous so that the PostgreSQL store implements the same and
 * several processes share them.
 */
export interface WatchStore {
  /** Records a watch; false when the batch already has one (a second process told of it too). */
  record(watch: NewWatch): Promise<boolean>;
  /** Watches still watching, due by `now` and not leased: the earliest first, at most `limit`. */
  due(now: number, limit: number): Promise<StoredWatch[]>;
  /** When the next watch is due, leased or not; null when none is watching. */
  nextDueAt(): Promise<number | null>;
  /** How many batches are still watched (the metrics read it when scraped). */
  watching(): Promise<number>;
  /**
   * Takes the lease of one check: only where no live lease is (`claimed_until` passed) and the
   * watch is still watching. False: another check has it.
   */
  claim(
    connection: string,
    batchId: string,
    owner: string,
    until: number,
    now: number,
  ): Promise<boolean>;
  /** Writes a check's outcome and gives the lease back (only the owner's lease is written). */
  checked(connection: string, batchId: string, owner: string, outcome: CheckOutcome): Promise<void>;
  /** Every watch of a batch id (one per connection that gave it), newest first. */
  byBatch(batchId: string): Promise<StoredWatch[]>;
  /**
   * Ends every lease: for a database no other process uses, whose leases at start are those of
   * a process that died with its checks in flight.
   */
  releaseLeases(): Promise<void>;
  /**
   * Ends the leases `owner` still holds: a process that closes gives back the checks it did not
   * finish, so another process takes them at once instead of after the lease.
   */
  releaseOwn(owner: string): Promise<void>;
}

/** A row as both databases give it back. */
export interface WatchRow {
  connection: string;
  batch_id: string;
  operation: string;
  client_org_id: number;
  vendor_org_id: number;
  sent_by_user_id: string | null;
  sent_by_email: string | null;
  item_count: number;
  trace_id: string;
  accepted_at: number;
  state: string;
  attempts: number;
  next_at: number;
  last_checked_at: number | null;
  last_status: number | null;
  last_problem: string | null;
  finished_at: number | null;
  results_rows: string | null;
  results_body: string | null;
  results_at: number | null;
}

export const watchColumns = `connection, batch_id, operation, client_org_id, vendor_org_id,
  sent_by_user_id, sent_by_email, item_count, trace_id, accepted_at, state, attempts, next_at,
  last_checked_at, last_status, last_problem, finished_at, results_rows, results_body, results_at`;

const states: readonly WatchState[] = ['watching', 'settled', 'gave_up'];

export function toStoredWatch(row: WatchRow): StoredWatch {
  return {
    connection: row.connection,
    batchId: row.batch_id,
    operation: row.operation === 'candidates' ? 'candidates' : 'requisitionimport',
    clientOrgId: Number(row.client_org_id),
    vendorOrgId: Number(row.vendor_org_id),
    sentBy:
      row.sent_by_user_id === null
        ? null
        : { userId: row.sent_by_user_id, email: row.sent_by_email ?? '' },
    itemCount: row.item_count,
    traceId: row.trace_id,
    acceptedAt: Number(row.accepted_at),
    nextAt: Number(row.next_at),
    // Written through this store; a state a later release adds reads as still watching.
    state: states.find((state) => state === row.state) ?? 'watching',
    attempts: row.attempts,
    lastCheckedAt: row.last_checked_at === null ? null : Number(row.last_checked_at),
    lastStatus: row.last_status,
    lastProblem: row.last_problem,
    finishedAt: row.finished_at === null ? null : Number(row.finished_at),
    results:
      row.results_rows === null
        ? null
        : {
            rows: JSON.parse(row.results_rows) as BatchResultRow[],
            body: row.results_body ?? '',
            at: Number(row.results_at),
          },
  };
}

/** The values of an insert, in the order of `insertColumns`. */
export function newWatchValues(watch: NewWatch): Array<string | number | null> {
  return [
    watch.connection,
    watch.batchId,
    watch.operation,
    watch.clientOrgId,
    watch.vendorOrgId,
    watch.sentBy?.userId ?? null,
    watch.sentBy?.email ?? null,
    watch.itemCount,
    watch.traceId,
    watch.acceptedAt,
    'watching',
    0,
    watch.nextAt,
  ];
}

export const insertColumns = `connection, batch_id, operation, client_org_id, vendor_org_id,
  sent_by_user_id, sent_by_email, item_count, trace_id, accepted_at, state, attempts, next_at`;

/** The values of a check's update, in the order both stores' UPDATE names them. */
export function outcomeValues(outcome: CheckOutcome): Array<string | number | null> {
  return [
    outcome.state,
    outcome.nextAt,
    outcome.checkedAt,
    outcome.status,
    outcome.problem,
    outcome.finishedAt,
    outcome.results ? JSON.stringify(outcome.results.rows) : null,
    outcome.results?.body ?? null,
    outcome.results?.at ?? null,
  ];
}

/** The watches in the portal's SQLite file. */
export function createWatchStore(db: PortalSqlite): WatchStore {
  const turn = turnCommitOf(db);
  const statements = {
    insert: db.prepare(
      `INSERT INTO batch_watches (${insertColumns}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT (connection, batch_id) DO NOTHING`,
    ),
    due: db.prepare<[number, number, number], WatchRow>(
      `SELECT ${watchColumns} FROM batch_watches
       WHERE state = 'watching' AND next_at <= ? AND (claimed_until IS NULL OR claimed_until < ?)
       ORDER BY next_at LIMIT ?`,
    ),
    nextDue: db.prepare<[], { next: number | null }>(
      `SELECT min(next_at) AS next FROM batch_watches WHERE state = 'watching'`,
    ),
    watching: db.prepare<[], { count: number }>(
      `SELECT count(*) AS count FROM batch_watches WHERE state = 'watching'`,
    ),
    claim: db.prepare<[string, number, string, string, number]>(
      `UPDATE batch_watches SET claimed_by = ?, claimed_until = ?
       WHERE connection = ? AND batch_id = ? AND state = 'watching'
         AND (claimed_until IS NULL OR claimed_until < ?)`,
    ),
    checked: db.prepare(
      `UPDATE batch_watches SET state = ?, next_at = ?, last_checked_at = ?, last_status = ?,
         last_problem = ?, finished_at = ?,
         results_rows = coalesce(?, results_rows), results_body = coalesce(?, results_body),
         results_at = coalesce(?, results_at),
         attempts = attempts + 1, claimed_by = NULL, claimed_until = NULL
       WHERE connection = ? AND batch_id = ? AND claimed_by = ?`,
    ),
    byBatch: db.prepare<[string], WatchRow>(
      `SELECT ${watchColumns} FROM batch_watches WHERE batch_id = ? ORDER BY accepted_at DESC`,
    ),
    release: db.prepare(
      'UPDATE batch_watches SET claimed_by = NULL, claimed_until = NULL WHERE claimed_by IS NOT NULL',
    ),
    releaseOwn: db.prepare<[string]>(
      'UPDATE batch_watches SET claimed_by = NULL, claimed_until = NULL WHERE claimed_by = ?',
    ),
  };
  return {
    // On the send's path: committed with the keys' writes of the same turn.
    record: (watch) =>
      turn.run(() => statements.insert.run(...newWatchValues(watch)).changes === 1),
    async due(now, limit) {
      return statements.due.all(now, now, limit).map(toStoredWatch);
    },
    async nextDueAt() {
      return statements.nextDue.get()?.next ?? null;
    },
    async watching() {
      return statements.watching.get()?.count ?? 0;
    },
    async claim(connection, batchId, owner, until, now) {
      return statements.claim.run(owner, until, connection, batchId, now).changes === 1;
    },
    async checked(connection, batchId, owner, outcome) {
      statements.checked.run(...outcomeValues(outcome), connection, batchId, owner);
    },
    async byBatch(batchId) {
      return statements.byBatch.all(batchId).map(toStoredWatch);
    },
    async releaseLeases() {
      statements.release.run();
    },
    async releaseOwn(owner) {
      statements.releaseOwn.run(owner);
    },
  };
}
