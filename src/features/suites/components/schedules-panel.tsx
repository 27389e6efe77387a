import { useQuery } from '@tanstack/react-query';
import { useEffect, useId, useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import {
  addSchedule,
  changeSchedule,
  previewSchedule,
  removeSchedule,
  schedulesQueryOptions,
} from '@/core/suites/api/suites';
import { connectionLabel, usableConnections } from '@/domain/portal-config';
import { suiteRunPath } from '@/domain/suite-run';
import {
  missedPolicies,
  missedPolicyLabels,
  type MissedPolicy,
  type SuiteSchedule,
} from '@/domain/suite-schedule';
import { useSuitesChange } from '@/features/suites/model/use-suites-change';
import { errorMessage } from '@/shared/api/http';
import { useOrg } from '@/shared/config/org-context';
import { useSessionUser } from '@/shared/session/session';
import { ConfirmButton } from '@/shared/ui/confirm-dialog';
import { ErrorNotice } from '@/shared/ui/error-notice';

/** A time as it reads in the schedule's own zone: "Mon 30 Nov 2026, 06:00". */
function inZone(iso: string, timeZone: string): string {
  try {
    return new Intl.DateTimeFormat('en-GB', {
      timeZone,
      weekday: 'short',
      day: 'numeric',
      month: 'short',
      year: 'numeric',
      hour: '2-digit',
      minute: '2-digit',
    }).format(new Date(iso));
  } catch {
    return iso;
  }
}

/** The browser's own zone: what a new schedule starts with. */
function browserZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
}

/**
 * A suite's schedules (decision 057): each with its rule, zone, connection, whom it tells, its
 * next occurrences in its zone, and why it stopped; stopped, resumed and removed here. A schedule
 * is added with its rule checked as typed (the next occurrences, or the server's words).
 */
export function SchedulesPanel({ suiteId }: { suiteId: number }) {
  const id = useId();
  const schedules = useQuery(schedulesQueryOptions(suiteId));
  return (
    <section aria-labelledby={`${id}-schedules`} className="suite-schedules">
      <h2 id={`${id}-schedules`}>Schedules</h2>
      {schedules.isPending ? (
        <p aria-busy="true">Loading the schedules…</p>
      ) : schedules.isError ? (
        <ErrorNotice message={errorMessage(schedules.error)} />
      ) : schedules.data.length === 0 ? (
        <p>No schedule yet: add one below to run the suite by itself.</p>
      ) : (
        <ul className="suite-schedules__list">
          {schedules.data.map((schedule) => (
            <ScheduleItem key={schedule.id} schedule={schedule} />
          ))}
        </ul>
      )}
      <AddSchedule suiteId={suiteId} />
    </section>
  );
}

function ScheduleItem({ schedule }: { schedule: SuiteSchedule }) {
  const [problem, setProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const change = useSuitesChange(setProblem);
  const act = async (action: () => Promise<unknown>) => {
    setProblem(null);
    setBusy(true);
    await change(action);
    setBusy(false);
  };
  const headingId = useId();
  return (
    <li aria-labelledby={headingId} className="suite-schedule">
      <h3 id={headingId}>
        <code>{schedule.cron}</code> in {schedule.timeZone} on {schedule.connection}
        {schedule.enabled ? '' : ' (stopped)'}
      </h3>
      <dl className="suite-schedule__facts">
        <dt>Runs as</dt>
        <dd className="user-text">{schedule.owner?.email ?? 'the portal'}</dd>
        <dt>Tells</dt>
        <dd className="user-text">
          {schedule.notify.length === 0 ? 'nobody' : schedule.notify.join(', ')}
        </dd>
        <dt>A run missed while the portal was down</dt>
        <dd>{missedPolicyLabels[schedule.missed]}</dd>
        {schedule.lastRunId !== null ? (
          <>
            <dt>Last run</dt>
            <dd>
              <Link to={suiteRunPath(schedule.lastRunId, schedule.suiteId)}>
                Run #{schedule.lastRunId}
              </Link>
            </dd>
          </>
        ) : null}
      </dl>
      {schedule.stoppedReason ? (
        <p className="notice notice--warning">Stopped: {schedule.stoppedReason}.</p>
      ) : null}
      {schedule.next.length > 0 ? (
        <p>
          Next, in {schedule.timeZone}:{' '}
          {schedule.next.map((at, index) => (
            <span key={at}>
              {index > 0 ? '; ' : ''}
              <time dateTime={at}>{inZone(at, schedule.timeZone)}</time>
            </span>
          ))}
        </p>
      ) : null}
      <ErrorNotice message={problem} />
      <div className="button-row">
        <button
          type="button"
          className="button button--secondary"
          disabled={busy}
          onClick={() =>
            void act(() =>
              changeSchedule(schedule.suiteId, schedule.id, { enabled: !schedule.enabled }),
            )
          }
        >
          {schedule.enabled ? 'Stop' : 'Resume, running as you'}
        </button>
        <ConfirmButton
          label="Remove"
          title={`Remove the schedule ${schedule.cron} in ${schedule.timeZone}?`}
          confirmLabel="Remove the schedule"
          destructive
          onConfirm={() => void act(() => removeSchedule(schedule.suiteId, schedule.id))}
        >
          <p>Its runs are kept; it runs no more.</p>
        </ConfirmButton>
      </div>
    </li>
  );
}

function AddSchedule({ suiteId }: { suiteId: number }) {
  const id = useId();
  const { config } = useOrg();
  const user = useSessionUser();
  const usable = usableConnections(config, user?.connections ?? null);
  const [cron, setCron] = useState('0 6 * * 1-5');
  const [timeZone, setTimeZone] = useState(browserZone);
  const [connection, setConnection] = useState(usable[0]?.name ?? '');
  const [notify, setNotify] = useState(user?.email ?? '');
  const [missed, setMissed] = useState<MissedPolicy>('run-once');
  const [problem, setProblem] = useState<string | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const change = useSuitesChange(setProblem);
  const [preview, setPreview] = useState<{ next: string[] } | { problem: string } | null>(null);

  // The rule as typed, read by the server a moment after typing stops.
  useEffect(() => {
    const controller = new AbortController();
    const timer = setTimeout(() => {
      previewSchedule(cron, timeZone, controller.signal).then(
        (next) => setPreview({ next }),
        (error: unknown) => {
          if (!controller.signal.aborted) setPreview({ problem: errorMessage(error) });
        },
      );
    }, 300);
    return () => {
      clearTimeout(timer);
      controller.abort();
    };
  }, [cron, timeZone]);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setProblem(null);
    setDone(null);
    await change(
      () =>
        addSchedule(suiteId, {
          cron,
          timeZone,
          connection,
          notify: notify
            .split(/[\s,;]+/)
            .map((entry) => entry.trim())
            .filter((entry) => entry !== ''),
          missed,
        }),
      () => setDone('Schedule added.'),
    );
  };

  return (
    <form className="suite-schedules__add" aria-labelledby={`${id}-add`} onSubmit={submit}>
      <h3 id={`${id}-add`}>Add a schedule</h3>
      <div className="field">
        <label htmlFor={`${id}-cron`}>When (cron: minute hour day-of-month month weekday)</label>
        <input
          id={`${id}-cron`}
          value={cron}
          maxLength={200}
          aria-describedby={`${id}-preview`}
          onChange={(event) => setCron(event.target.value)}
        />
      </div>
      <div className="field">
        <label htmlFor={`${id}-zone`}>Time zone</label>
        <input
          id={`${id}-zone`}
          value={timeZone}
          maxLength={100}
          aria-describedby={`${id}-preview`}
          onChange={(event) => setTimeZone(event.target.value)}
        />
      </div>
      <p id={`${id}-preview`} role="status">
        {preview === null
          ? ''
          : 'problem' in preview
            ? preview.problem
            : `Next, in ${timeZone}: ${preview.next
                .slice(0, 3)
                .map((at) => inZone(at, timeZone))
                .join('; ')}`}
      </p>
      <div className="field">
        <label htmlFor={`${id}-connection`}>Connection</label>
        <select
          id={`${id}-connection`}
          value={connection}
          onChange={(event) => setConnection(event.target.value)}
        >
          {usable.map((entry) => (
            <option key={entry.name} value={entry.name}>
              {connectionLabel(entry)}
            </option>
          ))}
        </select>
      </div>
      <div className="field">
        <label htmlFor={`${id}-notify`}>Tell (sign-in e-mails, separated by commas)</label>
        <input
          id={`${id}-notify`}
          value={notify}
          onChange={(event) => setNotify(event.target.value)}
        />
      </div>
      <fieldset className="field">
        <legend>A run missed while the portal was down</legend>
        {missedPolicies.map((policy) => (
          <label key={policy} className="choice">
            <input
              type="radio"
              name={`${id}-missed`}
              value={policy}
              checked={missed === policy}
              onChange={() => setMissed(policy)}
            />{' '}
            {missedPolicyLabels[policy]}
          </label>
        ))}
      </fieldset>
      <ErrorNotice message={problem} />
      <p role="status">{done ?? ''}</p>
      <button type="submit" className="button">
        Add the schedule
      </button>
    </form>
  );
}
