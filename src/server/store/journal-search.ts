import type { JournalFilter } from '../../domain/journal';

/**
 * The journal list's WHERE clause, built from the filters the API parsed. Every value is a bound
 * parameter; only fixed SQL fragments are joined. The text search goes through FTS5 with the
 * user's words each quoted as a string (https://sqlite.org/fts5.html#fts5_strings), so no input
 * can be read as FTS5 syntax.
 */

/** Why a search has nothing to look for: said to the user as is. */
export const emptySearchMessage =
  'q must contain at least one word (letters or digits) to search for in the bodies.';

/**
 * The FTS5 expression for what the user typed: each whitespace-separated word becomes a quoted
 * string (a word the tokenizer splits, like REQ-2026-0042, becomes a phrase), all of them must
 * match, and a trailing `*` makes a word a prefix. Null when nothing searchable is left.
 */
export function searchExpression(text: string): string | null {
  const terms = text
    .split(/\s+/)
    .map((word) => {
      const prefix = word.endsWith('*');
      const bare = word.replace(/\*+$/, '');
      return { bare, prefix };
    })
    // Only letters and digits are tokens (unicode61): a word of punctuation alone matches nothing.
    .filter(({ bare }) => /[\p{L}\p{N}]/u.test(bare))
    .map(({ bare, prefix }) => `"${bare.replaceAll('"', '""')}"${prefix ? '*' : ''}`);
  return terms.length === 0 ? null : terms.join(' ');
}

export interface JournalWhere {
  /** `WITH …` before the SELECT, or ''. */
  with: string;
  /** `WHERE …`, or ''. */
  where: string;
  /** `ORDER BY …` of the page. */
  order: string;
  params: (string | number)[];
}

/** The conditions of a filter, and of where a page starts (ids below or above `from`). */
export function journalWhere(
  filter: JournalFilter,
  page: { order: 'newest' | 'oldest'; from: number | null },
  match: string | null = null,
): JournalWhere {
  const conditions: string[] = [];
  const params: (string | number)[] = [];
  let withClause = '';
  if (match !== null) {
    // Materialized once; a call matches when any of its bodies does.
    withClause =
      'WITH hits(body) AS MATERIALIZED (SELECT rowid FROM journal_search WHERE journal_search MATCH ?) ';
    params.push(match);
    conditions.push('(request_body IN hits OR response_body IN hits OR late_body IN hits)');
  }
  if (page.from !== null) {
    conditions.push(page.order === 'newest' ? 'id < ?' : 'id > ?');
    params.push(page.from);
  }
  if (filter.operation !== undefined) {
    conditions.push('operation = ?');
    params.push(filter.operation);
  }
  if (filter.method !== undefined) {
    conditions.push('method = ?');
    params.push(filter.method);
  }
  switch (filter.status) {
    case undefined:
      break;
    case 'refused':
    case 'failed':
      conditions.push('outcome = ?');
      params.push(filter.status);
      break;
    default: {
      const low = Number(filter.status[0]) * 100;
      conditions.push('status >= ? AND status < ?');
      params.push(low, low + 100);
    }
  }
  if (filter.org !== undefined) {
    conditions.push('(client_org_id = ? OR vendor_org_id = ?)');
    params.push(filter.org, filter.org);
  }
  if (filter.batch !== undefined) {
    conditions.push('batch_id = ?');
    params.push(filter.batch);
  }
  if (filter.key !== undefined) {
    conditions.push('idempotency_key = ?');
    params.push(filter.key);
  }
  if (filter.from !== undefined) {
    conditions.push('at >= ?');
    params.push(filter.from);
  }
  if (filter.to !== undefined) {
    conditions.push('at <= ?');
    params.push(filter.to);
  }
  return {
    with: withClause,
    where: conditions.length === 0 ? '' : `WHERE ${conditions.join(' AND ')}`,
    order: page.order === 'newest' ? 'ORDER BY id DESC' : 'ORDER BY id ASC',
    params,
  };
}
