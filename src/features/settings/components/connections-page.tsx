import { useMutation } from '@tanstack/react-query';
import { useId } from 'react';
import type { DoctorReport, ProbeVerdict } from '@/domain/connection-check';
import { connectionLabel, type ConnectionSettings } from '@/domain/portal-config';
import { checkConnection } from '@/features/settings/api/connections';
import { errorMessage } from '@/shared/api/http';
import { useOrg } from '@/shared/config/org-context';
import { formatDateTime } from '@/shared/lib/format';
import { ProfileDraftAction } from './profile-draft';

/** Each verdict in words: the colour beside it only repeats what the word says. */
const verdictLabels: Record<ProbeVerdict, string> = {
  passed: 'Passed',
  failed: 'Failed',
  undecided: 'Undecided',
};

function summary(report: DoctorReport): string {
  const count = (verdict: ProbeVerdict) =>
    report.probes.filter((probe) => probe.verdict === verdict).length;
  if (report.verdict === 'passed') return `Every check passed (${report.probes.length}).`;
  return `${count('failed')} failed, ${count('undecided')} undecided, ${count('passed')} passed.`;
}

function CheckReport({ report, headingId }: { report: DoctorReport; headingId: string }) {
  return (
    <section aria-labelledby={headingId} className="connection-check">
      <h3 id={headingId}>Checked {formatDateTime(report.checkedAt)}</h3>
      <p
        className={`notice ${report.verdict === 'passed' ? 'notice--success' : report.verdict === 'failed' ? 'notice--error' : 'notice--warning'}`}
      >
        {summary(report)}
      </p>
      <ol className="connection-check__probes">
        {report.probes.map((probe) => (
          <li
            key={probe.id}
            className={`connection-check__probe connection-check__probe--${probe.verdict}`}
          >
            <p className="connection-check__title">
              <strong>{probe.title}</strong>{' '}
              <span
                className={`connection-check__verdict connection-check__verdict--${probe.verdict}`}
              >
                {verdictLabels[probe.verdict]}
              </span>
            </p>
            <p className="user-text">{probe.finding}</p>
            {probe.fix === null ? null : (
              <p className="user-text">
                <strong>What to change:</strong> {probe.fix}
              </p>
            )}
            {probe.evidence.length === 0 ? null : (
              <details className="connection-check__evidence">
                <summary>What the VMS answered ({probe.evidence.length})</summary>
                <ul>
                  {probe.evidence.map((line, at) => (
                    <li key={at} className="user-text">
                      {line}
                    </li>
                  ))}
                </ul>
              </details>
            )}
          </li>
        ))}
      </ol>
    </section>
  );
}

/** One connection: what it is, and its check on demand. */
function ConnectionSection({ connection }: { connection: ConnectionSettings }) {
  const id = useId();
  const check = useMutation({ mutationFn: () => checkConnection(connection.name) });
  return (
    <section aria-labelledby={`${id}-name`}>
      <h2 id={`${id}-name`}>{connectionLabel(connection)}</h2>
      <p>
        {connection.kind === 'sandbox'
          ? `The embedded sandbox VMS, named "${connection.name}".`
          : `A VMS named "${connection.name}", acting as vendor org ${connection.vendorOrgId} for client orgs ${connection.clientOrgIds.join(', ')}.`}
      </p>
      <button
        type="button"
        className="button"
        onClick={() => check.mutate()}
        disabled={check.isPending}
      >
        Check {connection.label}
      </button>
      <div aria-live="polite">
        {check.isPending ? <p>Checking {connection.label}…</p> : null}
        {check.isError ? (
          <p role="alert" className="notice notice--error">
            {errorMessage(check.error)}
          </p>
        ) : null}
      </div>
      {check.data && !check.isPending ? (
        <CheckReport report={check.data} headingId={`${id}-report`} />
      ) : null}
      <ProfileDraftAction connection={connection} />
    </section>
  );
}

/** The page's heading (its prerendered shell shows it too). */
export const connectionsHeading = 'Connections';

/**
 * /connections (admins): every VMS connection of this portal, and the connection doctor's safe
 * probes of each on demand, each with what it found and what to change.
 */
export function ConnectionsPage() {
  const { config } = useOrg();
  return (
    <div className="page">
      <title>{`${connectionsHeading} · VMS submission portal`}</title>
      <h1>{connectionsHeading}</h1>
      <p className="page__lead">
        The VMS connections of this portal. A check calls one with its key and signature and reads
        what it answers, without sending anything: whether it is reachable, whether its clock
        agrees, whether it accepts the key, and whether its answers look the way its profile says. A
        draft reads the VMS the same way and writes a profile from what it answered, each key with
        how it was proved.
      </p>
      {config.connections.map((connection) => (
        <ConnectionSection key={connection.name} connection={connection} />
      ))}
    </div>
  );
}
