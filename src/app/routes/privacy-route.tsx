import { gatedRoute } from '@/app/layout/gated-route';
import { PrivacyPage, privacyHeading } from '@/features/privacy/components/privacy-page';

/** /privacy: one person's data found, exported and erased, for admins. */
const route = gatedRoute({
  needs: 'admin',
  heading: privacyHeading,
  title: privacyHeading,
  page: () => <PrivacyPage />,
});

export default route.Page;
/** The page before the app runs: its heading. */
export const Shell = route.Shell;
