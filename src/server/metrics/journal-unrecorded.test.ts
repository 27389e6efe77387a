import { afterEach, describe, expect, it } from 'vitest';
import { CallJournal, type CallToRecord } from '@/server/journal/call-journal';
import { acceptedImport } from '@/test-support/journal-calls';
import {
  openJournalTestDatabase,
  type JournalTestDatabase,
} from '@/test-support/journal-test-database';
import { PortalMetrics } from './portal-metrics';
import { parseScrape, sampleValue } from './scrape-text';

let database: JournalTestDatabase | null = null;

afterEach(async () => {
  await database?.close();
  database = null;
});

function call(requestBody: Buffer): CallToRecord {
  return {
    at: Date.now(),
    ...acceptedImport,
    url: null,
    latencyMs: 3,
    requestBody,
    responseBody: Buffer.from('{"batchid":"rb_1","received":1}'),
    responseHeaders: {},
    signature: null,
  };
}

async function unrecorded(metrics: PortalMetrics): Promise<number | undefined> {
  return sampleValue(
    parseScrape((await metrics.scrape()).body),
    'vms_portal_journal_unrecorded_total',
  );
}

describe('vms_portal_journal_unrecorded_total', () => {
  it('counts the calls a full database kept the journal from writing, and keeps counting after', async () => {
    database = await openJournalTestDatabase('sqlite', () => {
      throw new Error('SQLite only');
    });
    const journal = await CallJournal.open({
      store: await database.open(),
      settings: {
        enabled: true,
        retentionMs: 86_400_000,
        maxBytes: 1 << 30,
        bodyLimitBytes: 1 << 20,
      },
      secrets: [],
      log: { error: () => {}, warn: () => {}, info: () => {} },
    });
    const metrics = new PortalMetrics({ defaultConnection: 'default' });
    metrics.setSources({ journalUnrecorded: () => journal.unrecordedCalls });

    journal.record(call(Buffer.from('[{"titlerole":"Welder"}]')));
    await journal.flush();
    expect(await unrecorded(metrics)).toBe(0);

    // No room for another page: the next two calls, each with a body of its own, are not written.
    const pages = Number(database.sqlite?.pragma('page_count', { simple: true }));
    database.sqlite?.pragma(`max_page_count = ${pages}`);
    for (const n of [1, 2]) {
      journal.record(call(Buffer.from(JSON.stringify([{ notes: `${n}`.repeat(100_000) }]))));
      await journal.flush();
    }
    expect(await unrecorded(metrics)).toBe(2);

    database.sqlite?.pragma('max_page_count = 1073741823');
    journal.record(call(Buffer.from('[{"titlerole":"Fitter"}]')));
    await journal.flush();
    expect(await unrecorded(metrics)).toBe(2);
    await journal.close();
  });
});
