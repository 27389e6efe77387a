import { SettingsPage } from '../../features/settings/components/settings-page';

export default function SettingsRoute() {
  return (
    <>
      <title>Settings · VMS submission portal</title>
      <SettingsPage />
    </>
  );
}
