import { z } from 'zod';
import type { PortalConfigResponse } from '@/domain/portal-config';
import { localStore, storageKey } from '@/shared/storage/local-store';

/** The client org chosen in this browser (the header's select). */
export const chosenOrgStore = localStore(
  storageKey('client-org'),
  z.number().int().nullable(),
  null,
);

/** The client org a page works for: the one chosen, unless the settings no longer allow it, then their first. */
export function clientOrgOf(
  config: Pick<PortalConfigResponse, 'clientOrgIds'>,
  chosen: number | null,
): number {
  return chosen !== null && config.clientOrgIds.includes(chosen)
    ? chosen
    : (config.clientOrgIds[0] ?? 0);
}
