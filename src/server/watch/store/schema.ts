import type { ConcernSchema } from '@/server/store/migrations';
import type { PortalSqlite } from '@/server/store/portal-database';

/**
 * Schema version 14 (decision 050): one row per batch the VMS accepted through the proxy, kept
 * while the watcher asks for its results and after. A batch id is the VMS's, so it is unique per
 * connection only. `state` is `watching`, `settled` or `gave_up`; `next_at` is when the next check
 * is due; `claimed_until` is the lease of the check in flight (one call per batch at once, across
 * processes), `claimed_by` the process holding it. `results_rows` is the latest rows as JSON in
 * the portal's terms, `results_body` the answer's body as the VMS sent it.
 */
function createWatchesTable(db: PortalSqlite): void {
  db.exec(`
    CREATE TABLE batch_watches (
      connection TEXT NOT NULL,
      batch_id TEXT NOT NULL,
      operation TEXT NOT NULL,
      client_org_id INTEGER NOT NULL,
      vendor_org_id INTEGER NOT NULL,
      sent_by_user_id TEXT,
      sent_by_email TEXT,
      item_count INTEGER NOT NULL,
      trace_id TEXT NOT NULL,
      accepted_at INTEGER NOT NULL,
      state TEXT NOT NULL,
      attempts INTEGER NOT NULL,
      next_at INTEGER NOT NULL,
      claimed_by TEXT,
      claimed_until INTEGER,
      last_checked_at INTEGER,
      last_status INTEGER,
      last_problem TEXT,
      finished_at INTEGER,
      results_rows TEXT,
      results_body TEXT,
      results_at INTEGER,
      PRIMARY KEY (connection, batch_id)
    );
    CREATE INDEX batch_watches_due ON batch_watches (state, next_at);
    CREATE INDEX batch_watches_batch ON batch_watches (batch_id);
  `);
}

/** The same table in PostgreSQL (createWatchesTable). */
const postgresWatchesTable = `
  CREATE TABLE batch_watches (
    connection TEXT NOT NULL,
    batch_id TEXT NOT NULL,
    operation TEXT NOT NULL,
    client_org_id BIGINT NOT NULL,
    vendor_org_id BIGINT NOT NULL,
    sent_by_user_id TEXT,
    sent_by_email TEXT,
    item_count INTEGER NOT NULL,
    trace_id TEXT NOT NULL,
    accepted_at BIGINT NOT NULL,
    state TEXT NOT NULL,
    attempts INTEGER NOT NULL,
    next_at BIGINT NOT NULL,
    claimed_by TEXT,
    claimed_until BIGINT,
    last_checked_at BIGINT,
    last_status INTEGER,
    last_problem TEXT,
    finished_at BIGINT,
    results_rows TEXT,
    results_body TEXT,
    results_at BIGINT,
    PRIMARY KEY (connection, batch_id)
  );
  CREATE INDEX batch_watches_due ON batch_watches (state, next_at);
  CREATE INDEX batch_watches_batch ON batch_watches (batch_id);
`;

/** The batch watches' step of the portal's schema (decision 047). */
export const watchSchema: ConcernSchema = {
  concern: 'watch',
  steps: [
    {
      version: 14,
      name: 'batch watches',
      sqlite: createWatchesTable,
      postgres: postgresWatchesTable,
    },
  ],
};
