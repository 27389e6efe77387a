import { clientOrgOf, settingsForConnection, settledConnection } from '@/domain/connection-choice';
import type { PortalConfigResponse } from '@/domain/portal-config';
import type { SyncRequest } from './sync';

/*
 * Loads no zod and no stores: the list's worker works out its first request with it as it starts
 * (first-load.ts), before the rest of its code has loaded.
 */

/** Which VMS a requisition list comes from (none known outside the app's provider). */
export function listSource(config: PortalConfigResponse | undefined): string {
  return config ? `${config.upstream.kind}:${config.upstream.label}` : 'unknown';
}

/**
 * The requisition list a page will ask for first, from the settings in the page and the choices
 * kept in the browser, by the rules the app's first render follows: the connection as
 * SessionGate settles it without a user, the client org as OrgProvider reads it, the list's
 * source. Null with sign-in on (or when the settings do not say): the user's grants and the
 * browser's work are not known before the session is read.
 */
export function listRequestFrom(
  config: PortalConfigResponse,
  chosen: { connection: string | null; clientOrg: number | null },
): { request: SyncRequest; connection: string | null } | null {
  if (config.authRequired !== false) return null;
  const connection = settledConnection(
    config.connections.map(({ name }) => name),
    config.defaultConnection,
    null,
    chosen.connection,
  );
  const settings = connection === null ? config : settingsForConnection(config, connection);
  return {
    request: {
      orgs: {
        clientOrgId: clientOrgOf(settings, chosen.clientOrg),
        vendorOrgId: settings.vendorOrgId,
      },
      source: listSource(settings),
      mainHas: false,
      ...(settings.fullReadEvery ? { fullReadEvery: settings.fullReadEvery } : {}),
    },
    connection,
  };
}
