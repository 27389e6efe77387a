import { PageShell } from '@/app/layout/page-shell';
import { RoleGate } from '@/app/layout/role-gate';
import { SuitesPage } from '@/features/suites/components/suites-page';

/** /suites: the team's QA suites, for QA and admins. */
export default function SuitesRoute() {
  return (
    <RoleGate needs="qa">
      <title>Suites · VMS submission portal</title>
      <SuitesPage />
    </RoleGate>
  );
}

/** The page before the app runs: its heading. */
export function Shell() {
  return <PageShell heading="Suites" needs="qa" />;
}
