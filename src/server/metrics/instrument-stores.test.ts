import { describe, expect, it } from 'vitest';
import { storeTimer } from './instrument-stores';
import { PortalMetrics } from './portal-metrics';
import { parseScrape, sampleValue } from './scrape-text';

/** A store as the real ones may be: a class with private state its methods reach through `this`. */
class CountingStore {
  #calls = 0;
  async insertInFlight(key: string): Promise<boolean> {
    this.#calls += 1;
    return key !== 'taken';
  }
  async find(): Promise<never> {
    throw new Error('database is locked');
  }
  count(): number {
    return this.#calls;
  }
  broken(): never {
    throw new Error('not prepared');
  }
}

async function durationCount(metrics: PortalMetrics, store: string, operation: string) {
  const scrape = parseScrape((await metrics.scrape()).body);
  return {
    calls: sampleValue(scrape, 'vms_portal_db_query_duration_seconds_count', { store, operation }),
    errors: sampleValue(scrape, 'vms_portal_db_query_errors_total', { store, operation }),
  };
}

describe('storeTimer', () => {
  it('passes calls through unchanged, `this`, results and errors included, and times each', async () => {
    const metrics = new PortalMetrics({ defaultConnection: 'default' });
    const store = new CountingStore();
    const timed = storeTimer(metrics)('idempotencyKeys', store);

    expect(await timed.insertInFlight('new')).toBe(true);
    expect(await timed.insertInFlight('taken')).toBe(false);
    expect(timed.count()).toBe(2);
    await expect(timed.find()).rejects.toThrow('database is locked');
    expect(() => timed.broken()).toThrow('not prepared');
    expect(timed.insertInFlight).toBe(timed.insertInFlight);

    expect(await durationCount(metrics, 'idempotencyKeys', 'insertInFlight')).toEqual({
      calls: 2,
      errors: undefined,
    });
    expect(await durationCount(metrics, 'idempotencyKeys', 'find')).toEqual({
      calls: 1,
      errors: 1,
    });
    expect(await durationCount(metrics, 'idempotencyKeys', 'broken')).toEqual({
      calls: 1,
      errors: 1,
    });
    // A claimed key is a send let through; a key already there is not.
    const scrape = parseScrape((await metrics.scrape()).body);
    expect(
      sampleValue(scrape, 'vms_portal_idempotency_outcomes_total', { outcome: 'forwarded' }),
    ).toBe(1);
  });

  it("counts the journal's writes and prunes", async () => {
    const metrics = new PortalMetrics({ defaultConnection: 'default' });
    const store = {
      write: async (records: unknown[], late: unknown[]) => records.map((_, i) => i + late.length),
      pruneReceivedBefore: async () => 7,
      pruneOldest: async () => 3,
    };
    const journal = storeTimer(metrics)('journal', store);
    await journal.write([{}, {}], [{}]);
    await journal.pruneReceivedBefore();
    await journal.pruneOldest();
    const scrape = parseScrape((await metrics.scrape()).body);
    expect(sampleValue(scrape, 'vms_portal_journal_writes_total')).toBe(3);
    expect(sampleValue(scrape, 'vms_portal_journal_pruned_total')).toBe(10);
    // The journal's calls count among every store's pruned rows too.
    expect(sampleValue(scrape, 'vms_portal_retention_pruned_total', { store: 'journal' })).toBe(10);
  });
});
