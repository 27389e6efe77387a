import { packBody } from '@/server/journal/store/journal-rows';
import { bodyVectors, termQuery } from '@/server/journal/store/journal-words';
import { inTransaction, type PortalPool } from '@/server/store/postgres/pool';
import {
  erasableTables,
  sourceFilter,
  type BodyCall,
  type HeldBody,
  type PrivacyStore,
  type TextSource,
} from './privacy-store';
import { erasedIdentity, heldRow, keptText, storedValue } from './sqlite-privacy-store';

const ids = (values: readonly number[]) => `{${values.join(',')}}`;

/** The privacy store on PostgreSQL: the SQLite one's reads and writes (sqlite-privacy-store.ts). */
export function createPostgresPrivacyStore(pool: PortalPool): PrivacyStore {
  return {
    async journalBodyIds(searches) {
      const values: string[] = [];
      const selects = searches.flatMap((words) => {
        const queries = words.flatMap((text) => termQuery({ text, prefix: false }) ?? []);
        if (queries.length === 0) return [];
        // A body matches when each word is in one of its parts (journal-words.ts).
        return [
          `(${queries
            .map((query) => {
              values.push(query);
              return `SELECT body_id FROM journal_search WHERE words @@ $${values.length}::tsquery`;
            })
            .join(' INTERSECT ')})`,
        ];
      });
      if (selects.length === 0) return [];
      const { rows } = await pool.query<{ id: string }>(
        `SELECT DISTINCT body_id AS id FROM (${selects.join(' UNION ')}) AS found ORDER BY id`,
        values,
      );
      return rows.map((row) => Number(row.id));
    },

    async journalBodies(bodyIds) {
      const { rows } = await pool.query<{
        id: string;
        compressed: number;
        truncated: number;
        data: Buffer;
      }>(
        `SELECT id, compressed, truncated, data FROM journal_bodies
         WHERE id = ANY($1::bigint[]) ORDER BY id`,
        [ids(bodyIds)],
      );
      return rows.map((row): HeldBody => ({
        id: Number(row.id),
        text: keptText(row),
        truncated: row.truncated === 1,
      }));
    },

    async callsHolding(bodyIds) {
      const { rows } = await pool.query<{ call_id: string; at: string; body_id: string }>(
        `SELECT id AS call_id, at, request_body AS body_id FROM journal_calls
           WHERE request_body = ANY($1::bigint[])
         UNION ALL SELECT id, at, response_body FROM journal_calls
           WHERE response_body = ANY($1::bigint[])
         UNION ALL SELECT id, at, late_body FROM journal_calls WHERE late_body = ANY($1::bigint[])
         ORDER BY call_id`,
        [ids(bodyIds)],
      );
      return rows.map((row): BodyCall => ({
        callId: Number(row.call_id),
        at: Number(row.at),
        bodyId: Number(row.body_id),
      }));
    },

    async rewriteJournalBodies(bodies) {
      await inTransaction(pool, async (client) => {
        for (const { id, text } of bodies) {
          const kept = Buffer.from(text, 'utf8');
          const { data, compressed } = packBody(kept);
          await client.query(
            'UPDATE journal_bodies SET sha256 = $1, size = $2, compressed = $3, data = $4 WHERE id = $5',
            [erasedIdentity(id, kept), kept.length, compressed, data, id],
          );
          await client.query('DELETE FROM journal_search WHERE body_id = $1', [id]);
          const vectors = bodyVectors(text);
          if (vectors.length > 0) {
            await client.query(
              `INSERT INTO journal_search (body_id, part, words)
               SELECT $1, part - 1, words FROM unnest($2::tsvector[]) WITH ORDINALITY AS v(words, part)`,
              [id, vectors],
            );
          }
        }
      });
    },

    tidySearch() {
      return Promise.resolve(false);
    },

    whileErasing(work) {
      return work();
    },

    async rowsMentioning(source, needles) {
      if (needles.length === 0) return [];
      // Bytes are read as text by their escape form, which keeps ASCII as it is (an e-mail);
      // the needle is put in the same form. Every row found is confirmed in its decoded text.
      const tests = source.columns.flatMap((column) =>
        needles.map((_, n) =>
          source.stored === 'bytes'
            ? `strpos(lower(encode(${column}, 'escape')), encode(convert_to($${n + 1}, 'UTF8'), 'escape')) > 0`
            : `strpos(lower(${column}), $${n + 1}) > 0`,
        ),
      );
      const { rows } = await pool.query<Record<string, unknown>>(
        `SELECT ${[...source.keys, `${source.at} AS held_at`, ...source.columns].join(', ')}
         FROM ${source.table} WHERE ${sourceFilter(source)} AND (${tests.join(' OR ')})`,
        [...needles],
      );
      return rows.map((row) => heldRow(source, numbered(source, row)));
    },

    async reclaim(tables) {
      // VACUUM cannot run inside a transaction: each is a statement of its own on the pool. The
      // names are the sources' own (privacy-store.ts), never a caller's.
      for (const table of new Set(tables)) await pool.query(`VACUUM ${table}`);
    },

    async compact() {
      // FULL writes the table and its indexes anew from the live rows: a plain VACUUM left an
      // erased answer's bytes in its page and the person's words in the search index's GIN
      // entries (privacy-api.test.ts). Its lock stops every read and write of the table.
      for (const table of erasableTables) await pool.query(`VACUUM FULL ${table}`);
      return [...erasableTables];
    },

    async rewriteRows(source, rows, now) {
      const audit = source.table === 'audit_events';
      await inTransaction(pool, async (client) => {
        // The audit trail's trigger refuses every change; an erasure is the one it takes, with
        // the trigger off only inside this transaction (ALTER TABLE holds the table's lock).
        if (audit) {
          await client.query('ALTER TABLE audit_events DISABLE TRIGGER audit_events_append_only');
        }
        for (const { key, texts } of rows) {
          const columns = Object.keys(texts);
          const values: unknown[] = columns.map((column) =>
            storedValue(source, texts[column] ?? ''),
          );
          const sets = columns.map((column, n) => `${column} = $${n + 1}`);
          if (source.table === 'user_records') {
            sets.push(
              'version = (SELECT max(r.version) + 1 FROM user_records AS r WHERE r.user_id = user_records.user_id AND r.collection = user_records.collection)',
              `updated_at = ${Math.trunc(now)}`,
            );
          }
          const where = source.keys.map((name, n) => `${name} = $${columns.length + n + 1}`);
          await client.query(
            `UPDATE ${source.table} SET ${sets.join(', ')} WHERE ${where.join(' AND ')}`,
            [...values, ...key],
          );
        }
        if (audit) {
          await client.query('ALTER TABLE audit_events ENABLE TRIGGER audit_events_append_only');
        }
      });
    },
  };
}

/** BIGINT keys come back from node-postgres as text; the SQLite store gives numbers. */
function numbered(source: TextSource, row: Record<string, unknown>): Record<string, unknown> {
  const out = { ...row };
  for (const key of source.keys) {
    if (typeof out[key] === 'string' && /^\d+$/u.test(out[key]) && key !== 'key') {
      out[key] = Number(out[key]);
    }
  }
  return out;
}
