import { useInfiniteQuery } from '@tanstack/react-query';
import { auditEvents, isAuditEvent, type AuditEntry, type AuditEventName } from '@/domain/audit';
import {
  auditExportHref,
  auditFilterKeys,
  auditPagesQueryOptions,
} from '@/features/audit/api/audit';
import { useOrg } from '@/shared/config/org-context';
import { groupDigits } from '@/shared/lib/format';
import { DataTable, type Column } from '@/shared/ui/data-table';
import { DateTime } from '@/shared/ui/date-time';
import { DownloadLink } from '@/shared/ui/download-link';
import {
  DateRange,
  FilterBar,
  FilterInput,
  FilterSelect,
  useAddressFilters,
} from '@/shared/ui/filter-bar';
import { ListSection } from '@/shared/ui/list-section';
import { PageHeader } from '@/shared/ui/page-header';
import { StatusBadge } from '@/shared/ui/status-badge';

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
  webhook_added: 'Webhook added',
  webhook_changed: 'Webhook changed',
  webhook_removed: 'Webhook removed',
  notification_sent: 'Notification delivered',
  notification_failed: 'Notification not delivered',
  schedule_added: 'Suite schedule added',
  schedule_changed: 'Suite schedule changed',
  schedule_removed: 'Suite schedule removed',
  schedule_stopped: 'Suite schedule stopped by the portal',
  schedule_run: 'Scheduled suite run',
  send: 'Batch sent',
  watch_started: 'Batch watched',
  watch_settled: 'Batch settled',
  watch_gave_up: 'Batch given up (still pending)',
  refused: 'Refused',
  events_suppressed: 'Refusals not kept (too many)',
  personal_data_exported: "A person's data exported",
  personal_data_erased: "A person's data erased",
  personal_data_revealed: 'Personal data revealed',
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
  const filterState = useAddressFilters(auditFilterKeys);
  const { filters, anyFilter } = filterState;
  const { config } = useOrg();
  const query = useInfiniteQuery(auditPagesQueryOptions(filters));
  const entries = query.data?.pages.flatMap((page) => page.entries) ?? [];
  const retentionDays = query.data?.pages[0]?.retentionDays;

  return (
    <div className="page inspector">
      <PageHeader heading={auditHeading}>
        <DownloadLink href={auditExportHref(filters, 'csv')}>Export CSV</DownloadLink>
        <DownloadLink href={auditExportHref(filters, 'jsonl')}>Export JSON Lines</DownloadLink>
      </PageHeader>
      <p className="page__lead">
        Who signed in or failed to, who changed an account or its grants, who sent which batch to
        which connection, and what the portal refused, the newest first
        {retentionDays ? `, kept ${groupDigits(retentionDays)} days` : ''}. Passwords, tokens, keys
        and the batches' contents are never recorded here. The exports hold what the filters select.
      </p>

      <FilterBar label="Filter the events" submit="Show events" state={filterState}>
        <FilterSelect
          name="event"
          label="Event"
          options={auditEvents.map((event) => ({ value: event, label: auditEventLabels[event] }))}
        />
        <FilterInput name="email" label="User’s e-mail" type="email" autoComplete="off" />
        <FilterSelect
          name="connection"
          label="Connection"
          options={config.connections.map((connection) => ({
            value: connection.name,
            label: connection.label,
          }))}
        />
        <DateRange />
      </FilterBar>

      <ListSection
        heading="Events"
        className="inspector__list"
        query={query}
        count={entries.length}
        one="event"
        many="events"
        reading="Reading the audit trail…"
        empty={anyFilter ? 'No event matches these filters.' : 'No event recorded yet.'}
        older="Show older events"
      >
        <DataTable rows={entries} columns={auditColumns} rowKey={(entry) => entry.id} />
      </ListSection>
    </div>
  );
}

const auditColumns: readonly Column<AuditEntry>[] = [
  { heading: 'Time', cell: (entry) => <DateTime at={entry.at} seconds /> },
  { heading: 'Event', cell: (entry) => auditEventLabel(entry.event) },
  {
    heading: 'User',
    className: 'user-text',
    cell: (entry) => (
      <>
        {entry.email ?? '–'}
        {typeof entry.details.via === 'string' ? ` via ${entry.details.via}` : null}
      </>
    ),
  },
  { heading: 'Connection', cell: (entry) => entry.connection ?? '–' },
  { heading: 'Address', cell: (entry) => entry.address ?? '–' },
  {
    heading: 'Outcome',
    cell: (entry) => (
      <StatusBadge tone={outcomeTone[entry.outcome]}>
        {entry.status === null ? entry.outcome : `${entry.outcome} ${entry.status}`}
      </StatusBadge>
    ),
  },
  {
    heading: 'Details',
    className: 'user-text',
    cell: (entry) => (
      <>
        {detailText(entry.details)}
        {entry.traceId ? <span className="inspector__flag"> trace {entry.traceId}</span> : null}
      </>
    ),
  },
];
