import { gatedRoute } from '@/app/layout/gated-route';
import { UsersPage, usersHeading } from '@/features/account/components/users-page';

/** /users: admins manage who may use the portal; anyone else is told it is not theirs. */
const route = gatedRoute({ needs: 'admin', heading: usersHeading, page: () => <UsersPage /> });

export default route.Page;
/** The page before the app runs: its heading. */
export const Shell = route.Shell;
