import { gatedRoute } from '@/app/layout/gated-route';
import { SettingsPage, settingsHeading } from '@/features/settings/components/settings-page';

/** /settings: what the portal is set up for, the client org, what this browser keeps; for everyone. */
const route = gatedRoute({
  heading: settingsHeading,
  title: settingsHeading,
  page: () => <SettingsPage />,
});

export default route.Page;
/** The page before the app runs: its heading. */
export const Shell = route.Shell;
