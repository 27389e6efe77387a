import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openPortalSqlite } from '@/test-support/portal-stores';
import { textSources } from './privacy-store';

/*
 * Every column of the portal's database that can hold text is either searched and erased for one
 * person (the journal's bodies and index, and the sources beside them), or said here to hold none
 * of a candidate's data, and why. A table or a text column added to any concern's schema fails
 * this test until it is one or the other: a new store cannot be forgotten by find and erase.
 */

/**
 * The journal's bodies and index: found through the index, rewritten whole (a body's identity, a
 * SHA-256 of the bytes it replaced, too).
 */
const journalColumns = ['journal_bodies.data', 'journal_bodies.sha256', 'journal_search.body'];

/** Columns that hold no candidate's data, by what they hold instead. */
const notACandidates: Record<string, string> = {
  // The portal's own users: their accounts, sessions, grants and settings.
  'users.id': 'a user',
  'users.email': 'a user',
  'users.role': 'a user',
  'users.password_hash': 'a user',
  'users.connections': 'a user',
  'user_grants.user_id': 'a user',
  'sessions.id_hash': 'a session',
  'sessions.user_id': 'a user',
  'sessions.csrf_token': 'a session',
  'invites.token_hash': 'an invitation',
  'invites.user_id': 'a user',
  'sign_in_failures.key': 'a sign-in attempt (an e-mail or address of a user)',
  'sso_logins.state_hash': 'a sign-in in progress',
  'sso_logins.nonce': 'a sign-in in progress',
  'sso_logins.code_verifier': 'a sign-in in progress',
  'api_tokens.id': 'a token',
  'api_tokens.token_hash': 'a token',
  'api_tokens.user_id': 'a user',
  'api_tokens.name': 'a token’s name, given by its user',
  'api_tokens.scope': 'a token',
  'api_tokens.revoked_by': 'a user',
  'mail_preferences.user_id': 'a user',
  'mail_preferences.kind': 'a user’s setting',
  'user_records.user_id': 'a user',
  'user_records.collection': 'a collection’s name',
  'user_records.key': 'a record’s key (a draft’s or a batch’s id)',
  // Secrets and keys the portal made.
  'portal_secrets.name': 'a secret',
  'portal_secrets.secret': 'a secret',
  'delivery_keys.name': 'a secret',
  'delivery_keys.secret': 'a secret',
  'webhooks.name': 'an admin’s webhook',
  'webhooks.url': 'an admin’s webhook',
  'webhooks.connection': 'a connection’s name',
  'webhooks.events': 'an admin’s webhook',
  'webhooks.secret': 'a secret',
  // What a call, a batch or a run was, not what it carried.
  'journal_calls.operation': 'an operation of the contract',
  'journal_calls.method': 'an HTTP method',
  'journal_calls.batch_id': 'a VMS batch id',
  'journal_calls.idempotency_key': 'a key the browser made',
  'journal_calls.outcome': 'an outcome',
  'journal_calls.error_code': 'an error code',
  'journal_calls.failure': 'why a call failed, in the portal’s words',
  'journal_calls.response_headers': 'headers (the body is the journal’s)',
  'journal_calls.late_headers': 'headers (the body is the journal’s)',
  'journal_calls.user_id': 'a user',
  'journal_calls.user_email': 'a user',
  'journal_calls.connection': 'a connection’s name',
  'journal_calls.trace_id': 'a trace id',
  'idempotency_keys.key': 'a key the browser made',
  'idempotency_keys.fingerprint': 'a SHA-256 of what was sent',
  'idempotency_keys.state': 'a state',
  'idempotency_keys.headers': 'the answer’s headers (its body is a source)',
  'batch_watches.connection': 'a connection’s name',
  'batch_watches.batch_id': 'a VMS batch id',
  'batch_watches.operation': 'an operation of the contract',
  'batch_watches.sent_by_user_id': 'a user',
  'batch_watches.sent_by_email': 'a user',
  'batch_watches.trace_id': 'a trace id',
  'batch_watches.state': 'a state',
  'batch_watches.claimed_by': 'a process',
  'batch_watches.last_problem': 'why a check failed, in the portal’s words',
  // Notices say a batch or a run's counts and a link, never an item (decision 056).
  'notifications.user_id': 'a user',
  'notifications.kind': 'a kind of notice',
  'notifications.title': 'a batch’s or a run’s counts',
  'notifications.link': 'a link to the results',
  'notifications.about': 'a batch’s or a run’s id',
  'deliveries.about': 'a batch’s or a run’s id',
  'deliveries.channel': 'e-mail or webhook',
  'deliveries.target': 'a user’s address or an admin’s webhook',
  'deliveries.kind': 'a kind of notice',
  'deliveries.title': 'a batch’s or a run’s counts',
  'deliveries.payload': 'a batch’s or a run’s counts and link',
  'deliveries.state': 'a state',
  'deliveries.claimed_by': 'a process',
  'deliveries.last_error': 'why a delivery failed, in the portal’s words',
  // Suites: their names and schedules are a QA engineer's; their cases and runs are sources.
  'suites.name': 'a suite’s name',
  'suites.name_key': 'a suite’s name',
  'suites.updated_by_id': 'a user',
  'suites.updated_by_email': 'a user',
  'suite_versions.name': 'a suite’s name',
  'suite_versions.saved_by_id': 'a user',
  'suite_versions.saved_by_email': 'a user',
  'suite_runs.suite_name': 'a suite’s name',
  'suite_runs.connection': 'a connection’s name',
  'suite_runs.run_token': 'a run’s token',
  'suite_runs.status': 'a state',
  'suite_runs.started_by_id': 'a user',
  'suite_runs.started_by_email': 'a user',
  'suite_runs.interruption': 'why a run stopped, in the portal’s words',
  'suite_schedules.cron': 'a schedule',
  'suite_schedules.time_zone': 'a schedule',
  'suite_schedules.connection': 'a connection’s name',
  'suite_schedules.owner_id': 'a user',
  'suite_schedules.owner_email': 'a user',
  'suite_schedules.notify': 'a schedule',
  'suite_schedules.missed': 'a schedule',
  'suite_schedules.stopped_reason': 'why a schedule stopped, in the portal’s words',
  'suite_schedule_runs.outcome': 'an outcome',
  // The audit trail: who did what (its details are a source).
  'audit_events.event': 'an event',
  'audit_events.user_id': 'a user',
  'audit_events.email': 'a user',
  'audit_events.connection': 'a connection’s name',
  'audit_events.address': 'a user’s network address',
  'audit_events.outcome': 'an outcome',
  'audit_events.trace_id': 'a trace id',
};

describe('the columns that can hold text', () => {
  it('are each searched and erased for one person, or said to hold none of a candidate’s data', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'personal-columns-'));
    const { db, close } = await openPortalSqlite(join(dir, 'portal.db'));
    try {
      const tables = db
        .prepare<[], { name: string }>(
          // FTS5's own tables (the index's data, configuration…) are the index's: it is rewritten.
          `SELECT name FROM sqlite_master WHERE type = 'table'
             AND name NOT LIKE 'sqlite_%' AND name NOT LIKE 'journal_search_%'`,
        )
        .all();
      const textColumns = tables.flatMap(({ name }) =>
        db
          .prepare<[string], { name: string; type: string }>(
            'SELECT name, type FROM pragma_table_info(?)',
          )
          .all(name)
          // A column without a type (an FTS5 column) takes text too.
          .filter((column) => /^(TEXT|BLOB|)$/i.test(column.type))
          .map((column) => `${name}.${column.name}`),
      );
      const erased = new Set([
        ...journalColumns,
        ...textSources.flatMap((source) => source.columns.map((c) => `${source.table}.${c}`)),
      ]);
      const unaccounted = textColumns.filter(
        (column) => !erased.has(column) && !(column in notACandidates),
      );
      expect(unaccounted).toEqual([]);
      // And the other way: nothing said here of a column that is gone, or that is erased after all.
      const stale = Object.keys(notACandidates).filter(
        (column) => !textColumns.includes(column) || erased.has(column),
      );
      expect(stale).toEqual([]);
    } finally {
      await close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
