import { useParams } from 'react-router';
import { RoleGate } from '@/app/layout/role-gate';
import { SuitePage } from '@/features/suites/components/suite-page';
import { PageLoading } from '@/shared/ui/page-loading';
import NotFoundRoute from './not-found-route';

/** /suites/:id[?version=]: one QA suite, for QA and admins. */
export default function SuiteRoute() {
  const id = Number(useParams().id);
  if (!Number.isInteger(id) || id <= 0) return <NotFoundRoute />;
  return (
    <RoleGate needs="qa">
      <SuitePage id={id} />
    </RoleGate>
  );
}

/** The page before the app runs: its heading is the suite's name, which only the app reads. */
export const Shell = PageLoading;
