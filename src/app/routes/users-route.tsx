import { PageShell } from '@/app/layout/page-shell';
import { RoleGate } from '@/app/layout/role-gate';
import { UsersPage, usersHeading } from '@/features/account/components/users-page';

/** /users: admins manage who may use the portal; anyone else is told it is not theirs. */
export default function UsersRoute() {
  return (
    <RoleGate needs="admin">
      <UsersPage />
    </RoleGate>
  );
}

export function Shell() {
  return <PageShell heading={usersHeading} needs="admin" />;
}
