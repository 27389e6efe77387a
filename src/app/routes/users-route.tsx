import { UsersPage } from '../../features/account/components/users-page';

/** /users: admins manage who may use the portal (issue 15). */
export default function UsersRoute() {
  return <UsersPage />;
}
