import type { Statement } from 'better-sqlite3';
import type { JournalFilter } from '@/domain/journal';
import type { PortalSqlite } from '@/server/store/portal-database';
import {
  callColumnCount,
  callColumns,
  callValues,
  entryPageSql,
  entrySelect,
  BodyPacker,
  packBody,
  summaryColumns,
  type PackedBodies,
  toEntry,
  toSummary,
  type EntryRow,
  type SummaryRow,
} from './journal-rows';
import {
  fewBodies,
  fts5Expression,
  journalWhere,
  searchTerms,
  type JournalDialect,
} from './journal-search';
import {
  JournalSearchError,
  lateTargetId,
  type BodyToKeep,
  type JournalLateRecord,
  type JournalRecord,
  type JournalStore,
} from './journal-store';

type Cell = string | number | null;

const rowPlaceholders = `(${Array.from({ length: callColumnCount }, () => '?').join(', ')})`;

/**
 * Most calls one INSERT writes. A statement's run (the crossing into better-sqlite3, its result
 * object, SQLite's reset and step) is paid once however many rows it holds: for the proxy bench's
 * calls, in batches of 48, one INSERT per 16 rows instead of one per row takes 1.5–2 µs a call off
 * the store's 16–20 (decision 025, "Later: the store's INSERT"). Sixteen rows bind 416 values, far
 * below SQLite's limit of 32,766; a batch's last few calls get a statement of their own size (at
 * most sixteen statements, each prepared once).
 */
const rowsPerInsert = 16;

/** Most rows one read returns for `related` and `replays`. */
const relatedLimit = 1000;

/** SQLite's placeholders, and its FTS5 table for the search. */
const sqliteDialect: JournalDialect = {
  placeholder: () => '?',
  matchingBodies: (terms, bind) =>
    `SELECT rowid FROM journal_search WHERE journal_search MATCH ${bind(fts5Expression(terms))}`,
  inIds: (ids, bind) => `IN (SELECT value FROM json_each(${bind(JSON.stringify(ids))}))`,
};

/** The SQLite store: statements prepared once; list queries per filter shape, cached. */
export function createJournalStore(db: PortalSqlite): JournalStore {
  const statements = {
    findBody: db.prepare<[Buffer], { id: number }>(
      'SELECT id FROM journal_bodies WHERE sha256 = ?',
    ),
    insertBody: db.prepare<[Buffer, number, number, number, number, Buffer]>(
      `INSERT INTO journal_bodies (sha256, size, truncated, redacted, compressed, data)
       VALUES (?, ?, ?, ?, ?, ?)`,
    ),
    index: db.prepare<[number | bigint, Buffer]>(
      'INSERT INTO journal_search (rowid, body) VALUES (?, ?)',
    ),
    late: db.prepare<[number, number, string, number | null, string | null, number]>(
      `UPDATE journal_calls SET late_status = ?, late_latency_ms = ?, late_headers = ?,
         late_body = ?, batch_id = coalesce(batch_id, ?) WHERE id = ?`,
    ),
    exists: db.prepare<[number], { one: number }>(
      'SELECT 1 AS one FROM journal_calls WHERE id = ?',
    ),
    get: db.prepare<[number], EntryRow>(`${entrySelect('journal_calls')} WHERE c.id = ?`),
    sameBatch: db.prepare<[string, number, number], SummaryRow>(
      `SELECT ${summaryColumns} FROM journal_calls WHERE batch_id = ? AND id != ? ORDER BY at, id LIMIT ?`,
    ),
    replaysOf: db.prepare<[number, number], SummaryRow>(
      `SELECT ${summaryColumns} FROM journal_calls WHERE replay_of = ? ORDER BY at, id LIMIT ?`,
    ),
    deleteReceivedBefore: db.prepare<
      [number, number],
      { request_body: number | null; response_body: number | null; late_body: number | null }
    >(
      `DELETE FROM journal_calls WHERE id IN
         (SELECT id FROM journal_calls WHERE at < ? ORDER BY id LIMIT ?)
       RETURNING request_body, response_body, late_body`,
    ),
    deleteOldest: db.prepare<
      [number],
      { request_body: number | null; response_body: number | null; late_body: number | null }
    >(
      `DELETE FROM journal_calls WHERE id IN (SELECT id FROM journal_calls ORDER BY id LIMIT ?)
       RETURNING request_body, response_body, late_body`,
    ),
    // Of the bodies the deleted calls held, those no remaining call holds (one scan of the calls).
    stillHeld: db.prepare<[string, string, string], { id: number }>(
      `SELECT request_body AS id FROM journal_calls
         WHERE request_body IN (SELECT value FROM json_each(?))
       UNION SELECT response_body FROM journal_calls
         WHERE response_body IN (SELECT value FROM json_each(?))
       UNION SELECT late_body FROM journal_calls WHERE late_body IN (SELECT value FROM json_each(?))`,
    ),
    deleteBodies: db.prepare<[string]>(
      'DELETE FROM journal_bodies WHERE id IN (SELECT value FROM json_each(?))',
    ),
    unindex: db.prepare<[string]>(
      'DELETE FROM journal_search WHERE rowid IN (SELECT value FROM json_each(?))',
    ),
    count: db.prepare<[], { n: number }>('SELECT count(*) AS n FROM journal_calls'),
  };

  /**
   * The INSERT of `rows` calls, prepared on first use. No id: an INTEGER PRIMARY KEY left out is
   * the rowid, one more than the highest, so ids rise in the order calls are written, and the rows
   * of one INSERT get consecutive ids, the last of them its lastInsertRowid.
   */
  const packer = new BodyPacker();
  const insertCalls: Statement<[Cell[]]>[] = [];
  function insertCallsOf(rows: number): Statement<[Cell[]]> {
    let statement = insertCalls[rows];
    if (!statement) {
      statement = db.prepare<[Cell[]]>(
        `INSERT INTO journal_calls (${callColumns})
         VALUES ${Array.from({ length: rows }, () => rowPlaceholders).join(', ')}`,
      );
      insertCalls[rows] = statement;
    }
    return statement;
  }

  /**
   * What one transaction's writing has learned: the ids of the bodies it found or stored (the
   * recorder hands a repeated body over as the same object, so a batch of calls with one body
   * looks it up once), and the bodies it stored, still to index for search.
   */
  interface WriteTurn {
    known: Map<BodyToKeep, number>;
    toIndex: { id: number; kept: Buffer }[];
    /** New bodies, packed before the transaction began. */
    packed: PackedBodies;
  }

  /** The body's row id, storing it the first time it is seen (indexed at the turn's end). */
  function keep(body: BodyToKeep | null, turn: WriteTurn): number | null {
    if (body === null) return null;
    const id = turn.known.get(body);
    if (id !== undefined) return id;
    const stored = store(body, turn);
    turn.known.set(body, stored);
    return stored;
  }

  function store(body: BodyToKeep, turn: WriteTurn): number {
    const found = statements.findBody.get(body.sha256);
    if (found) return found.id;
    const { data, compressed } = turn.packed.get(body.kept) ?? packBody(body.kept);
    const { lastInsertRowid } = statements.insertBody.run(
      body.sha256,
      body.size,
      body.truncated ? 1 : 0,
      body.redacted ? 1 : 0,
      compressed,
      data,
    );
    const id = Number(lastInsertRowid);
    turn.toIndex.push({ id, kept: body.kept });
    return id;
  }

  /**
   * The search rows of the bodies a transaction stored, written after its calls. A statement
   * that writes several rows opens a savepoint, and FTS5 writes out the terms it holds in memory
   * at every savepoint: indexed as they came, a batch of new bodies was flushed to the index once
   * per INSERT of calls, in small segments, instead of once at COMMIT.
   */
  function index(turn: WriteTurn): void {
    // The search index reads the bytes as UTF-8 text; no decoding in JavaScript.
    for (const { id, kept } of turn.toIndex) statements.index.run(id, kept);
  }

  const writeAll = db.transaction(
    (
      records: readonly JournalRecord[],
      late: readonly JournalLateRecord[],
      packed: PackedBodies,
    ) => {
      const ids: number[] = [];
      const turn: WriteTurn = { known: new Map(), toIndex: [], packed };
      const values: Cell[] = [];
      for (let from = 0; from < records.length; from += rowsPerInsert) {
        const rows = Math.min(rowsPerInsert, records.length - from);
        values.length = 0;
        for (const record of records.slice(from, from + rows)) {
          // Positional: a named binding looks each of the 26 names up on every call.
          callValues(
            record,
            keep(record.requestBody, turn),
            keep(record.responseBody, turn),
            values,
          );
        }
        const { lastInsertRowid } = insertCallsOf(rows).run(values);
        const last = Number(lastInsertRowid);
        for (let id = last - rows + 1; id <= last; id += 1) ids.push(id);
      }
      for (const answer of late) {
        statements.late.run(
          answer.status,
          answer.latencyMs,
          JSON.stringify(answer.headers),
          keep(answer.body, turn),
          answer.batchId,
          lateTargetId(answer, ids),
        );
      }
      index(turn);
      return ids;
    },
  );

  /** Drops the bodies that the deleted calls held and no other call does, and their index rows. */
  const deleteCalls = db.transaction(
    (
      deleted: {
        request_body: number | null;
        response_body: number | null;
        late_body: number | null;
      }[],
    ) => {
      const candidates = new Set<number>();
      for (const row of deleted) {
        for (const id of [row.request_body, row.response_body, row.late_body]) {
          if (id !== null) candidates.add(id);
        }
      }
      if (candidates.size === 0) return;
      const list = JSON.stringify([...candidates]);
      for (const { id } of statements.stillHeld.all(list, list, list)) candidates.delete(id);
      const orphans = JSON.stringify([...candidates]);
      statements.deleteBodies.run(orphans);
      statements.unindex.run(orphans);
    },
  );

  const pruneBefore = db.transaction((cutoff: number, limit: number) => {
    const deleted = statements.deleteReceivedBefore.all(cutoff, limit);
    deleteCalls(deleted);
    return deleted.length;
  });
  const pruneFirst = db.transaction((count: number) => {
    const deleted = statements.deleteOldest.all(count);
    deleteCalls(deleted);
    return deleted.length;
  });

  // One prepared statement per filter shape (the SQL differs only in which conditions it has).
  type Params = (string | number)[];
  const summaryQueries = new Map<string, Statement<Params, SummaryRow>>();
  const entryQueries = new Map<string, Statement<Params, EntryRow>>();
  const foundQueries = new Map<string, Statement<Params, { rowid: number }>>();
  function select<Row>(
    cache: Map<string, Statement<Params, Row>>,
    sql: string,
    params: Params,
  ): Row[] {
    let statement = cache.get(sql);
    if (!statement) {
      statement = db.prepare<Params, Row>(sql);
      cache.set(sql, statement);
    }
    try {
      return statement.all(...params);
    } catch (error) {
      // Only the search text can make a valid statement fail at run time (FTS5 parses it).
      if (error instanceof Error && /fts5|MATCH/i.test(error.message)) {
        throw new JournalSearchError(
          'The search words could not be used; search for plain words or numbers.',
          { cause: error },
        );
      }
      throw error;
    }
  }

  /**
   * The bodies matching a search, when there are at most `fewBodies` of them (else undefined, as
   * without a search): one look-up in the search index, cut off past that many.
   */
  function foundBodies(filter: JournalFilter): number[] | undefined {
    if (filter.q === undefined) return undefined;
    const terms = searchTerms(filter.q);
    // No word to search for: journalWhere says so.
    if (terms.length === 0) return undefined;
    const params: string[] = [];
    const sql = `${sqliteDialect.matchingBodies(terms, (value) => {
      params.push(value);
      return '?';
    })} LIMIT ${fewBodies + 1}`;
    const rows = select(foundQueries, sql, params);
    return rows.length > fewBodies ? undefined : rows.map((row) => row.rowid);
  }

  return {
    async write(records, late) {
      // The bodies not stored yet, deflated before the transaction (off the event loop, on
      // BodyPacker's streams); a body stored meanwhile is found again inside it.
      const bodies = [
        ...records.flatMap((record) => [record.requestBody, record.responseBody]),
        ...late.map((answer) => answer.body),
      ].flatMap((body) => (body === null ? [] : [body]));
      const bySha = new Map(bodies.map((body) => [body.kept, body.sha256]));
      const packed = await packer.packAll(bySha.keys(), (kept) => {
        const sha256 = bySha.get(kept);
        return sha256 !== undefined && statements.findBody.get(sha256) === undefined;
      });
      return writeAll(records, late, packed);
    },
    async exists(id) {
      return statements.exists.get(id) !== undefined;
    },
    async list(filter, page) {
      const where = journalWhere(filter, page, sqliteDialect, foundBodies(filter));
      return select(
        summaryQueries,
        `${where.with}SELECT ${summaryColumns} FROM journal_calls ${where.where} ${where.order} ${where.limit}`,
        where.params,
      ).map(toSummary);
    },
    async entries(filter, page) {
      const where = journalWhere(filter, page, sqliteDialect, foundBodies(filter));
      return select(entryQueries, entryPageSql(where), where.params).map(toEntry);
    },
    async get(id) {
      const row = statements.get.get(id);
      return row ? toEntry(row) : undefined;
    },
    async sameBatch(batchId, exceptId) {
      return statements.sameBatch.all(batchId, exceptId, relatedLimit).map(toSummary);
    },
    async replaysOf(id) {
      return statements.replaysOf.all(id, relatedLimit).map(toSummary);
    },
    async pruneReceivedBefore(cutoff, limit) {
      return pruneBefore(cutoff, limit);
    },
    async pruneOldest(count) {
      return pruneFirst(count);
    },
    async count() {
      return statements.count.get()?.n ?? 0;
    },
    async usedBytes() {
      const pages = Number(db.pragma('page_count', { simple: true }));
      const free = Number(db.pragma('freelist_count', { simple: true }));
      const size = Number(db.pragma('page_size', { simple: true }));
      return (pages - free) * size;
    },
  };
}
