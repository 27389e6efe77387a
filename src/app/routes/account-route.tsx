import { PageShell } from '@/app/layout/page-shell';
import { RoleGate } from '@/app/layout/role-gate';
import { AccountPage } from '@/features/account/components/account-page';

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
