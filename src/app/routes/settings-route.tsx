import { PageShell } from '@/app/layout/page-shell';
import { SettingsPage, settingsHeading } from '@/features/settings/components/settings-page';

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
