import type { FastifyBaseLogger } from 'fastify';
import type { PortalConfig } from '../config';
import { createJournalStore } from '../store/journal-calls';
import type { PortalDatabase } from '../store/portal-database';
import { CallJournal } from './call-journal';

/**
 * The call journal on the portal's database, or null when JOURNAL=off. Its log lines carry a
 * reason and a count at most, never a body, so they go through the app's logger as they are.
 */
export async function openCallJournal(
  database: Promise<PortalDatabase>,
  config: PortalConfig,
  log: FastifyBaseLogger,
  onHealth: (problem: string | null) => void,
): Promise<CallJournal | null> {
  if (!config.journal.enabled) return null;
  const { db } = await database;
  return CallJournal.open({
    store: createJournalStore(db),
    settings: config.journal,
    secrets: [config.apiKey, config.apiSecret],
    log,
    onHealth,
  });
}
