import fp from 'fastify-plugin';
import type { PortalConfig } from '@/server/config';
import type { PortalDatabase } from '@/server/store/database';
import { CallJournal } from './call-journal';
import type { HoldNewCalls } from './journal-hold';
import { createJournalStore } from './store/journal-calls';
import type { JournalStore } from './store/journal-store';
import { createPostgresJournalStore } from './store/postgres/journal';

declare module 'fastify' {
  interface FastifyInstance {
    /**
     * The call journal (decision 025), open on the portal database, or null when JOURNAL=off:
     * the proxy records into it, the journal's API reads it.
     */
    journal: CallJournal | null;
  }
}

export interface JournalOptions {
  config: PortalConfig;
  /** When the proxy holds new calls for the journal to catch up (tests make it hold at once). */
  hold?: HoldNewCalls;
}

/**
 * Opens the call journal (retention runs once first) before the proxy that records into it and
 * the routes that read it; closed after the proxy, so the calls that end while it closes are
 * written too. Its log lines carry a reason and a count at most, never a body, so they go through
 * the app's logger as they are; a failing write is reported to /api/health.
 */
export const journalPlugin = fp<JournalOptions>(
  async (app, { config, hold }) => {
    if (!config.journal.enabled) {
      app.decorate('journal', null);
      return;
    }
    const { database, healthReports } = app;
    // Opened only with the journal on: nothing is prepared for it when JOURNAL=off.
    const store = openJournalStore(database);
    const journal = await CallJournal.open({
      store,
      settings: config.journal,
      // Every connection's: a call to one may echo any of them (a shared VMS, a shared secret).
      secrets: config.connections.flatMap((connection) => [
        connection.apiKey,
        connection.apiSecret,
      ]),
      log: app.log,
      setting: database.setting,
      onHealth: (problem) => healthReports.report('journal', problem),
      ...(hold ? { hold } : {}),
    });
    app.decorate('journal', journal);
    // The size is read through the store as opened, not timed: a scrape's reads are not the
    // portal's queries.
    const untimed = database.unwrapped(store);
    app.portalMetrics?.setSources({
      journalBacklog: () => journal.backlog,
      journalUnrecorded: () => journal.unrecordedCalls,
      journalHeld: () => journal.heldCalls,
      journalSize: async () => ({
        entries: await untimed.count(),
        bytes: await untimed.usedBytes(),
      }),
    });
    app.addHook('onClose', () => journal.close());
  },
  { name: 'journal', fastify: '5.x', dependencies: ['database', 'ops', 'metrics'] },
);

/** The journal's store on the portal database, as this plugin and the tests' stores open it. */
export function openJournalStore(database: PortalDatabase): JournalStore {
  return database.open('journal', {
    sqlite: createJournalStore,
    postgres: createPostgresJournalStore,
  });
}
