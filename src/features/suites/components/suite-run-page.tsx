import { useQuery } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { Link } from 'react-router';
import { runJsonHref, runJunitHref, suiteRunQueryOptions } from '@/core/suites/api/suites';
import type { SuiteCase } from '@/domain/suite-cases';
import {
  caseVerdictLabels,
  caseVerdicts,
  type CaseResult,
  suiteRunPath,
  type SuiteRun,
} from '@/domain/suite-run';
import { currentConnection } from '@/shared/config/current-connection';
import { countOf, formatDateTime } from '@/shared/lib/format';
import { CheckboxLabel } from '@/shared/ui/checkbox';
import { StatusBadge } from '@/shared/ui/status-badge';
import { NotRead } from './not-read';
import { RunOutcome, verdictTone } from './run-outcome';

function Expected({ expect }: { expect: SuiteCase['expect'] }) {
  return (
    <>
      <strong>{expect.status}</strong>
      {expect.field ? <div>naming {expect.field}</div> : null}
      {expect.message ? (
        <div className="user-text">
          matching <code>/{expect.message}/</code>
        </div>
      ) : null}
    </>
  );
}

function Actual({ actual }: { actual: CaseResult['actual'] }) {
  if (!actual) return <>No answer</>;
  return (
    <>
      <strong>{actual.status}</strong>
      {actual.message ? <div className="user-text">{actual.message}</div> : null}
      {actual.createdId ? <div>id {actual.createdId}</div> : null}
    </>
  );
}

/** Why a run stopped short, or how it compares: the lines above its cases. */
function Summary({ run }: { run: SuiteRun }) {
  return (
    <dl className="facts">
      <div>
        <dt>Suite</dt>
        <dd className="user-text">
          {run.suiteId ? <Link to={`/suites/${run.suiteId}`}>{run.suiteName}</Link> : run.suiteName}
          {run.suiteVersion ? `, version ${run.suiteVersion}` : ', a file sent with the run'}
        </dd>
      </div>
      <div>
        <dt>Connection</dt>
        <dd>
          {run.connection}, client org {run.clientOrgId}
        </dd>
      </div>
      <div>
        <dt>Started</dt>
        <dd>
          <time dateTime={run.startedAt}>{formatDateTime(run.startedAt, { seconds: true })}</time>
          {run.startedBy ? <span className="user-text"> by {run.startedBy.email}</span> : null}
        </dd>
      </div>
      <div>
        <dt>Took</dt>
        <dd>
          {run.durationMs === null ? 'still going' : `${(run.durationMs / 1000).toFixed(1)} s`},{' '}
          {countOf(run.batches, 'batch', 'batches')}
        </dd>
      </div>
      <div>
        <dt>Values of this run</dt>
        <dd>
          <code>{run.runToken}</code> ({'{{run.id}}'})
        </dd>
      </div>
    </dl>
  );
}

/**
 * /suites/:id/runs/:runId: one run (decision 038): each case passed or failed, what it expected
 * beside what the VMS answered, and how it compares with the run before; its JUnit XML and JSON
 * report; its calls in the inspector. Read again every second while the run goes.
 */
export function SuiteRunPage({ runId }: { runId: number }) {
  const query = useQuery(suiteRunQueryOptions(runId));
  const id = useId();
  const [onlyChanged, setOnlyChanged] = useState(false);

  if (query.isPending)
    return (
      <p className="page" aria-busy="true">
        Loading run #{runId}…
      </p>
    );
  if (query.isError) return <NotRead heading={`Run #${runId}`} error={query.error} />;
  const run = query.data;
  const shown = onlyChanged
    ? run.cases.filter((entry) => !entry.passed || entry.verdict === 'fixed')
    : run.cases;
  const elsewhere = currentConnection() !== null && currentConnection() !== run.connection;
  return (
    <div className="page suite-run-page">
      <title>{`Run #${run.id} of ${run.suiteName} · VMS submission portal`}</title>
      <p>
        {run.suiteId ? (
          <Link to={`/suites/${run.suiteId}`}>Back to {run.suiteName}</Link>
        ) : (
          <Link to="/suites">All suites</Link>
        )}
      </p>
      <div className="page__header">
        <h1>
          Run #{run.id} of <span className="user-text">{run.suiteName}</span>
        </h1>
        <div className="button-row">
          <a className="button button--secondary" href={runJunitHref(run.id)} download>
            Download JUnit XML
          </a>
          <a
            className="button button--secondary"
            href={runJsonHref(run.id)}
            download={`suite-run-${run.id}.json`}
          >
            Download the JSON report
          </a>
        </div>
      </div>
      <p role="status" className="page__lead">
        <RunOutcome run={run} />{' '}
        {run.status === 'running'
          ? `${run.casesDone} of ${countOf(run.casesTotal, 'case', 'cases')} done so far.`
          : run.status === 'interrupted'
            ? `Interrupted after ${run.casesDone} of ${countOf(run.casesTotal, 'case', 'cases')}: ${run.interruption ?? 'the portal stopped'}.`
            : `${run.passed} passed, ${run.failed} failed.`}
      </p>
      <Summary run={run} />
      {run.verdicts ? (
        <section aria-labelledby={`${id}-comparison`}>
          <h2 id={`${id}-comparison`}>Against the run before</h2>
          <p>
            {run.previousRunId ? (
              <>
                Compared with{' '}
                <Link to={suiteRunPath(run.previousRunId, run.suiteId)}>
                  run #{run.previousRunId}
                </Link>
                , the latest finished run of this suite on {run.connection}:
              </>
            ) : (
              `No earlier finished run of this suite on ${run.connection}: every case is new.`
            )}
          </p>
          <ul className="suite-verdicts">
            {caseVerdicts.map((verdict) => (
              <li key={verdict}>
                <StatusBadge tone={verdictTone[verdict]}>{caseVerdictLabels[verdict]}</StatusBadge>{' '}
                {run.verdicts?.[verdict] ?? 0}
              </li>
            ))}
          </ul>
        </section>
      ) : null}
      <section aria-labelledby={`${id}-cases`}>
        <h2 id={`${id}-cases`}>Cases</h2>
        <p>
          <Link to={`/inspector?run=${run.id}`}>The run’s calls in the inspector</Link>
          {elsewhere
            ? ` (they are on ${run.connection}: switch the page to that connection to see them)`
            : ''}
        </p>
        <CheckboxLabel checked={onlyChanged} onChange={setOnlyChanged}>
          Only cases that failed or were fixed
        </CheckboxLabel>
        {shown.length === 0 ? (
          <p>{run.cases.length === 0 ? 'No case has a result yet.' : 'Every case passed.'}</p>
        ) : (
          <div className="table-scroll" role="region" aria-label="Cases of the run" tabIndex={0}>
            <table className="inspector__table suite-run-cases">
              <thead>
                <tr>
                  <th scope="col">Case</th>
                  <th scope="col">Result</th>
                  <th scope="col">Against the run before</th>
                  <th scope="col">Expected</th>
                  <th scope="col">Actual</th>
                </tr>
              </thead>
              <tbody>
                {shown.map((entry) => (
                  <tr key={entry.id}>
                    <th scope="row" className="user-text">
                      {entry.name}
                      <div className="inspector__flag">
                        {entry.id} · {entry.kind}
                        {entry.batchId ? ` · batch ${entry.batchId}` : ''}
                      </div>
                    </th>
                    <td>
                      <StatusBadge tone={entry.passed ? 'success' : 'error'}>
                        {entry.passed ? 'Passed' : 'Failed'}
                      </StatusBadge>
                      {/* A different status shows in Expected and Actual; anything else says why. */}
                      {entry.failure && entry.actual?.status === entry.expected.status ? (
                        <div className="user-text">{entry.failure}</div>
                      ) : null}
                      {entry.failure && !entry.actual ? (
                        <div className="user-text">{entry.failure}</div>
                      ) : null}
                    </td>
                    <td>
                      {entry.verdict ? (
                        <StatusBadge tone={verdictTone[entry.verdict]}>
                          {caseVerdictLabels[entry.verdict]}
                        </StatusBadge>
                      ) : (
                        '–'
                      )}
                    </td>
                    <td>
                      <Expected expect={entry.expected} />
                    </td>
                    <td>
                      <Actual actual={entry.actual} />
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </section>
    </div>
  );
}
