import { AuditPage } from '../../features/audit/components/audit-page';
import { RoleGate } from '../layout/role-gate';

/** /audit[?event=…&email=…]: who did what and when, for admins. */
export default function AuditRoute() {
  return (
    <RoleGate needs="admin">
      <title>Audit trail · VMS submission portal</title>
      <AuditPage />
    </RoleGate>
  );
}
