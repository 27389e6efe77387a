import type Database from 'better-sqlite3';
import {
  auditOutcomes,
  type AuditEntry,
  type AuditEventName,
  type AuditFilter,
  type AuditOutcome,
} from '@/domain/audit';
import type { PortalSqlite } from '@/server/store/portal-database';

/** One event as the trail writes it. Its id is the store's to give. */
export interface AuditRecord {
  /** Milliseconds since the epoch, a whole number. */
  at: number;
  event: AuditEventName;
  userId: string | null;
  email: string | null;
  connection: string | null;
  address: string | null;
  outcome: AuditOutcome;
  status: number | null;
  /** Already cleaned by the trail: identifiers, counts, reasons. */
  details: AuditEntry['details'];
  traceId: string | null;
}

/** Where a page starts: just past the event at `at` with the id `id` (both orders). */
export interface AuditCursor {
  at: number;
  id: number;
}

export interface AuditPageRequest {
  order: 'newest' | 'oldest';
  from: AuditCursor | null;
  limit: number;
}

/** The cursor just past an event, for the page that follows it. */
export function auditCursorAfter(entry: Pick<AuditEntry, 'at' | 'id'>): AuditCursor {
  return { at: Date.parse(entry.at), id: entry.id };
}

/**
 * The audit trail's storage (decision 036): appended to, read in pages, pruned by age. Nothing
 * changes a row once written.
 */
export interface AuditStore {
  /** Writes the events in one transaction, in order: all of them or none. */
  append(records: readonly AuditRecord[]): Promise<void>;
  /** A page of the events the filter selects, by when they happened, then by id. */
  list(filter: AuditFilter, page: AuditPageRequest): Promise<AuditEntry[]>;
  /** Deletes at most `limit` of the events before `cutoff`, oldest first; returns how many. */
  pruneBefore(cutoff: number, limit: number): Promise<number>;
  count(): Promise<number>;
}

/** A row as both databases give it back. */
export interface AuditRow {
  id: number;
  at: number;
  event: string;
  user_id: string | null;
  email: string | null;
  connection: string | null;
  address: string | null;
  outcome: string;
  status: number | null;
  details: string;
  trace_id: string | null;
}

export const auditColumns =
  'id, at, event, user_id, email, connection, address, outcome, status, details, trace_id';

export function toAuditEntry(row: AuditRow): AuditEntry {
  let details: unknown = {};
  try {
    details = JSON.parse(row.details);
  } catch {
    // Written by the trail as JSON; anything else reads as no details rather than failing a page.
  }
  return {
    id: row.id,
    at: new Date(row.at).toISOString(),
    // A name this release does not know (a newer release wrote it) is shown as written: read as any
    // other event, it would say something that did not happen.
    event: row.event,
    userId: row.user_id,
    email: row.email,
    connection: row.connection,
    address: row.address,
    outcome: auditOutcomes.find((outcome) => outcome === row.outcome) ?? 'refused',
    status: row.status,
    details:
      typeof details === 'object' && details !== null && !Array.isArray(details)
        ? (details as AuditEntry['details'])
        : {},
    traceId: row.trace_id,
  };
}

/** The row's values in the order of the insert's columns (all but the id). */
export function auditValues(record: AuditRecord) {
  return [
    record.at,
    record.event,
    record.userId,
    record.email,
    record.connection,
    record.address,
    record.outcome,
    record.status,
    JSON.stringify(record.details),
    record.traceId,
  ] as const;
}

/**
 * The WHERE clause of a page and its values, with `?` or `$n` placeholders (`place` gives them):
 * the filters, then the keyset condition past the cursor.
 */
export function auditWhere(
  filter: AuditFilter,
  page: AuditPageRequest,
  place: (index: number) => string,
): { where: string; values: (string | number)[]; order: string } {
  const clauses: string[] = [];
  const values: (string | number)[] = [];
  const add = (clause: (at: string) => string, value: string | number) => {
    values.push(value);
    clauses.push(clause(place(values.length)));
  };
  if (filter.event !== undefined) add((at) => `event = ${at}`, filter.event);
  if (filter.email !== undefined) add((at) => `email = ${at}`, filter.email);
  if (filter.connection !== undefined) add((at) => `connection = ${at}`, filter.connection);
  if (filter.from !== undefined) add((at) => `at >= ${at}`, filter.from);
  if (filter.to !== undefined) add((at) => `at <= ${at}`, filter.to);
  if (page.from !== null) {
    const newest = page.order === 'newest';
    values.push(page.from.at, page.from.at, page.from.id);
    const [at, sameAt, id] = [values.length - 2, values.length - 1, values.length].map(place);
    clauses.push(
      newest
        ? `(at < ${at} OR (at = ${sameAt} AND id < ${id}))`
        : `(at > ${at} OR (at = ${sameAt} AND id > ${id}))`,
    );
  }
  return {
    where: clauses.length === 0 ? '' : `WHERE ${clauses.join(' AND ')}`,
    values,
    order: page.order === 'newest' ? 'ORDER BY at DESC, id DESC' : 'ORDER BY at, id',
  };
}

/** The audit trail in the SQLite file: one prepared insert, run for each event of a batch. */
export function createAuditStore(db: PortalSqlite): AuditStore {
  const insert = db.prepare(
    `INSERT INTO audit_events (at, event, user_id, email, connection, address, outcome, status,
       details, trace_id) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  const prune = db.prepare<[number, number]>(
    `DELETE FROM audit_events WHERE id IN
       (SELECT id FROM audit_events WHERE at < ? ORDER BY at, id LIMIT ?)`,
  );
  const count = db.prepare<[], { n: number }>('SELECT count(*) AS n FROM audit_events');
  const append = db.transaction((records: readonly AuditRecord[]) => {
    for (const record of records) insert.run(...auditValues(record));
  });
  // A page's statement depends only on which filters are set: a handful of shapes, each prepared once.
  const pages = new Map<string, Database.Statement<(string | number)[], AuditRow>>();
  const prepared = (sql: string) => {
    let statement = pages.get(sql);
    if (!statement) {
      statement = db.prepare<(string | number)[], AuditRow>(sql);
      pages.set(sql, statement);
    }
    return statement;
  };
  return {
    async append(records) {
      append(records);
    },
    async list(filter, page) {
      const { where, values, order } = auditWhere(filter, page, () => '?');
      return prepared(`SELECT ${auditColumns} FROM audit_events ${where} ${order} LIMIT ?`)
        .all(...values, Math.floor(page.limit))
        .map(toAuditEntry);
    },
    async pruneBefore(cutoff, limit) {
      return prune.run(cutoff, limit).changes;
    },
    async count() {
      return count.get()?.n ?? 0;
    },
  };
}
