import type { JournalFilter } from '@/domain/journal';
import { JournalSearchError, type JournalPageRequest } from './journal-store';

/**
 * The journal list's query, built from the filters the API parsed, for either database: the SQL
 * is the same but for its placeholders and how the text search finds bodies (JournalDialect).
 * Every value is a bound parameter; only fixed SQL fragments are joined. What the user typed is
 * never read as search syntax: SQLite gets each word quoted as an FTS5 string
 * (https://sqlite.org/fts5.html#fts5_strings), PostgreSQL a tsquery built from the words alone.
 */

/** Why a search has nothing to look for: said to the user as is. */
export const emptySearchMessage =
  'q must contain at least one word (letters or digits) to search for in the bodies.';

/**
 * One whitespace-separated word of a search: its text without a trailing `*`, and whether that
 * `*` made it a prefix. A word the tokenizer splits, like REQ-2026-0042, is matched as a phrase.
 */
export interface SearchTerm {
  text: string;
  prefix: boolean;
}

/** The words of a search that can match anything: with at least one letter or digit. */
export function searchTerms(text: string): SearchTerm[] {
  return (
    text
      .split(/\s+/)
      .map((word) => ({ text: word.replace(/\*+$/, ''), prefix: word.endsWith('*') }))
      // Only letters and digits are tokens (unicode61): a word of punctuation alone matches nothing.
      .filter((term) => /[\p{L}\p{N}]/u.test(term.text))
  );
}

/**
 * The FTS5 expression for search terms: each word a quoted string, all of them must match, a
 * trailing `*` makes a prefix.
 */
export function fts5Expression(terms: readonly SearchTerm[]): string {
  return terms
    .map(({ text, prefix }) => `"${text.replaceAll('"', '""')}"${prefix ? '*' : ''}`)
    .join(' ');
}

/** The FTS5 expression for what the user typed; null when nothing searchable is left. */
export function searchExpression(text: string): string | null {
  const terms = searchTerms(text);
  return terms.length === 0 ? null : fts5Expression(terms);
}

/**
 * Most bodies a search may match for the list to start from them: the calls that hold them,
 * found through each body column's index. Past it, the list tests calls newest first against the
 * matching bodies and stops when its page is full. A word in few bodies (a requisition's own
 * reference) no longer makes the list test every call: at 100,000 calls that walk was the
 * slowest search in bench/proxy-journal.ts (50–90 ms alone, 300 ms on a loaded machine), where a
 * common word fills its page within a few hundred calls.
 */
export const fewBodies = 1000;

/** What differs between SQLite and PostgreSQL in the journal's list queries. */
export interface JournalDialect {
  /** The placeholder of the `n`th bound value, from 1: `?` or `$n`. */
  placeholder(n: number): string;
  /**
   * A SELECT of the ids of the bodies that match every term (each value bound through `bind`,
   * which returns its placeholder).
   */
  matchingBodies(terms: readonly SearchTerm[], bind: (value: string) => string): string;
  /** `IN (…)`, or its like, of a list of ids, bound through `bind`. */
  inIds(ids: readonly number[], bind: (value: string) => string): string;
}

export interface JournalWhere {
  /** `WITH …` before the SELECT, or ''. */
  with: string;
  /** `WHERE …`, or ''. */
  where: string;
  /** `ORDER BY …` of the page. */
  order: string;
  /** `LIMIT …` of the page. */
  limit: string;
  params: (string | number)[];
}

/**
 * The conditions of a filter, and of where a page starts (calls that started before or after
 * `from`, the id settling calls of the same millisecond); throws
 * JournalSearchError when `q` has nothing to search for. `foundBodies`, when the store already
 * knows the few bodies that match `q`, replaces the search with the calls that hold them.
 */
export function journalWhere(
  filter: JournalFilter,
  page: JournalPageRequest,
  dialect: JournalDialect,
  foundBodies?: readonly number[],
): JournalWhere {
  const conditions: string[] = [];
  const params: (string | number)[] = [];
  const bind = (value: string | number) => {
    params.push(value);
    return dialect.placeholder(params.length);
  };
  let withClause = '';
  if (filter.q !== undefined && foundBodies !== undefined) {
    // A few bodies: the calls that hold them, found through each body column's index, rather than
    // every call tested newest first until a page is full (all of them when fewer match).
    const held = ['request_body', 'response_body', 'late_body'].map(
      (column) =>
        `SELECT id FROM journal_calls WHERE ${column} ${dialect.inIds(foundBodies, bind)}`,
    );
    conditions.push(`id IN (${held.join(' UNION ALL ')})`);
  } else if (filter.q !== undefined) {
    const terms = searchTerms(filter.q);
    if (terms.length === 0) throw new JournalSearchError(emptySearchMessage);
    // Materialized once; a call matches when any of its bodies does. The unary `+` keeps both
    // databases from reaching the calls through the body indexes: for this many bodies, fetching
    // every call that holds one and sorting them all costs more than testing calls newest first
    // until the page is full (SQLite took 23 ms instead of 2 for a word in 16,000 bodies).
    withClause = `WITH hits(body) AS MATERIALIZED (${dialect.matchingBodies(terms, bind)}) `;
    conditions.push(
      '(+request_body IN (SELECT body FROM hits) OR +response_body IN (SELECT body FROM hits) OR +late_body IN (SELECT body FROM hits))',
    );
  }
  if (page.from !== null) {
    // A row value, which both databases compare column by column and walk the (at, id) index for.
    const beyond = page.order === 'newest' ? '<' : '>';
    conditions.push(`(at, id) ${beyond} (${bind(page.from.at)}, ${bind(page.from.id)})`);
  }
  if (filter.operation !== undefined) conditions.push(`operation = ${bind(filter.operation)}`);
  if (filter.method !== undefined) conditions.push(`method = ${bind(filter.method)}`);
  switch (filter.status) {
    case undefined:
      break;
    case 'refused':
    case 'failed':
      conditions.push(`outcome = ${bind(filter.status)}`);
      break;
    default: {
      const low = Number(filter.status[0]) * 100;
      conditions.push(`status >= ${bind(low)} AND status < ${bind(low + 100)}`);
    }
  }
  if (filter.org !== undefined) {
    conditions.push(`(client_org_id = ${bind(filter.org)} OR vendor_org_id = ${bind(filter.org)})`);
  }
  if (filter.connection !== undefined) {
    conditions.push(
      filter.connectionOrUnnamed === true
        ? `(connection = ${bind(filter.connection)} OR connection IS NULL)`
        : `connection = ${bind(filter.connection)}`,
    );
  }
  if (filter.sentByUser !== undefined) conditions.push(`user_id = ${bind(filter.sentByUser)}`);
  if (filter.batch !== undefined) conditions.push(`batch_id = ${bind(filter.batch)}`);
  if (filter.trace !== undefined) conditions.push(`trace_id = ${bind(filter.trace)}`);
  if (filter.run !== undefined) conditions.push(`suite_run = ${bind(filter.run)}`);
  if (filter.key !== undefined) conditions.push(`idempotency_key = ${bind(filter.key)}`);
  if (filter.from !== undefined) conditions.push(`at >= ${bind(filter.from)}`);
  if (filter.to !== undefined) conditions.push(`at <= ${bind(filter.to)}`);
  return {
    with: withClause,
    where: conditions.length === 0 ? '' : `WHERE ${conditions.join(' AND ')}`,
    order: page.order === 'newest' ? 'ORDER BY at DESC, id DESC' : 'ORDER BY at ASC, id ASC',
    limit: `LIMIT ${bind(page.limit)}`,
    params,
  };
}
