import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { createSuite, fileRunsQueryOptions, suitesQueryOptions } from '@/core/suites/api/suites';
import type { Suite } from '@/domain/suite';
import { suiteRunPath, type SuiteSummary } from '@/domain/suite-run';
import { useSuitesChange } from '@/features/suites/model/use-suites-change';
import { DataTable, type Column } from '@/shared/ui/data-table';
import { DateTime } from '@/shared/ui/date-time';
import { ErrorNotice } from '@/shared/ui/error-notice';
import { ListSection } from '@/shared/ui/list-section';
import { RunOutcome } from './run-outcome';
import { RunsTable } from './runs-table';
import { SuiteFileField } from './suite-file-field';

/**
 * /suites: the team's QA suites (decision 038), each with its cases, its version and its last
 * run; a suite file imported as a new suite. Suites are started where QA already is: "Save as
 * cases" on a journal call, the batch, an import, a composed call.
 */
export function SuitesPage() {
  const suites = useQuery(suitesQueryOptions());
  const navigate = useNavigate();
  const [problem, setProblem] = useState<string | null>(null);

  const change = useSuitesChange(setProblem);

  const onRead = (suite: Suite) =>
    change(
      () => createSuite(suite),
      (created) => void navigate(`/suites/${created.id}`),
    );

  const list = suites.data ?? [];
  return (
    <div className="page">
      <div className="page__header">
        <h1>Suites</h1>
        <SuiteFileField
          label="Import a suite file"
          onChoose={() => setProblem(null)}
          onProblem={setProblem}
          onRead={onRead}
        />
      </div>
      <p className="page__lead">
        The team’s QA suites: cases, each an item and the outcome the VMS should give it, run on a
        connection and compared with the run before. Add cases with “Save as cases” on a call in the
        inspector, on the batch, on an import or on a composed call; or import a suite file.
      </p>
      <ErrorNotice message={problem} />
      <ListSection
        heading="All suites"
        query={suites}
        count={list.length}
        one="suite"
        many="suites"
        reading="Loading the suites…"
        empty="No suite yet."
      >
        <DataTable rows={list} columns={suiteColumns} rowKey={(suite) => suite.id} />
      </ListSection>
      <FileRuns />
    </div>
  );
}

const suiteColumns: readonly Column<SuiteSummary>[] = [
  {
    heading: 'Suite',
    className: 'user-text',
    cell: (suite) => <Link to={`/suites/${suite.id}`}>{suite.name}</Link>,
  },
  { heading: 'Cases', cell: (suite) => suite.caseCount },
  { heading: 'Version', cell: (suite) => suite.version },
  {
    heading: 'Last saved',
    cell: (suite) => (
      <>
        <DateTime at={suite.updatedAt} />
        {suite.updatedBy ? <span className="user-text"> by {suite.updatedBy.email}</span> : null}
      </>
    ),
  },
  {
    heading: 'Last run',
    cell: (suite) =>
      suite.lastRun ? (
        <Link to={suiteRunPath(suite.lastRun.id, suite.id)}>
          <RunOutcome run={suite.lastRun} />
        </Link>
      ) : (
        'Never run'
      ),
  },
];

/**
 * The runs of suite files (`npm run suite -- run file.json`): kept like a stored suite's, but with
 * no suite page to list them, so they are listed here.
 */
function FileRuns() {
  const runs = useQuery(fileRunsQueryOptions());
  const list = runs.data ?? [];
  return (
    <ListSection
      heading="Runs of suite files"
      query={runs}
      count={list.length}
      one="run"
      many="runs"
      reading="Loading the runs of suite files…"
      empty="No suite file has been run (npm run suite -- run file.json)."
    >
      <RunsTable runs={list} />
    </ListSection>
  );
}
