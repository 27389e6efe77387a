import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useId, useState } from 'react';
import { Link } from 'react-router';
import { startRun, suiteRunQueryOptions, suitesKey } from '@/core/suites/api/suites';
import { connectionLabel, usableConnections } from '@/domain/portal-config';
import { suiteRunPath } from '@/domain/suite-run';
import { errorMessage } from '@/shared/api/http';
import { currentConnection } from '@/shared/config/current-connection';
import { useOrg } from '@/shared/config/org-context';
import { countOf } from '@/shared/lib/format';
import { useSessionUser } from '@/shared/session/session';
import { ConfirmDialog } from '@/shared/ui/confirm-dialog';
import { ErrorNotice } from '@/shared/ui/error-notice';
import { RunOutcome } from './run-outcome';

/**
 * Runs the suite's latest saved version on a connection the user may use (this page's, or one
 * chosen), for the header's client org when that connection serves it; the run goes on on the
 * server (decision 038) and its progress shows here as it goes. A production connection asks
 * first, as a send there does.
 */
export function RunPanel({ suiteId, latestVersion }: { suiteId: number; latestVersion: number }) {
  const { config, clientOrgId } = useOrg();
  const user = useSessionUser();
  const queryClient = useQueryClient();
  const id = useId();
  const usable = usableConnections(config, user?.connections ?? null);
  const [chosen, setChosen] = useState(
    () => usable.find((entry) => entry.name === currentConnection())?.name ?? usable[0]?.name ?? '',
  );
  const connection = usable.find((entry) => entry.name === chosen) ?? null;
  const [runId, setRunId] = useState<number | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [confirming, setConfirming] = useState(false);
  const [starting, setStarting] = useState(false);
  const run = useQuery({ ...suiteRunQueryOptions(runId ?? 0), enabled: runId !== null });
  const ended = run.data !== undefined && run.data.status !== 'running';

  // The runs list and the suites' last runs change when a run ends.
  useEffect(() => {
    if (ended) void queryClient.invalidateQueries({ queryKey: suitesKey });
  }, [ended, queryClient]);

  const start = async () => {
    setConfirming(false);
    if (!connection) return;
    setProblem(null);
    setRunId(null);
    setStarting(true);
    try {
      const started = await startRun({
        suiteId,
        connection: connection.name,
        ...(connection.clientOrgIds.includes(clientOrgId) ? { clientOrgId } : {}),
      });
      queryClient.setQueryData(suiteRunQueryOptions(started.id).queryKey, started);
      setRunId(started.id);
    } catch (error) {
      setProblem(errorMessage(error));
    } finally {
      setStarting(false);
    }
  };

  const current = run.data;
  return (
    <section aria-labelledby={`${id}-run`} className="suite-run-panel">
      <h2 id={`${id}-run`}>Run</h2>
      {usable.length === 0 ? (
        <p>Your account may use no VMS connection; ask an admin for one.</p>
      ) : (
        <div className="button-row">
          <div className="field">
            <label htmlFor={`${id}-connection`}>Connection</label>
            <select
              id={`${id}-connection`}
              value={chosen}
              onChange={(event) => setChosen(event.target.value)}
            >
              {usable.map((entry) => (
                <option key={entry.name} value={entry.name}>
                  {connectionLabel(entry)}
                </option>
              ))}
            </select>
          </div>
          <button
            type="button"
            className="button"
            disabled={starting || (current?.status === 'running' && !ended)}
            onClick={() => (connection?.production ? setConfirming(true) : void start())}
          >
            Run version {latestVersion}
          </button>
        </div>
      )}
      <ErrorNotice message={problem} />
      {current ? (
        <div className="suite-run-progress">
          <progress
            max={Math.max(1, current.casesTotal)}
            value={current.casesDone}
            aria-labelledby={`${id}-progress`}
          />
          <p id={`${id}-progress`} role="status">
            Run #{current.id}:{' '}
            {current.status === 'running'
              ? `${current.casesDone} of ${countOf(current.casesTotal, 'case', 'cases')} done, ${current.failed} failed`
              : current.status === 'interrupted'
                ? `interrupted after ${current.casesDone} of ${countOf(current.casesTotal, 'case', 'cases')}`
                : `finished: ${current.passed} passed, ${current.failed} failed`}
          </p>
          <p>
            <RunOutcome run={current} />{' '}
            <Link to={suiteRunPath(current.id, suiteId)}>Open run #{current.id}</Link>
          </p>
        </div>
      ) : null}
      {connection?.production ? (
        <ConfirmDialog
          open={confirming}
          title={`Run the suite on ${connection.label}, a production VMS?`}
          confirmLabel={`Run on ${connection.label}`}
          destructive
          onConfirm={() => void start()}
          onCancel={() => setConfirming(false)}
        >
          <p>
            Its cases are sent to <strong>{connection.label}</strong> as batches, where they reach
            the client for real.
          </p>
        </ConfirmDialog>
      ) : null}
    </section>
  );
}
