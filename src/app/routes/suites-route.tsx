import { gatedRoute } from '@/app/layout/gated-route';
import { SuitesPage } from '@/features/suites/components/suites-page';

/** /suites: the team's QA suites, for QA and admins. */
const route = gatedRoute({
  needs: 'qa',
  heading: 'Suites',
  title: 'Suites',
  page: () => <SuitesPage />,
});

export default route.Page;
/** The page before the app runs: its heading. */
export const Shell = route.Shell;
