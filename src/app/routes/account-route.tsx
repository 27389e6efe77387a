import { PageShell } from '../layout/page-shell';
import { AccountPage } from '../../features/account/components/account-page';
import { RoleGate } from '../layout/role-gate';

/** /account: a QA engineer's or admin's personal API tokens (admins: everyone's too). */
export default function AccountRoute() {
  return (
    <RoleGate needs="qa">
      <title>Account · VMS submission portal</title>
      <AccountPage />
    </RoleGate>
  );
}

/** The page before the app runs: its heading. */
export function Shell() {
  return <PageShell heading="Account" needs="qa" />;
}
