import type {
  JournalEntry,
  JournalFailure,
  JournalFilter,
  JournalOutcome,
  JournalSummary,
} from '@/domain/journal';
import type { VmsOperation } from '@/domain/vms-contract';

/** A body ready to keep: already redacted and cut to the limit by the recorder. */
export interface BodyToKeep {
  /** SHA-256 of the full body: its identity (a body is kept once however often it is seen). */
  sha256: Buffer;
  /** Full length in bytes. */
  size: number;
  /** What is kept: the whole body, or its first JOURNAL_BODY_LIMIT_KB. */
  kept: Buffer;
  truncated: boolean;
  redacted: boolean;
}

/** One call, as the journal writes it. Its id is the store's to give (`write` returns it). */
export interface JournalRecord {
  /** When the portal received it: milliseconds since the epoch, a whole number. */
  at: number;
  operation: VmsOperation | null;
  method: string;
  path: string;
  url: string | null;
  clientOrgId: number | null;
  vendorOrgId: number | null;
  itemCount: number | null;
  batchId: string | null;
  idempotencyKey: string | null;
  replayed: boolean;
  status: number;
  upstreamStatus: number | null;
  outcome: JournalOutcome;
  errorCode: string | null;
  failure: JournalFailure | null;
  latencyMs: number;
  /**
   * From receiving the call to the VMS's answer headers arriving, in milliseconds; null or absent
   * when no answer came from the VMS (refused, remembered, failed before it answered).
   */
  firstByteMs?: number | null;
  replayOf: number | null;
  unchecked: boolean;
  requestBody: BodyToKeep | null;
  responseBody: BodyToKeep | null;
  responseHeaders: Record<string, string>;
  /** Who sent it, as they were then: absent or null with sign-in off, or refused before anyone was known. */
  sentBy?: { userId: string; email: string } | null;
  /** The connection the call went to (or would have gone to); absent or null when not known. */
  connection?: string | null;
  /** The W3C trace id the call was made under; absent or null when not known. */
  traceId?: string | null;
  /** The QA suite run that made the call (decision 038); absent or null for any other call. */
  suiteRun?: number | null;
}

/**
 * The call a late answer belongs to: one already stored (its id), or one written in the same
 * `write` (its place in `records`), whose id is not known until then.
 */
export type JournalLateTarget = { id: number } | { index: number };

/** The id of the call a late answer belongs to, given the ids just written for `records`. */
export function lateTargetId(answer: JournalLateRecord, written: readonly number[]): number {
  if ('id' in answer.call) return answer.call.id;
  const id = written[answer.call.index];
  // The journal builds both lists from one queue: an index outside it is a bug, not data.
  if (id === undefined) {
    throw new RangeError(`a late answer names call #${answer.call.index} of ${written.length}`);
  }
  return id;
}

/** A keyed batch's answer that came after the browser was told 504. */
export interface JournalLateRecord {
  call: JournalLateTarget;
  status: number;
  latencyMs: number;
  headers: Record<string, string>;
  body: BodyToKeep | null;
  batchId: string | null;
}

/**
 * Where a page of calls starts: just past the call that started at `at` (milliseconds since the
 * epoch) with the id `id`. Calls are in the order they started, not the order they were written:
 * a slow call is written when it ends, after quicker ones that started later, and its id says
 * nothing of its start. The id orders calls that started in the same millisecond.
 */
export interface JournalCursor {
  at: number;
  id: number;
}

/** The cursor just past a call, for the page that follows it. */
export function cursorAfter(call: { at: string; id: number }): JournalCursor {
  return { at: Date.parse(call.at), id: call.id };
}

/**
 * A page: at most `limit` calls, newest first from just before `from`, or oldest first from just
 * after it (`from` null: from the newest, or the oldest), by when they started.
 */
export interface JournalPageRequest {
  order: 'newest' | 'oldest';
  from: JournalCursor | null;
  limit: number;
}

/** The search text could not be used (FTS5 refused it); the message is for the user. */
export class JournalSearchError extends Error {
  override name = 'JournalSearchError';
}

/**
 * The journal's storage (decision 025), asynchronous so a PostgreSQL store can implement it beside
 * this SQLite one (decision 027).
 */
export interface JournalStore {
  /**
   * Writes calls, then late answers, in one transaction: all of them or none. Returns the ids the
   * store gave the calls, in the order of `records`: rising in the order calls are written, also
   * across processes sharing one database, so the newest call has the highest id.
   */
  write(records: readonly JournalRecord[], late: readonly JournalLateRecord[]): Promise<number[]>;
  exists(id: number): Promise<boolean>;
  /** Summaries matching `filter`, a page of them. */
  list(filter: JournalFilter, page: JournalPageRequest): Promise<JournalSummary[]>;
  /** Full entries matching `filter`, a page of them (the export's pages). */
  entries(filter: JournalFilter, page: JournalPageRequest): Promise<JournalEntry[]>;
  get(id: number): Promise<JournalEntry | undefined>;
  /** The other calls with this batch id, oldest first. */
  sameBatch(batchId: string, exceptId: number): Promise<JournalSummary[]>;
  /** Calls made as replays of `id`, oldest first. */
  replaysOf(id: number): Promise<JournalSummary[]>;
  /** Deletes up to `limit` of the oldest calls received before `cutoff`; returns how many. */
  pruneReceivedBefore(cutoff: number, limit: number): Promise<number>;
  /** Deletes the `count` oldest calls; returns how many. */
  pruneOldest(count: number): Promise<number>;
  count(): Promise<number>;
  /**
   * Bytes the journal takes, what JOURNAL_MAX_MB bounds; it must fall as calls are pruned. SQLite:
   * the file less its free pages. PostgreSQL: see its store.
   */
  usedBytes(): Promise<number>;
}

/** What the journal's API reads. */
export type JournalReader = Pick<
  JournalStore,
  'list' | 'entries' | 'get' | 'sameBatch' | 'replaysOf'
>;
