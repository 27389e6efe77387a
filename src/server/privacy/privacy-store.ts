/**
 * Where the portal keeps text a user entered or a VMS answered, read and rewritten for one person
 * at a time (decision 059). The privacy concern is the one place that reaches into other concerns'
 * tables: finding a person must cover every store, and a second way into each (a method on each
 * concern's store) would be as many places to forget. Each source is a table, the columns that
 * identify a row, when the row was written, and the columns that may hold what was entered.
 */
export interface TextSource {
  /** The store's name as find and export report it. */
  name: string;
  table: string;
  keys: readonly string[];
  /** The row's time, milliseconds since the epoch. */
  at: string;
  columns: readonly string[];
  /**
   * `address`: each column is a call's address, whose query's values are read decoded (a person's
   * e-mail is `%40`-encoded there) and written back encoded (decision 061).
   */
  reading?: 'address';
  /** `bytes`: the columns hold UTF-8 text as bytes (a BLOB, a BYTEA), read and written as such. */
  stored?: 'bytes';
  /**
   * Rows read per statement, by the source's one whole-number key, with a turn of the event loop
   * between statements: a table as large as the journal's calls, which SQLite would otherwise
   * scan in one synchronous statement (100,000 calls: some 200 ms).
   */
  scanStep?: number;
}

/**
 * The stores beside the journal (whose bodies are found through its search index). The per-user
 * records are split by collection so find says drafts, submissions and trays apart.
 */
export const textSources: readonly TextSource[] = [
  {
    // A call's address: a filter's value or a parameter may be the person's (the bodies are
    // found through the search index, which does not hold addresses).
    name: 'journal_addresses',
    table: 'journal_calls',
    keys: ['id'],
    at: 'at',
    columns: ['path', 'url'],
    reading: 'address',
    scanStep: 10_000,
  },
  {
    name: 'watch',
    table: 'batch_watches',
    keys: ['connection', 'batch_id'],
    at: 'accepted_at',
    columns: ['results_rows', 'results_body'],
  },
  ...(['drafts', 'submissions', 'tray'] as const).map((collection) => ({
    name: collection,
    table: 'user_records',
    keys: ['user_id', 'collection', 'key'],
    at: 'updated_at',
    columns: ['value'],
  })),
  {
    name: 'suites',
    table: 'suite_versions',
    keys: ['suite_id', 'version'],
    at: 'saved_at',
    columns: ['body'],
  },
  {
    name: 'suite_runs',
    table: 'suite_runs',
    keys: ['id'],
    at: 'started_at',
    columns: ['cases', 'verdicts'],
  },
  {
    // The answers the idempotency memory keeps (24 hours) to give a repeated send: the VMS's
    // answer may name the person. Rewritten, never dropped: the key, its status and its headers
    // stay, so a repeat still gets the answer, and the batch is not sent twice (decision 061).
    name: 'idempotency',
    table: 'idempotency_keys',
    keys: ['key'],
    at: 'created_at',
    columns: ['body'],
    stored: 'bytes',
  },
  {
    name: 'audit',
    table: 'audit_events',
    keys: ['id'],
    at: 'at',
    columns: ['details'],
  },
];

/** A row of a source that mentions one of the needles: its key values, time and texts by column. */
/** Every table an erasure may write: the sources', and the journal's bodies and search index. */
export const erasableTables: readonly string[] = [
  ...new Set(['journal_bodies', 'journal_search', ...textSources.map((source) => source.table)]),
];

export interface HeldRow {
  key: readonly (string | number)[];
  at: number;
  texts: Record<string, string | null>;
}

/** A journal body as the search index found it: its id and its kept text. */
export interface HeldBody {
  id: number;
  text: string;
  truncated: boolean;
}

/** A call that holds a body (as request, answer, or late answer), for the export's "where". */
export interface BodyCall {
  callId: number;
  at: number;
  bodyId: number;
}

export interface PrivacyStore {
  /**
   * Ids of the journal bodies whose search words hold every word of at least one of `searches`
   * (each a list of words: an e-mail, or a first and a last name), ascending.
   */
  journalBodyIds(searches: readonly (readonly string[])[]): Promise<number[]>;
  journalBodies(ids: readonly number[]): Promise<HeldBody[]>;
  callsHolding(bodyIds: readonly number[]): Promise<BodyCall[]>;
  /**
   * Writes each body's new text in one transaction: its bytes (packed as the journal packs), its
   * size, a new identity (the old SHA-256 was of the erased content), and its search-index rows.
   */
  rewriteJournalBodies(bodies: readonly { id: number; text: string }[]): Promise<void>;
  /**
   * Runs an erasure's steps with the database's own housekeeping held back where it would make
   * one step long, and put back after (SQLite: see sqlite-privacy-store.ts).
   */
  whileErasing<T>(work: () => Promise<T>): Promise<T>;
  /**
   * One bounded step of taking rewritten bodies' old words out of the search index's pages;
   * true while there is more to do. PostgreSQL's index rows are replaced whole: nothing to do.
   */
  tidySearch(): Promise<boolean>;
  /** Rows of a source with any needle (lower case) in any of its columns, any case. */
  rowsMentioning(source: TextSource, needles: readonly string[]): Promise<HeldRow[]>;
  /**
   * After an erasure, has the database let go of the old versions of the rows it rewrote in these
   * tables, without holding anyone up. PostgreSQL keeps each as a dead tuple until a VACUUM,
   * which takes no lock that stops reads or writes; it marks their space free, but the bytes stay
   * in the page until reused and a GIN index keeps the words (see `compact`). SQLite zeroed them
   * as it freed them (secure_delete): nothing to do.
   */
  reclaim(tables: readonly string[]): Promise<void>;
  /**
   * Rewrites whole every table an erasure may write (PostgreSQL's VACUUM FULL, outside any
   * transaction), so that no byte of an erased row's old version stays in the data files; each
   * table is locked, reads and writes included, while it is rewritten, so an operator runs it at
   * a quiet time. Returns the tables rewritten (none on SQLite, which zeroes as it frees).
   */
  compact(): Promise<string[]>;
  /** Writes new column texts of rows in one transaction (a per-user record gets a new version). */
  rewriteRows(
    source: TextSource,
    rows: readonly { key: readonly (string | number)[]; texts: Record<string, string> }[],
    now: number,
  ): Promise<void>;
}

/** The WHERE clause that picks a source's rows (the per-user records: one collection's). */
export function sourceFilter(source: TextSource): string {
  return source.table === 'user_records' ? `collection = '${source.name}'` : 'TRUE';
}
