import { gatedRoute } from '@/app/layout/gated-route';
import {
  ConnectionsPage,
  connectionsHeading,
} from '@/features/settings/components/connections-page';

/** /connections: admins check the VMS connection; anyone else is told it is not theirs. */
const route = gatedRoute({
  needs: 'admin',
  heading: connectionsHeading,
  page: () => <ConnectionsPage />,
});

export default route.Page;
/** The page before the app runs: its heading. */
export const Shell = route.Shell;
