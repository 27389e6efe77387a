import { PageShell } from '@/app/layout/page-shell';
import { RoleGate } from '@/app/layout/role-gate';
import {
  ConnectionsPage,
  connectionsHeading,
} from '@/features/settings/components/connections-page';

/** /connections: admins check the VMS connection; anyone else is told it is not theirs. */
export default function ConnectionsRoute() {
  return (
    <RoleGate needs="admin">
      <ConnectionsPage />
    </RoleGate>
  );
}

export function Shell() {
  return <PageShell heading={connectionsHeading} needs="admin" />;
}
