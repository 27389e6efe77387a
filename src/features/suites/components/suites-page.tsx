import { useQuery, useQueryClient } from '@tanstack/react-query';
import type { ChangeEvent } from 'react';
import { useId, useState } from 'react';
import { Link, useNavigate } from 'react-router';
import {
  createSuite,
  fileRunsQueryOptions,
  readSuiteFile,
  suitesKey,
  suitesQueryOptions,
} from '@/core/suites/api/suites';
import { suiteRunPath } from '@/domain/suite-run';
import { errorMessage } from '@/shared/api/http';
import { formatDateTime } from '@/shared/lib/format';
import { ListStatus } from '@/shared/ui/list-status';
import { RunOutcome } from './run-outcome';

/**
 * /suites: the team's QA suites (decision 038), each with its cases, its version and its last
 * run; a suite file imported as a new suite. Suites are started where QA already is: "Save as
 * cases" on a journal call, the batch, an import, a composed call.
 */
export function SuitesPage() {
  const suites = useQuery(suitesQueryOptions());
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const id = useId();
  const [problem, setProblem] = useState<string | null>(null);

  const onImport = async (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    event.target.value = '';
    if (!file) return;
    setProblem(null);
    const read = await readSuiteFile(file);
    if ('problem' in read) {
      setProblem(read.problem);
      return;
    }
    const suite = read.suite;
    try {
      const created = await createSuite(suite);
      await queryClient.invalidateQueries({ queryKey: suitesKey });
      void navigate(`/suites/${created.id}`);
    } catch (error) {
      setProblem(errorMessage(error));
    }
  };

  const list = suites.data ?? [];
  return (
    <div className="page">
      <div className="page__header">
        <h1>Suites</h1>
        <div className="field">
          <label htmlFor={`${id}-import`}>Import a suite file</label>
          <input
            id={`${id}-import`}
            type="file"
            accept=".json,application/json"
            onChange={(event) => void onImport(event)}
          />
        </div>
      </div>
      <p className="page__lead">
        The team’s QA suites: cases, each an item and the outcome the VMS should give it, run on a
        connection and compared with the run before. Add cases with “Save as cases” on a call in the
        inspector, on the batch, on an import or on a composed call; or import a suite file.
      </p>
      {problem ? (
        <p role="alert" className="notice notice--error">
          {problem}
        </p>
      ) : null}
      <section aria-labelledby={`${id}-list`}>
        <h2 id={`${id}-list`}>All suites</h2>
        <ListStatus
          query={suites}
          count={list.length}
          one="suite"
          many="suites"
          reading="Loading the suites…"
          empty="No suite yet."
        />
        {list.length > 0 ? (
          <table className="inspector__table">
            <thead>
              <tr>
                <th scope="col">Suite</th>
                <th scope="col">Cases</th>
                <th scope="col">Version</th>
                <th scope="col">Last saved</th>
                <th scope="col">Last run</th>
              </tr>
            </thead>
            <tbody>
              {list.map((suite) => (
                <tr key={suite.id}>
                  <td className="user-text">
                    <Link to={`/suites/${suite.id}`}>{suite.name}</Link>
                  </td>
                  <td>{suite.caseCount}</td>
                  <td>{suite.version}</td>
                  <td>
                    <time dateTime={suite.updatedAt}>{formatDateTime(suite.updatedAt)}</time>
                    {suite.updatedBy ? (
                      <span className="user-text"> by {suite.updatedBy.email}</span>
                    ) : null}
                  </td>
                  <td>
                    {suite.lastRun ? (
                      <Link to={suiteRunPath(suite.lastRun.id, suite.id)}>
                        <RunOutcome run={suite.lastRun} />
                      </Link>
                    ) : (
                      'Never run'
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        ) : null}
      </section>
      <FileRuns />
    </div>
  );
}

/**
 * The runs of suite files (`npm run suite -- run file.json`): kept like a stored suite's, but with
 * no suite page to list them, so they are listed here.
 */
function FileRuns() {
  const runs = useQuery(fileRunsQueryOptions());
  const id = useId();
  const list = runs.data ?? [];
  return (
    <section aria-labelledby={`${id}-file-runs`}>
      <h2 id={`${id}-file-runs`}>Runs of suite files</h2>
      <ListStatus
        query={runs}
        count={list.length}
        one="run"
        many="runs"
        reading="Loading the runs of suite files…"
        empty="No suite file has been run (npm run suite -- run file.json)."
      />
      {list.length > 0 ? (
        <table className="inspector__table">
          <thead>
            <tr>
              <th scope="col">Run</th>
              <th scope="col">Suite</th>
              <th scope="col">Started</th>
              <th scope="col">By</th>
              <th scope="col">Connection</th>
              <th scope="col">Outcome</th>
            </tr>
          </thead>
          <tbody>
            {list.map((run) => (
              <tr key={run.id}>
                <td>
                  <Link to={suiteRunPath(run.id)}>Run #{run.id}</Link>
                </td>
                <td className="user-text">{run.suiteName}</td>
                <td>
                  <time dateTime={run.startedAt}>
                    {formatDateTime(run.startedAt, { seconds: true })}
                  </time>
                </td>
                <td className="user-text">{run.startedBy?.email ?? '–'}</td>
                <td>{run.connection}</td>
                <td>
                  <RunOutcome run={run} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
    </section>
  );
}
