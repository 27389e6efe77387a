import { Link } from 'react-router';
import { suiteRunPath, type SuiteRunSummary } from '@/domain/suite-run';
import { DataTable, type Column } from '@/shared/ui/data-table';
import { DateTime } from '@/shared/ui/date-time';
import { RunOutcome } from './run-outcome';

/**
 * Runs, the latest first, each opening its run page: a suite's own (with the version each ran,
 * `suiteId` set) or the runs of suite files (with the file's suite name, none of them stored).
 */
export function RunsTable({
  runs,
  suiteId,
}: {
  runs: readonly SuiteRunSummary[];
  /** The stored suite whose runs these are; without it, runs of suite files. */
  suiteId?: number;
}) {
  const columns: Column<SuiteRunSummary>[] = [
    {
      heading: 'Run',
      cell: (run) => <Link to={suiteRunPath(run.id, suiteId ?? null)}>Run #{run.id}</Link>,
    },
    ...(suiteId === undefined
      ? [
          {
            heading: 'Suite',
            className: 'user-text',
            cell: (run: SuiteRunSummary) => run.suiteName,
          },
        ]
      : []),
    { heading: 'Started', cell: (run) => <DateTime at={run.startedAt} seconds /> },
    { heading: 'By', className: 'user-text', cell: (run) => run.startedBy?.email ?? '–' },
    { heading: 'Connection', cell: (run) => run.connection },
    ...(suiteId === undefined
      ? []
      : [{ heading: 'Version', cell: (run: SuiteRunSummary) => run.suiteVersion ?? '–' }]),
    { heading: 'Outcome', cell: (run) => <RunOutcome run={run} /> },
  ];
  return <DataTable rows={runs} columns={columns} rowKey={(run) => run.id} />;
}
