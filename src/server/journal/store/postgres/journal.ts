import type { JournalFilter } from '@/domain/journal';
import {
  callColumnCount,
  callColumns,
  callValues,
  entryPageSql,
  entrySelect,
  BodyPacker,
  packBody,
  summaryColumns,
  toEntry,
  toSummary,
  type EntryRow,
  type SummaryRow,
} from '@/server/journal/store/journal-rows';
import {
  fewBodies,
  journalWhere,
  searchTerms,
  type JournalDialect,
} from '@/server/journal/store/journal-search';
import {
  lateTargetId,
  type BodyToKeep,
  type JournalStore,
} from '@/server/journal/store/journal-store';
import { bodyVectors, termQuery } from '@/server/journal/store/journal-words';
import { inTransaction, type PortalClient, type PortalPool } from '@/server/store/postgres/pool';

/** Most rows one read returns for `related` and `replays` (as in SQLite). */
const relatedLimit = 1000;
/** Rows per INSERT: PostgreSQL binds at most 65,535 values in one statement. */
const rowsPerInsert = 1000;

/**
 * Writers hold this advisory lock shared for their whole transaction; pruning holds it alone. A
 * writer finds a body already stored and writes a call that holds it; pruning deletes the bodies
 * no call holds. Were they to interleave between two processes, the writer could find a body just
 * before pruning deleted it, and its call would point at nothing. (In SQLite one process writes.)
 */
const bodiesLock = 0x6a726e6c; // "jrnl"

type Cell = string | number | Buffer | null;

/** `($1, $2, …), (…)`: `rows` rows of `width` placeholders. */
function valuesList(rows: number, width: number): string {
  return Array.from(
    { length: rows },
    (_, row) =>
      `(${Array.from({ length: width }, (_, column) => `$${row * width + column + 1}`).join(', ')})`,
  ).join(', ');
}

function chunks<T>(items: readonly T[], size: number): T[][] {
  const result: T[][] = [];
  for (let start = 0; start < items.length; start += size) {
    result.push(items.slice(start, start + size));
  }
  return result;
}

const hex = (body: BodyToKeep) => body.sha256.toString('hex');

/** PostgreSQL's placeholders, and its search: each term a tsquery, matched in one part of a body. */
const postgresDialect: JournalDialect = {
  placeholder: (n) => `$${n}`,
  matchingBodies(terms, bind) {
    // searchTerms keeps only terms with a letter or digit, and those always make a word.
    const queries = terms.flatMap((term) => termQuery(term) ?? []);
    if (queries.length === 0) return 'SELECT NULL::bigint WHERE false';
    return queries
      .map((query) => `SELECT body_id FROM journal_search WHERE words @@ ${bind(query)}::tsquery`)
      .join(' INTERSECT ');
  },
  inIds: (ids, bind) => `= ANY(${bind(`{${ids.join(',')}}`)}::bigint[])`,
};

interface HeldBodies {
  request_body: number | null;
  response_body: number | null;
  late_body: number | null;
}

/**
 * The call journal in PostgreSQL (decisions 025, 027): the SQLite store's behaviour, for several
 * portal processes on one database. Ids come from journal_calls' identity as calls are written;
 * a body is stored once per SHA-256 whoever writes it first (`ON CONFLICT DO NOTHING`, then read);
 * rows read back as SQLite's do (toSummary, toEntry), and the list shares SQLite's query
 * (journalWhere) but for its search, which is tsvector parts of each body (journal-words.ts).
 */
export function createPostgresJournalStore(pool: PortalPool): JournalStore {
  const packer = new BodyPacker();
  /** The row ids of the bodies (by SHA-256, in hex), storing and indexing those not stored yet. */
  async function keepBodies(
    client: PortalClient,
    bodies: ReadonlyMap<string, BodyToKeep>,
  ): Promise<Map<string, number>> {
    const ids = new Map<string, number>();
    const read = async (wanted: readonly BodyToKeep[]) => {
      const { rows } = await client.query<{ id: number; sha256: Buffer }>(
        'SELECT id, sha256 FROM journal_bodies WHERE sha256 = ANY($1::bytea[])',
        [wanted.map((body) => body.sha256)],
      );
      for (const row of rows) ids.set(row.sha256.toString('hex'), row.id);
    };
    if (bodies.size === 0) return ids;
    await read([...bodies.values()]);
    // In one order for every writer, so two writers storing the same new bodies wait on each
    // other's rows one way round and never deadlock.
    const missing = [...bodies.values()]
      .filter((body) => !ids.has(hex(body)))
      .sort((a, b) => Buffer.compare(a.sha256, b.sha256));
    if (missing.length === 0) return ids;
    // On BodyPacker's long-lived streams, not a zlib handle of its own each, all at once.
    const packed = await packer.packAll(
      missing.map((body) => body.kept),
      () => true,
    );
    const stored: { id: number; body: BodyToKeep }[] = [];
    for (const chunk of chunks(missing, rowsPerInsert)) {
      const values: Cell[] = [];
      for (const body of chunk) {
        const { data, compressed } = packed.get(body.kept) ?? packBody(body.kept);
        values.push(
          body.sha256,
          body.size,
          body.truncated ? 1 : 0,
          body.redacted ? 1 : 0,
          compressed,
          data,
        );
      }
      const { rows } = await client.query<{ id: number; sha256: Buffer }>(
        `INSERT INTO journal_bodies (sha256, size, truncated, redacted, compressed, data)
         VALUES ${valuesList(chunk.length, 6)} ON CONFLICT (sha256) DO NOTHING RETURNING id, sha256`,
        values,
      );
      for (const row of rows) {
        const key = row.sha256.toString('hex');
        const body = bodies.get(key);
        ids.set(key, row.id);
        if (body) stored.push({ id: row.id, body });
      }
    }
    // Indexed by whoever stored the body, once. The search reads the bytes as UTF-8, as FTS5 does.
    const parts = stored.flatMap(({ id, body }) =>
      bodyVectors(body.kept.toString('utf8')).map((words, part) => [id, part, words]),
    );
    for (const chunk of chunks(parts, rowsPerInsert)) {
      await client.query(
        `INSERT INTO journal_search (body_id, part, words)
         SELECT * FROM unnest($1::bigint[], $2::integer[], $3::tsvector[])`,
        [chunk.map((row) => row[0]), chunk.map((row) => row[1]), chunk.map((row) => row[2])],
      );
    }
    // A body another process stored between the read and the insert (the insert waited for its
    // transaction, then did nothing): committed now, so read.
    const raced = missing.filter((body) => !ids.has(hex(body)));
    if (raced.length > 0) await read(raced);
    if (ids.size < bodies.size) throw new Error('a journal body could neither be stored nor read');
    return ids;
  }

  function bodyId(ids: ReadonlyMap<string, number>, body: BodyToKeep | null): number | null {
    return body === null ? null : (ids.get(hex(body)) ?? null);
  }

  /**
   * The bodies matching a search, when there are at most `fewBodies` of them (else undefined, as
   * without a search): one look-up in the search index, cut off past that many.
   */
  async function foundBodies(filter: JournalFilter): Promise<number[] | undefined> {
    if (filter.q === undefined) return undefined;
    const terms = searchTerms(filter.q);
    // No word to search for: journalWhere says so.
    if (terms.length === 0) return undefined;
    const params: string[] = [];
    const bind = (value: string) => {
      params.push(value);
      return `$${params.length}`;
    };
    const { rows } = await pool.query<{ body_id: number }>(
      `SELECT body_id FROM (${postgresDialect.matchingBodies(terms, bind)}) AS found
       LIMIT ${fewBodies + 1}`,
      params,
    );
    return rows.length > fewBodies ? undefined : rows.map((row) => Number(row.body_id));
  }

  /** Deletes the calls `sql` returns the bodies of, then the bodies no call holds any more. */
  async function prune(sql: string, values: number[]): Promise<number> {
    return inTransaction(pool, async (client) => {
      // Taken first: a writer waiting on a call row this deletes would otherwise deadlock with it.
      await client.query('SELECT pg_advisory_xact_lock($1)', [bodiesLock]);
      const { rows } = await client.query<HeldBodies>(sql, values);
      const candidates = new Set<number>();
      for (const row of rows) {
        for (const id of [row.request_body, row.response_body, row.late_body]) {
          if (id !== null) candidates.add(id);
        }
      }
      if (candidates.size > 0) {
        const { rows: orphans } = await client.query<{ id: number }>(
          `DELETE FROM journal_bodies b WHERE b.id = ANY($1::bigint[])
             AND NOT EXISTS (SELECT 1 FROM journal_calls WHERE request_body = b.id)
             AND NOT EXISTS (SELECT 1 FROM journal_calls WHERE response_body = b.id)
             AND NOT EXISTS (SELECT 1 FROM journal_calls WHERE late_body = b.id)
           RETURNING b.id`,
          [[...candidates]],
        );
        if (orphans.length > 0) {
          await client.query('DELETE FROM journal_search WHERE body_id = ANY($1::bigint[])', [
            orphans.map((row) => row.id),
          ]);
        }
      }
      return rows.length;
    });
  }

  return {
    async write(records, late) {
      if (records.length === 0 && late.length === 0) return [];
      const bodies = new Map<string, BodyToKeep>();
      const want = (body: BodyToKeep | null) => {
        if (body !== null) bodies.set(hex(body), body);
      };
      for (const record of records) {
        want(record.requestBody);
        want(record.responseBody);
      }
      for (const answer of late) want(answer.body);
      return inTransaction(pool, async (client) => {
        await client.query('SELECT pg_advisory_xact_lock_shared($1)', [bodiesLock]);
        const bodyIds = await keepBodies(client, bodies);
        const written: number[] = [];
        for (const chunk of chunks(records, rowsPerInsert)) {
          const { rows } = await client.query<{ id: number }>(
            `INSERT INTO journal_calls (${callColumns}) VALUES ${valuesList(chunk.length, callColumnCount)}
             RETURNING id`,
            chunk.flatMap((record) =>
              callValues(
                record,
                bodyId(bodyIds, record.requestBody),
                bodyId(bodyIds, record.responseBody),
              ),
            ),
          );
          // The identity numbers the rows in the order they are inserted, which is the order of
          // VALUES; RETURNING's order is not promised, so the ids are sorted back into it.
          written.push(...rows.map((row) => row.id).sort((a, b) => a - b));
        }
        for (const answer of late) {
          await client.query(
            `UPDATE journal_calls SET late_status = $1, late_latency_ms = $2, late_headers = $3,
               late_body = $4, batch_id = coalesce(batch_id, $5) WHERE id = $6`,
            [
              answer.status,
              answer.latencyMs,
              JSON.stringify(answer.headers),
              bodyId(bodyIds, answer.body),
              answer.batchId,
              lateTargetId(answer, written),
            ],
          );
        }
        return written;
      });
    },
    async exists(id) {
      const { rows } = await pool.query('SELECT 1 FROM journal_calls WHERE id = $1', [id]);
      return rows.length > 0;
    },
    async list(filter, page) {
      const where = journalWhere(filter, page, postgresDialect, await foundBodies(filter));
      const { rows } = await pool.query<SummaryRow>(
        `${where.with}SELECT ${summaryColumns} FROM journal_calls ${where.where} ${where.order} ${where.limit}`,
        where.params,
      );
      return rows.map(toSummary);
    },
    async entries(filter, page) {
      const where = journalWhere(filter, page, postgresDialect, await foundBodies(filter));
      const { rows } = await pool.query<EntryRow>(entryPageSql(where), where.params);
      return rows.map(toEntry);
    },
    async get(id) {
      const { rows } = await pool.query<EntryRow>(
        `${entrySelect('journal_calls')} WHERE c.id = $1`,
        [id],
      );
      const row = rows[0];
      return row ? toEntry(row) : undefined;
    },
    async sameBatch(batchId, exceptId) {
      const { rows } = await pool.query<SummaryRow>(
        `SELECT ${summaryColumns} FROM journal_calls WHERE batch_id = $1 AND id != $2
         ORDER BY at, id LIMIT $3`,
        [batchId, exceptId, relatedLimit],
      );
      return rows.map(toSummary);
    },
    async replaysOf(id) {
      const { rows } = await pool.query<SummaryRow>(
        `SELECT ${summaryColumns} FROM journal_calls WHERE replay_of = $1 ORDER BY at, id LIMIT $2`,
        [id, relatedLimit],
      );
      return rows.map(toSummary);
    },
    async pruneReceivedBefore(cutoff, limit) {
      return prune(
        `DELETE FROM journal_calls WHERE id IN
           (SELECT id FROM journal_calls WHERE at < $1 ORDER BY id LIMIT $2)
         RETURNING request_body, response_body, late_body`,
        [cutoff, limit],
      );
    },
    async pruneOldest(count) {
      return prune(
        `DELETE FROM journal_calls WHERE id IN (SELECT id FROM journal_calls ORDER BY id LIMIT $1)
         RETURNING request_body, response_body, late_body`,
        [count],
      );
    },
    async count() {
      const { rows } = await pool.query<{ n: number }>('SELECT count(*) AS n FROM journal_calls');
      return rows[0]?.n ?? 0;
    },
    /**
     * The bytes of the journal's live rows, bodies' stored (deflated, out-of-line) bytes included;
     * not their indexes, nor the space PostgreSQL keeps for reuse. Neither the tables' size on disk
     * (pg_total_relation_size) nor the database's (pg_database_size) would do: they do not fall
     * when rows are deleted (the space is reused, files shrink only with VACUUM FULL), so retention
     * would find each round fruitless and prune again every ten minutes while the journal drained.
     * Each column's stored size is read without reading bodies back (pg_column_size).
     */
    async usedBytes() {
      const { rows } = await pool.query<{ bytes: number | null }>(
        `SELECT (SELECT coalesce(sum(pg_column_size(c.*)), 0) FROM journal_calls c)
           + (SELECT coalesce(sum(pg_column_size(b.data) + 64), 0) FROM journal_bodies b)
           + (SELECT coalesce(sum(pg_column_size(s.words) + 40), 0) FROM journal_search s)
           AS bytes`,
      );
      return rows[0]?.bytes ?? 0;
    },
  };
}
