import { PageShell } from '@/app/layout/page-shell';
import { RoleGate } from '@/app/layout/role-gate';
import { AuditPage, auditHeading } from '@/features/audit/components/audit-page';

/** /audit[?event=…&email=…]: who did what and when, for admins. */
export default function AuditRoute() {
  return (
    <RoleGate needs="admin">
      <title>{`${auditHeading} · VMS submission portal`}</title>
      <AuditPage />
    </RoleGate>
  );
}

export function Shell() {
  return <PageShell heading={auditHeading} needs="admin" />;
}
