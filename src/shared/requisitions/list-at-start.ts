import { chosenOrgStore } from '@/shared/config/client-org';
import { chosenConnectionStore, settleConnection } from '@/shared/config/current-connection';
import { settingsInPage } from '@/shared/config/portal-config';
import { listRequestFrom } from './list-request';
import type { SyncRequest } from './sync';

/**
 * The requisition list this page will ask for, known as its code arrives, before it renders
 * (listRequestFrom, with the settings in the page and this browser's choices). The page's
 * connection is settled with it, as the app's first render will settle it.
 */
export function listRequestAtStart(): { request: SyncRequest; connection: string | null } | null {
  const config = settingsInPage();
  if (!config) return null;
  const first = listRequestFrom(config, {
    connection: chosenConnectionStore.get(),
    clientOrg: chosenOrgStore.get(),
  });
  if (first) {
    settleConnection(
      config.connections.map(({ name }) => name),
      config.defaultConnection,
      null,
    );
  }
  return first;
}
