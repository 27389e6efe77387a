import { SettingsPage, settingsHeading } from '../../features/settings/components/settings-page';
import { PageShell } from '../layout/page-shell';

export default function SettingsRoute() {
  return (
    <>
      <title>{`${settingsHeading} · VMS submission portal`}</title>
      <SettingsPage />
    </>
  );
}

export function Shell() {
  return <PageShell heading={settingsHeading} />;
}
