import { gatedRoute } from '@/app/layout/gated-route';
import { AuditPage, auditHeading } from '@/features/audit/components/audit-page';

/** /audit[?event=…&email=…]: who did what and when, for admins. */
const route = gatedRoute({
  needs: 'admin',
  heading: auditHeading,
  title: auditHeading,
  page: () => <AuditPage />,
});

export default route.Page;
/** The page before the app runs: its heading. */
export const Shell = route.Shell;
