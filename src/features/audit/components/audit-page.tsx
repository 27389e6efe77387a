import { useInfiniteQuery } from '@tanstack/react-query';
import type { FormEvent } from 'react';
import { useId } from 'react';
import { auditEvents, isAuditEvent, type AuditEntry, type AuditEventName } from '@/domain/audit';
import {
  auditExportHref,
  auditFilterKeys,
  auditPagesQueryOptions,
  type AuditFilters,
} from '@/features/audit/api/audit';
import { useOrg } from '@/shared/config/org-context';
import { formatDateTime, groupDigits } from '@/shared/lib/format';
import { ListStatus } from '@/shared/ui/list-status';
import { StatusBadge } from '@/shared/ui/status-badge';
import { useAddressParams } from '@/shared/ui/use-address-params';

/** Each event as the page names it. */
const auditEventLabels: Record<AuditEventName, string> = {
  sign_in: 'Signed in',
  sign_in_failed: 'Sign-in failed',
  sign_out: 'Signed out',
  sign_out_everywhere: 'Signed out everywhere',
  sessions_ended: 'Sessions ended by an admin',
  session_expired: 'Session expired',
  user_created: 'User invited',
  user_invited: 'Invite sent again',
  user_disabled: 'User disabled',
  user_enabled: 'User enabled',
  grant_changed: 'Role or grants changed',
  password_set: 'Password set',
  api_token_created: 'API token made',
  api_token_revoked: 'API token revoked',
  send: 'Batch sent',
  refused: 'Refused',
  events_suppressed: 'Refusals not kept (too many)',
};

/** An event's name on the page; one a newer release wrote is shown as written, marked as unknown. */
function auditEventLabel(event: string): string {
  return isAuditEvent(event) ? auditEventLabels[event] : `${event} (not known to this version)`;
}

const outcomeTone = { ok: 'success', failed: 'error', refused: 'warning' } as const;

/**
 * The details as a short line: identifiers, counts and reasons, nothing secret is ever there.
 * `via` (a personal API token's name) is shown with the user instead.
 */
function detailText(details: AuditEntry['details']): string {
  return Object.entries(details)
    .filter(
      ([name, value]) =>
        name !== 'via' && value !== null && !(Array.isArray(value) && value.length === 0),
    )
    .map(([name, value]) => `${name}: ${Array.isArray(value) ? value.join(', ') : String(value)}`)
    .join(' · ');
}

/** The page's heading (its prerendered shell shows it too). */
export const auditHeading = 'Audit trail';

/**
 * /audit: who did what and when — sign-ins and failed ones, accounts and grants changed, each batch
 * sent, each refusal — the newest first, filtered, and exported as CSV or JSON Lines. For admins.
 */
export function AuditPage() {
  const [params, setParams] = useAddressParams();
  const { config } = useOrg();
  const filters: AuditFilters = {};
  for (const key of auditFilterKeys) {
    const value = params.get(key);
    if (value) filters[key] = value;
  }
  const query = useInfiniteQuery(auditPagesQueryOptions(filters));
  const entries = query.data?.pages.flatMap((page) => page.entries) ?? [];
  const retentionDays = query.data?.pages[0]?.retentionDays;
  const formId = useId();
  const anyFilter = auditFilterKeys.some((key) => filters[key]);

  const onFilter = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const data = new FormData(event.currentTarget);
    const changes: Record<string, string | null> = {};
    for (const key of auditFilterKeys) changes[key] = String(data.get(key) ?? '');
    setParams(changes);
  };

  return (
    <div className="page inspector">
      <div className="page__header">
        <h1>{auditHeading}</h1>
        <div className="button-row">
          <a className="button button--secondary" href={auditExportHref(filters, 'csv')} download>
            Export CSV
          </a>
          <a className="button button--secondary" href={auditExportHref(filters, 'jsonl')} download>
            Export JSON Lines
          </a>
        </div>
      </div>
      <p className="page__lead">
        Who signed in or failed to, who changed an account or its grants, who sent which batch to
        which connection, and what the portal refused, the newest first
        {retentionDays ? `, kept ${groupDigits(retentionDays)} days` : ''}. Passwords, tokens, keys
        and the batches' contents are never recorded here. The exports hold what the filters select.
      </p>

      <form
        className="inspector__filters"
        aria-label="Filter the events"
        onSubmit={onFilter}
        key={params.toString()}
      >
        <label htmlFor={`${formId}-event`}>Event</label>
        <select id={`${formId}-event`} name="event" defaultValue={filters.event ?? ''}>
          <option value="">Any</option>
          {auditEvents.map((event) => (
            <option key={event} value={event}>
              {auditEventLabels[event]}
            </option>
          ))}
        </select>
        <label htmlFor={`${formId}-email`}>User’s e-mail</label>
        <input
          id={`${formId}-email`}
          name="email"
          type="email"
          autoComplete="off"
          defaultValue={filters.email ?? ''}
        />
        <label htmlFor={`${formId}-connection`}>Connection</label>
        <select
          id={`${formId}-connection`}
          name="connection"
          defaultValue={filters.connection ?? ''}
        >
          <option value="">Any</option>
          {config.connections.map((connection) => (
            <option key={connection.name} value={connection.name}>
              {connection.label}
            </option>
          ))}
        </select>
        <label htmlFor={`${formId}-from`}>From</label>
        <input id={`${formId}-from`} name="from" type="date" defaultValue={filters.from ?? ''} />
        <label htmlFor={`${formId}-to`}>To</label>
        <input id={`${formId}-to`} name="to" type="date" defaultValue={filters.to ?? ''} />
        <div className="button-row">
          <button type="submit" className="button">
            Show events
          </button>
          {anyFilter ? (
            <button
              type="button"
              className="button button--secondary"
              onClick={() =>
                setParams(Object.fromEntries(auditFilterKeys.map((key) => [key, null])))
              }
            >
              Clear filters
            </button>
          ) : null}
        </div>
      </form>

      <section aria-labelledby={`${formId}-events`} className="inspector__list">
        <h2 id={`${formId}-events`}>Events</h2>
        <ListStatus
          query={query}
          count={entries.length}
          one="event"
          many="events"
          reading="Reading the audit trail…"
          empty={anyFilter ? 'No event matches these filters.' : 'No event recorded yet.'}
        />
        {entries.length > 0 ? (
          <table className="inspector__table">
            <thead>
              <tr>
                <th scope="col">Time</th>
                <th scope="col">Event</th>
                <th scope="col">User</th>
                <th scope="col">Connection</th>
                <th scope="col">Address</th>
                <th scope="col">Outcome</th>
                <th scope="col">Details</th>
              </tr>
            </thead>
            <tbody>
              {entries.map((entry) => (
                <tr key={entry.id}>
                  <td>
                    <time dateTime={entry.at}>{formatDateTime(entry.at, { seconds: true })}</time>
                  </td>
                  <td>{auditEventLabel(entry.event)}</td>
                  <td className="user-text">
                    {entry.email ?? '–'}
                    {typeof entry.details.via === 'string' ? ` via ${entry.details.via}` : null}
                  </td>
                  <td>{entry.connection ?? '–'}</td>
                  <td>{entry.address ?? '–'}</td>
                  <td>
                    <StatusBadge tone={outcomeTone[entry.outcome]}>
                      {entry.status === null ? entry.outcome : `${entry.outcome} ${entry.status}`}
                    </StatusBadge>
                  </td>
                  <td className="user-text">
                    {detailText(entry.details)}
                    {entry.traceId ? (
                      <span className="inspector__flag"> trace {entry.traceId}</span>
                    ) : null}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        ) : null}
        {query.hasNextPage ? (
          <button
            type="button"
            className="button button--secondary"
            disabled={query.isFetchingNextPage}
            onClick={() => void query.fetchNextPage()}
          >
            {query.isFetchingNextPage ? 'Loading…' : 'Show older events'}
          </button>
        ) : null}
      </section>
    </div>
  );
}
