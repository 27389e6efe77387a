import {
  ConnectionsPage,
  connectionsHeading,
} from '../../features/settings/components/connections-page';
import { PageShell } from '../layout/page-shell';
import { RoleGate } from '../layout/role-gate';

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
