import { gatedRoute } from '@/app/layout/gated-route';
import { AccountPage } from '@/features/account/components/account-page';

/** /account: a QA engineer's or admin's personal API tokens (admins: everyone's too). */
const route = gatedRoute({
  needs: 'qa',
  heading: 'Account',
  title: 'Account',
  page: () => <AccountPage />,
});

export default route.Page;
/** The page before the app runs: its heading. */
export const Shell = route.Shell;
