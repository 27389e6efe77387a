import type { ConcernSchema } from '@/server/store/migrations';
import type { PortalSqlite } from '@/server/store/portal-database';

/**
 * The call journal's tables (decision 025). Bodies are kept once per content (SHA-256): a results
 * poll answered the same way, a replayed batch or a repeated list costs one row, and the search
 * index reads each distinct body once. The search index is FTS5 (it ships in better-sqlite3's
 * SQLite), contentless with `contentless_delete` so pruning deletes by rowid without reading the
 * bodies back, `detail=full` so a word like REQ-2026-0042 (three tokens) matches as a phrase,
 * `remove_diacritics 2` so "zurich" finds "Zürich".
 *
 * Indexes are few on purpose: every one is written with every call. The list pages by id (the
 * primary key, newest first; since addJournalStartOrder, by when calls started) and tests the
 * other filters as it goes, which at 100,000 calls takes
 * a few milliseconds even when nothing matches (bench/proxy-journal.ts); the partial indexes
 * serve an entry's batch and its replays, and cost nothing on calls without those values. (The
 * idempotency key has none: every batch has one, and the filter by key is rare.)
 */
export function createJournalTables(db: PortalSqlite): void {
  db.exec(`
    CREATE TABLE journal_bodies (
      id INTEGER PRIMARY KEY,
      sha256 BLOB NOT NULL UNIQUE,
      size INTEGER NOT NULL,
      truncated INTEGER NOT NULL,
      redacted INTEGER NOT NULL,
      compressed INTEGER NOT NULL,
      data BLOB NOT NULL
    );
    CREATE VIRTUAL TABLE journal_search USING fts5(
      body,
      content = '',
      contentless_delete = 1,
      detail = full,
      tokenize = 'unicode61 remove_diacritics 2'
    );
    ${journalCallsTable({ id: 'INTEGER PRIMARY KEY', big: 'INTEGER', real: 'REAL' })}
  `);
}

/**
 * The calls' table and its first indexes in either database, which differ only in the id (SQLite's
 * rowid, a PostgreSQL identity), the type of a time, an org id or a body's id (`big`: PostgreSQL's
 * INTEGER is 32 bits) and of a latency (`real`).
 */
function journalCallsTable({ id, big, real }: { id: string; big: string; real: string }): string {
  return `CREATE TABLE journal_calls (
      id ${id},
      at ${big} NOT NULL,
      operation TEXT,
      method TEXT NOT NULL,
      path TEXT NOT NULL,
      url TEXT,
      client_org_id ${big},
      vendor_org_id ${big},
      item_count INTEGER,
      batch_id TEXT,
      idempotency_key TEXT,
      replayed INTEGER NOT NULL,
      status INTEGER NOT NULL,
      upstream_status INTEGER,
      outcome TEXT NOT NULL CHECK (outcome IN ('forwarded', 'refused', 'failed')),
      error_code TEXT,
      failure TEXT CHECK (failure IN ('timeout', 'connection')),
      latency_ms ${real} NOT NULL,
      replay_of ${big},
      unchecked INTEGER NOT NULL,
      request_body ${big},
      request_size ${big},
      response_body ${big},
      response_size ${big},
      response_headers TEXT NOT NULL,
      late_status INTEGER,
      late_latency_ms ${real},
      late_headers TEXT,
      late_body ${big}
    );
    CREATE INDEX journal_calls_batch ON journal_calls (batch_id) WHERE batch_id IS NOT NULL;
    CREATE INDEX journal_calls_replay_of ON journal_calls (replay_of) WHERE replay_of IS NOT NULL;`;
}

/**
 * Schema version 4: who sent each call. The id and the e-mail address as they were
 * then (an address may change later, the journal says who it was); null when sign-in is off or
 * the call was refused before anyone was known.
 */
export function addJournalSender(db: PortalSqlite): void {
  db.exec(`
    ALTER TABLE journal_calls ADD COLUMN user_id TEXT;
    ALTER TABLE journal_calls ADD COLUMN user_email TEXT;
  `);
}

/**
 * The journal's calls by when they started, and how long the VMS took to start answering each.
 * The list and the export read calls in the order they started (`at`), which is not the order
 * they are written in (a slow call is written when it ends): the index walks that order and
 * pages from a cursor of (at, id). `at` rises with nearly every call written, so the index is
 * appended to at its end, the cheapest an index can be to keep. `first_byte_ms` is from receiving
 * the call to the VMS's answer headers arriving (null when the VMS was not reached), so an export
 * can tell waiting for the VMS from receiving its answer.
 */
export function addJournalStartOrder(db: PortalSqlite): void {
  db.exec(`
    CREATE INDEX journal_calls_started ON journal_calls (at, id);
    ALTER TABLE journal_calls ADD COLUMN first_byte_ms REAL;
  `);
}

/**
 * Schema version 8, the journal's step: which VMS connection each call went to (the accounts'
 * step of the same version says which connections each account may use). A call recorded before there were several connections has none (it went to the one
 * the deployment had); an account's `connections` is a JSON array of connection names, or null
 * for every connection of the deployment (what accounts made before could use).
 */
export function addConnections(db: PortalSqlite): void {
  db.exec(`
    ALTER TABLE journal_calls ADD COLUMN connection TEXT;
  `);
}

/**
 * The W3C trace id of each journal call (`traceparent`), so one send can be followed from the
 * browser through the portal's log, the audit trail and the journal into the VMS's own logs.
 */
export function addJournalTrace(db: PortalSqlite): void {
  db.exec(`ALTER TABLE journal_calls ADD COLUMN trace_id TEXT;`);
}

/**
 * The calls that hold a body, found by it: the list starts a search for a word in few bodies from
 * them (journal-search.ts, `fewBodies`) instead of testing every call, and pruning finds which
 * bodies are still held without a scan of the calls. PostgreSQL has had the same indexes since
 * the journal began (its pruning needed them). Each costs a call's write one more entry, at the
 * end of the index for a new body.
 */
export function addJournalBodyIndexes(db: PortalSqlite): void {
  db.exec(`
    CREATE INDEX journal_calls_request_body ON journal_calls (request_body);
    CREATE INDEX journal_calls_response_body ON journal_calls (response_body);
    CREATE INDEX journal_calls_late_body ON journal_calls (late_body) WHERE late_body IS NOT NULL;
  `);
}

/*
 * The PostgreSQL side of each step follows the SQLite side: types follow the SQLite columns so that
 * both stores read rows the same way (times are BIGINT milliseconds, flags 0/1 INTEGERs, digests
 * and bodies BYTEA, JSON kept as TEXT).
 */

/**
 * Version 2: the call journal (decision 025). Ids come from the table's identity, so several
 * processes number calls without colliding. The search index, the counterpart of SQLite's FTS5
 * table, is a tsvector per part of each distinct body (GIN): a tsvector keeps at most 256
 * positions of a word and none past 16383, so one per body would lose phrases in a large batch
 * (journal/store/journal-words.ts). `data` is stored as given (already deflated when that pays, as in
 * SQLite), not compressed again by TOAST.
 */
const postgresJournalTables = `
  CREATE TABLE journal_bodies (
    id BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
    sha256 BYTEA NOT NULL UNIQUE,
    size BIGINT NOT NULL,
    truncated INTEGER NOT NULL,
    redacted INTEGER NOT NULL,
    compressed INTEGER NOT NULL,
    data BYTEA NOT NULL
  );
  ALTER TABLE journal_bodies ALTER COLUMN data SET STORAGE EXTERNAL;
  CREATE TABLE journal_search (
    body_id BIGINT NOT NULL,
    part INTEGER NOT NULL,
    words TSVECTOR NOT NULL,
    PRIMARY KEY (body_id, part)
  );
  CREATE INDEX journal_search_words ON journal_search USING GIN (words);
  ${journalCallsTable({
    id: 'BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY',
    big: 'BIGINT',
    real: 'DOUBLE PRECISION',
  })}
  CREATE INDEX journal_calls_request_body ON journal_calls (request_body);
  CREATE INDEX journal_calls_response_body ON journal_calls (response_body);
  CREATE INDEX journal_calls_late_body ON journal_calls (late_body) WHERE late_body IS NOT NULL;
`;

/** Version 4: who sent each journal entry. */
const postgresJournalSender = `
  ALTER TABLE journal_calls ADD COLUMN user_id TEXT;
  ALTER TABLE journal_calls ADD COLUMN user_email TEXT;
`;

/** The journal's calls by when they started, and time to first byte (addJournalStartOrder). */
const postgresJournalStartOrder = `
  CREATE INDEX journal_calls_started ON journal_calls (at, id);
  ALTER TABLE journal_calls ADD COLUMN first_byte_ms DOUBLE PRECISION;
`;

/** Version 8, the journal's step: the connection of each call. */
const postgresConnections = `
  ALTER TABLE journal_calls ADD COLUMN connection TEXT;
`;

/** The W3C trace id of each journal call. */
const postgresJournalTrace = `
  ALTER TABLE journal_calls ADD COLUMN trace_id TEXT;
`;

/**
 * The journal's body indexes: PostgreSQL has had them since version 2; SQLite gets them now
 * (addJournalBodyIndexes). Stated again so both databases' migrations read alike.
 */
const postgresJournalBodyIndexes = `
  CREATE INDEX IF NOT EXISTS journal_calls_request_body ON journal_calls (request_body);
  CREATE INDEX IF NOT EXISTS journal_calls_response_body ON journal_calls (response_body);
  CREATE INDEX IF NOT EXISTS journal_calls_late_body ON journal_calls (late_body)
    WHERE late_body IS NOT NULL;
`;

/**
 * Schema version 18: a recruiter's journal is the calls they sent (decision 058), newest first;
 * this index finds them without walking everyone's calls. The same statement on both databases.
 */
const journalSenderIndex = `
  CREATE INDEX journal_calls_sender ON journal_calls (user_id, at, id);
`;

/** The journal's steps of the portal's schema (decision 047). */
export const journalSchema: ConcernSchema = {
  concern: 'journal',
  steps: [
    // decision 025
    {
      version: 2,
      name: 'call journal',
      sqlite: createJournalTables,
      postgres: postgresJournalTables,
    },
    {
      version: 4,
      name: 'journal sender',
      sqlite: addJournalSender,
      postgres: postgresJournalSender,
    },
    {
      version: 7,
      name: 'journal start order and first byte',
      sqlite: addJournalStartOrder,
      postgres: postgresJournalStartOrder,
    },
    { version: 8, name: 'connections', sqlite: addConnections, postgres: postgresConnections },
    { version: 10, name: 'journal trace', sqlite: addJournalTrace, postgres: postgresJournalTrace },
    // a search for a word in few bodies finds the calls that hold them by index
    {
      version: 13,
      name: 'journal body indexes',
      sqlite: addJournalBodyIndexes,
      postgres: postgresJournalBodyIndexes,
    },
    {
      version: 18,
      name: 'journal sender index',
      sqlite: (db) => db.exec(journalSenderIndex),
      postgres: journalSenderIndex,
    },
  ],
};
