import type { FastifyBaseLogger } from 'fastify';
import type { PortalConfig } from '../config';
import type { PortalStores } from '../store/portal-stores';
import { CallJournal } from './call-journal';

/**
 * The call journal on the portal's database, or null when JOURNAL=off. Its log lines carry a
 * reason and a count at most, never a body, so they go through the app's logger as they are.
 */
export async function openCallJournal(
  database: Promise<PortalStores>,
  config: PortalConfig,
  log: FastifyBaseLogger,
  onHealth: (problem: string | null) => void,
): Promise<CallJournal | null> {
  if (!config.journal.enabled) return null;
  const stores = await database;
  return CallJournal.open({
    store: stores.journal,
    settings: config.journal,
    // Every connection's: a call to one may echo any of them (a shared VMS, a shared secret).
    secrets: config.connections.flatMap((connection) => [connection.apiKey, connection.apiSecret]),
    log,
    setting: stores.setting,
    onHealth,
  });
}
