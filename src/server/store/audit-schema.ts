import type { PortalSqlite } from './portal-database';

/**
 * The audit trail's table: one row per event (a sign-in, a failed one, an account or grant
 * changed, a send, a refusal), written once and never changed. A trigger refuses updates; rows
 * leave only by retention (AUDIT_RETENTION_DAYS), oldest first. `details` is a JSON object of
 * identifiers, counts and reasons; never a password, a token, a key or a body.
 *
 * Three indexes, each appended to at its end as events arrive: by time (the list newest first,
 * its pages from a cursor of (at, id), and retention), and by e-mail address and by event, the
 * two filters an admin uses most, so that a rare one does not walk a year of sends.
 */
export function createAuditTable(db: PortalSqlite): void {
  db.exec(`
    CREATE TABLE audit_events (
      id INTEGER PRIMARY KEY,
      at INTEGER NOT NULL,
      event TEXT NOT NULL,
      user_id TEXT,
      email TEXT,
      connection TEXT,
      address TEXT,
      outcome TEXT NOT NULL CHECK (outcome IN ('ok', 'failed', 'refused')),
      status INTEGER,
      details TEXT NOT NULL,
      trace_id TEXT
    );
    CREATE INDEX audit_events_at ON audit_events (at, id);
    CREATE INDEX audit_events_email ON audit_events (email, at, id) WHERE email IS NOT NULL;
    CREATE INDEX audit_events_event ON audit_events (event, at, id);
    CREATE TRIGGER audit_events_append_only BEFORE UPDATE ON audit_events
    BEGIN
      SELECT RAISE(ABORT, 'audit events are never changed');
    END;
  `);
}
