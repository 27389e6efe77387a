import { useParams } from 'react-router';
import { RoleGate } from '@/app/layout/role-gate';
import { SuiteRunPage } from '@/features/suites/components/suite-run-page';
import { PageLoading } from '@/shared/ui/page-loading';
import NotFoundRoute from './not-found-route';

/** /suites/:id/runs/:runId and /suites/runs/:runId: one run of a QA suite, for QA and admins. */
export default function SuiteRunRoute() {
  const runId = Number(useParams().runId);
  if (!Number.isInteger(runId) || runId <= 0) return <NotFoundRoute />;
  return (
    <RoleGate needs="qa">
      <SuiteRunPage runId={runId} />
    </RoleGate>
  );
}

/** The page before the app runs: its heading is the suite's name, which only the app reads. */
export const Shell = PageLoading;
