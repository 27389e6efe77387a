import { createHash } from 'node:crypto';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { constants, inflateRawSync } from 'node:zlib';
import { packBody } from '@/server/journal/store/journal-rows';
import { fts5Expression } from '@/server/journal/store/journal-search';
import type { PortalSqlite } from '@/server/store/portal-database';
import { startCheckpointer, type Checkpointer } from '@/server/store/sqlite-checkpointer';
import {
  sourceFilter,
  type BodyCall,
  type HeldBody,
  type HeldRow,
  type PrivacyStore,
  type TextSource,
} from './privacy-store';

interface BodyRow {
  id: number;
  compressed: number;
  truncated: number;
  data: Buffer;
}

/** A body's kept bytes as text, inflated as the journal stored them. */
export function keptText(row: { compressed: number; data: Buffer }): string {
  const kept =
    row.compressed === 1
      ? inflateRawSync(row.data, { finishFlush: constants.Z_SYNC_FLUSH })
      : row.data;
  return kept.toString('utf8');
}

/**
 * A rewritten body's identity: the SHA-256 of its new bytes and its row, so it never meets the
 * identity of a body kept later (which the journal would then share with it) and keeps nothing
 * of the content it replaced.
 */
export function erasedIdentity(id: number, kept: Buffer): Buffer {
  return createHash('sha256').update(`erased:${id}:`).update(kept).digest();
}

const json = (values: readonly unknown[]) => JSON.stringify(values);

/**
 * FTS5's own merging of the search index's segments (https://sqlite.org/fts5.html#the_automerge_
 * configuration_option): after each commit, work in proportion to what was written (automerge, 4
 * segments a level by default), and a merge of a whole level once it holds crisismerge segments
 * (16). Both persist in the index's configuration.
 */
const indexMerging = { automerge: 4, crisismerge: 16 };
/**
 * While erasing, merging waits for the tidy steps: each rewrite adds one small segment, and a
 * crisis merge comes only after this many of them (FTS5 allows up to 2,000 segments).
 */
const erasingMerging = { automerge: 0, crisismerge: 1000 };
/** How often the log is checkpointed off the event loop while erasing, in milliseconds. */
const checkpointEveryMs = 100;
/**
 * One step of merging the index's segments as if they were one level (a negative count:
 * https://sqlite.org/fts5.html#the_merge_command): words whose every body was rewritten leave the
 * index's pages only when their segment is merged. A step that changes fewer than two rows: done.
 */
const mergeStep = "INSERT INTO journal_search (journal_search, rank) VALUES ('merge', -4)";
/** The worker's pause between merge steps, for the portal's own writes to take the lock. */
const mergePauseMs = 5;

function setIndexMerging(db: PortalSqlite, merging: typeof indexMerging): void {
  // The option's name must be written in the statement: FTS5 does not take it as a parameter.
  // One transaction for both: one commit.
  db.transaction(() => {
    for (const [option, value] of Object.entries(merging)) {
      db.exec(`INSERT INTO journal_search (journal_search, rank) VALUES ('${option}', ${value})`);
    }
  })();
}

export function createSqlitePrivacyStore(db: PortalSqlite): PrivacyStore {
  const rewriteBodies = db.transaction((bodies: readonly { id: number; text: string }[]) => {
    const update = db.prepare(
      'UPDATE journal_bodies SET sha256 = ?, size = ?, compressed = ?, data = ? WHERE id = ?',
    );
    const unindex = db.prepare('DELETE FROM journal_search WHERE rowid = ?');
    const index = db.prepare('INSERT INTO journal_search (rowid, body) VALUES (?, ?)');
    for (const { id, text } of bodies) {
      const kept = Buffer.from(text, 'utf8');
      const { data, compressed } = packBody(kept);
      update.run(erasedIdentity(id, kept), kept.length, compressed, data, id);
      unindex.run(id);
      index.run(id, kept);
    }
  });

  /**
   * With SQLite's secure_delete, freed and rewritten space is zeroed, not left in the file. The
   * portal's own connection has it on from the start (portal-database.ts); a database opened by
   * other means (the bench's) gets it for the erasure's writes.
   */
  function zeroingWhatIsFreed<T>(work: () => T): T {
    const before = Number(db.pragma('secure_delete', { simple: true }));
    if (before !== 1) db.pragma('secure_delete = ON');
    try {
      return work();
    } finally {
      if (before !== 1) db.pragma('secure_delete = OFF');
    }
  }

  const changes = db.prepare<[], { n: number }>('SELECT total_changes() AS n');

  // A portal stopped in the middle of an erasure left the index's merging held back; it is put
  // back as the index's own defaults when the store opens (on a database with the journal's
  // index: a store of a database without one has nothing to put back).
  const indexed = db
    .prepare("SELECT 1 FROM sqlite_master WHERE name = 'journal_search_config'")
    .get();
  const held = indexed
    ? db
        .prepare<[], { n: number }>(
          "SELECT count(*) AS n FROM journal_search_config WHERE k = 'automerge' AND v = 0",
        )
        .get()
    : undefined;
  if ((held?.n ?? 0) > 0) setIndexMerging(db, indexMerging);
  /** Erasures under way: the first holds housekeeping back, the last puts it back. */
  let erasing = 0;
  let resume: (() => Promise<void>) | undefined;
  /** The erasures' worker thread, while one runs. */
  let housekeeper: Checkpointer | undefined;

  /**
   * Two things would make a step of an erasure long on a journal of many calls: FTS5 merging
   * segments after a rewrite's commit, and the connection checkpointing its write-ahead log at a
   * commit (the tidy steps rewrite most of the index, tens of megabytes of log). So the index's
   * merging waits for the tidy steps, and the log is checkpointed by a worker thread, not at
   * commits on the event loop; both are put back when the last erasure ends.
   */
  async function whileErasing<T>(work: () => Promise<T>): Promise<T> {
    if (erasing++ === 0) {
      const autocheckpoint = Number(db.pragma('wal_autocheckpoint', { simple: true }));
      const checkpointer = startCheckpointer(db.name, checkpointEveryMs);
      housekeeper = checkpointer;
      db.pragma('wal_autocheckpoint = 0');
      setIndexMerging(db, erasingMerging);
      resume = async () => {
        housekeeper = undefined;
        setIndexMerging(db, indexMerging);
        await checkpointer.stop();
        db.pragma(`wal_autocheckpoint = ${autocheckpoint}`);
      };
    }
    try {
      return await work();
    } finally {
      if (--erasing === 0) await resume?.();
    }
  }

  return {
    journalBodyIds(searches) {
      const expressions = searches
        .filter((words) => words.length > 0)
        .map((words) => fts5Expression(words.map((text) => ({ text, prefix: false }))));
      if (expressions.length === 0) return Promise.resolve([]);
      const rows = db
        .prepare<string[], { id: number }>(
          expressions
            .map(() => 'SELECT rowid AS id FROM journal_search WHERE journal_search MATCH ?')
            .join(' UNION ') + ' ORDER BY id',
        )
        .all(...expressions);
      return Promise.resolve(rows.map((row) => row.id));
    },

    journalBodies(ids) {
      const rows = db
        .prepare<[string], BodyRow>(
          `SELECT id, compressed, truncated, data FROM journal_bodies
           WHERE id IN (SELECT value FROM json_each(?)) ORDER BY id`,
        )
        .all(json(ids));
      return Promise.resolve(
        rows.map((row): HeldBody => ({
          id: row.id,
          text: keptText(row),
          truncated: row.truncated === 1,
        })),
      );
    },

    callsHolding(bodyIds) {
      const list = json(bodyIds);
      const rows = db
        .prepare<[string, string, string], BodyCall>(
          `SELECT id AS callId, at, request_body AS bodyId FROM journal_calls
             WHERE request_body IN (SELECT value FROM json_each(?))
           UNION ALL SELECT id, at, response_body FROM journal_calls
             WHERE response_body IN (SELECT value FROM json_each(?))
           UNION ALL SELECT id, at, late_body FROM journal_calls
             WHERE late_body IN (SELECT value FROM json_each(?))
           ORDER BY callId`,
        )
        .all(list, list, list);
      return Promise.resolve(rows);
    },

    rewriteJournalBodies(bodies) {
      zeroingWhatIsFreed(() => rewriteBodies(bodies));
      return Promise.resolve();
    },

    whileErasing,

    async tidySearch() {
      // While an erasure runs, its worker thread merges on a connection of its own: a step merges
      // a word's whole list of calls at once, some 20 ms for the commonest words of a journal of
      // 100,000 calls, which on this thread no request could interrupt. Its pause between steps
      // lets this connection's writes take the lock. If the worker cannot, the steps run here.
      if (housekeeper) {
        try {
          await housekeeper.repeat(mergeStep, mergePauseMs);
          return false;
        } catch {
          // Done here, one step a turn, below.
        }
      }
      return zeroingWhatIsFreed(() => {
        const before = changes.get()?.n ?? 0;
        db.exec(mergeStep);
        return (changes.get()?.n ?? 0) - before >= 2;
      });
    },

    async rowsMentioning(source, needles) {
      if (needles.length === 0) return [];
      const read = (column: string) =>
        source.stored === 'bytes' ? `CAST(${column} AS TEXT)` : column;
      const tests = source.columns.flatMap((column) =>
        needles.map(() => `instr(lower(${read(column)}), ?) > 0`),
      );
      const values = source.columns.flatMap(() => needles);
      const select = `SELECT ${[...source.keys, `${source.at} AS held_at`, ...source.columns].join(', ')}
           FROM ${source.table} WHERE ${sourceFilter(source)} AND (${tests.join(' OR ')})`;
      const [key] = source.keys;
      if (source.scanStep === undefined || key === undefined || source.keys.length !== 1) {
        const rows = db
          .prepare<string[], Record<string, string | number | null>>(select)
          .all(...values);
        return rows.map((row) => heldRow(source, row));
      }
      const top =
        db
          .prepare<[], { top: number | null }>(`SELECT max(${key}) AS top FROM ${source.table}`)
          .get()?.top ?? 0;
      const step = db.prepare<(string | number)[], Record<string, string | number | null>>(
        `${select} AND ${key} > ? AND ${key} <= ?`,
      );
      const found: HeldRow[] = [];
      for (let from = 0; from < top; from += source.scanStep) {
        if (from > 0) await nextTurn();
        for (const row of step.all(...values, from, from + source.scanStep)) {
          found.push(heldRow(source, row));
        }
      }
      return found;
    },

    reclaim() {
      return Promise.resolve();
    },

    compact() {
      return Promise.resolve([]);
    },

    rewriteRows(source, rows, now) {
      zeroingWhatIsFreed(() => rewriteSourceRows(db, source, rows, now));
      return Promise.resolve();
    },
  };
}

/** A rewritten column's value as its source keeps it: text, or its UTF-8 bytes. */
export function storedValue(source: TextSource, text: string): string | Buffer {
  return source.stored === 'bytes' ? Buffer.from(text, 'utf8') : text;
}

export function heldRow(source: TextSource, row: Record<string, unknown>): HeldRow {
  const texts: Record<string, string | null> = {};
  for (const column of source.columns) {
    const value = row[column];
    texts[column] = Buffer.isBuffer(value)
      ? value.toString('utf8')
      : typeof value === 'string'
        ? value
        : null;
  }
  return {
    key: source.keys.map((key) => {
      const value = row[key];
      return typeof value === 'number' ? value : String(value);
    }),
    at: Number(row.held_at),
    texts,
  };
}

function rewriteSourceRows(
  db: PortalSqlite,
  source: TextSource,
  rows: readonly { key: readonly (string | number)[]; texts: Record<string, string> }[],
  now: number,
): void {
  const where = source.keys.map((key) => `${key} = ?`).join(' AND ');
  const audit = source.table === 'audit_events';
  // The audit trail refuses any change by a trigger; an erasure is the one change it takes, so
  // the trigger is put back as it was, from its own text, in the same transaction.
  const trigger = audit
    ? db
        .prepare<[], { sql: string }>(
          "SELECT sql FROM sqlite_master WHERE type = 'trigger' AND name = 'audit_events_append_only'",
        )
        .get()
    : undefined;
  db.transaction(() => {
    if (trigger) db.exec('DROP TRIGGER audit_events_append_only');
    for (const { key, texts } of rows) {
      const columns = Object.keys(texts);
      const sets = columns.map((column) => `${column} = ?`);
      // A per-user record takes the next version of its collection, so each browser's next
      // sync brings the erased copy in place of the one it holds.
      if (source.table === 'user_records') {
        sets.push(
          'version = (SELECT max(version) + 1 FROM user_records AS r WHERE r.user_id = user_records.user_id AND r.collection = user_records.collection)',
          `updated_at = ${Math.trunc(now)}`,
        );
      }
      db.prepare(`UPDATE ${source.table} SET ${sets.join(', ')} WHERE ${where}`).run(
        ...columns.map((column) => storedValue(source, texts[column] ?? '')),
        ...key,
      );
    }
    if (trigger) db.exec(trigger.sql);
  })();
}
