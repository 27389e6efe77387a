import { afterEach, describe, expect, it } from 'vitest';
import { openTestStores, type PortalStores } from '@/test-support/portal-stores';
import type { ScheduleFields } from './schedule-store';

// Suites' schedules' store (decision 057), the same cases on a real SQLite file and a real
// PostgreSQL.

const quinn = { userId: 'u-quinn', email: 'quinn@example.com' };
const t0 = Date.UTC(2026, 10, 2, 9);
const minute = 60_000;

const fields = (overrides: Partial<ScheduleFields> = {}): ScheduleFields => ({
  cron: '0 6 * * 1-5',
  timeZone: 'Europe/London',
  connection: 'default',
  clientOrgId: null,
  owner: quinn,
  notify: ['u-quinn', 'u-olga'],
  missed: 'run-once',
  enabled: true,
  stoppedReason: null,
  since: t0,
  ...overrides,
});

let stores: PortalStores;
afterEach(() => stores.close());

async function withSuite(kind: 'sqlite' | 'postgres') {
  stores = await openTestStores(kind, 'schedule-store-');
  const written = await stores.suites.createSuite(
    {
      name: 'Nightly',
      cases: [{ id: 'a', kind: 'requisition', item: {}, expect: { status: 'Success' } }],
    },
    quinn,
    t0,
  );
  if (written.kind !== 'saved') throw new Error(written.kind);
  return written.id;
}

describe.each(['sqlite', 'postgres'] as const)('the schedules store on %s', (kind) => {
  it('keeps a schedule as written and lists a suite’s, and the enabled ones', async () => {
    const suiteId = await withSuite(kind);
    const id = await stores.schedules.createSchedule(suiteId, fields(), t0);
    const stopped = await stores.schedules.createSchedule(
      suiteId,
      fields({ enabled: false, stoppedReason: 'by hand', missed: 'skip', clientOrgId: 1002 }),
      t0,
    );
    expect(await stores.schedules.getSchedule(id)).toEqual({
      id,
      suiteId,
      ...fields(),
      createdAt: t0,
      lastOccurrence: null,
      lastRunId: null,
    });
    expect((await stores.schedules.listSchedules({ suiteId })).map((entry) => entry.id)).toEqual([
      id,
      stopped,
    ]);
    expect(
      (await stores.schedules.listSchedules({ enabled: true })).map((entry) => entry.id),
    ).toEqual([id]);
    expect(await stores.schedules.getSchedule(stopped)).toMatchObject({
      enabled: false,
      stoppedReason: 'by hand',
      missed: 'skip',
      clientOrgId: 1002,
    });
  });

  it('gives an occurrence to its first taker only, and remembers the latest and its run', async () => {
    const suiteId = await withSuite(kind);
    const id = await stores.schedules.createSchedule(suiteId, fields(), t0);
    const first = t0 + minute;
    const takes = await Promise.all(
      [1, 2, 3, 4].map(() => stores.schedules.takeOccurrence(id, first, 'run', t0)),
    );
    expect(takes.filter(Boolean)).toHaveLength(1);
    const runId = await stores.suites.createRun({
      suiteId,
      suiteName: 'Nightly',
      suiteVersion: 1,
      connection: 'default',
      clientOrgId: 1001,
      vendorOrgId: 9001,
      runToken: 'ab12cd34',
      startedAt: first,
      startedBy: quinn,
      casesTotal: 1,
    });
    await stores.schedules.setOccurrenceRun(id, first, runId);
    expect(await stores.schedules.takeOccurrence(id, first + minute, 'skipped', t0)).toBe(true);
    expect(await stores.schedules.getSchedule(id)).toMatchObject({
      lastOccurrence: first + minute,
      lastRunId: null,
    });
    // A run still going is not to be told of; ended, it is, to one taker, until given back.
    expect(await stores.schedules.untold(10)).toEqual([]);
    await stores.suites.endRun(runId, {
      status: 'finished',
      interruption: null,
      cases: [],
      batches: 1,
      previousRunId: null,
      at: first + 1000,
    });
    expect(await stores.schedules.untold(10)).toEqual([
      { scheduleId: id, occurrence: first, runId },
    ]);
    const tellers = await Promise.all(
      [1, 2, 3].map(() => stores.schedules.takeTelling(id, first, t0)),
    );
    expect(tellers.filter(Boolean)).toHaveLength(1);
    expect(await stores.schedules.untold(10)).toEqual([]);
    await stores.schedules.releaseTelling(id, first);
    expect(await stores.schedules.untold(10)).toHaveLength(1);
    // The run before a later occurrence is the latest that made one, a skipped one passed over.
    expect(await stores.schedules.previousRunId(id, first + 2 * minute)).toBe(runId);
    expect(await stores.schedules.previousRunId(id, first)).toBeNull();
  });

  it('stops an enabled schedule once, saying why', async () => {
    const suiteId = await withSuite(kind);
    const id = await stores.schedules.createSchedule(suiteId, fields(), t0);
    expect(await stores.schedules.stopSchedule(id, 'its owner was disabled', t0)).toBe(true);
    expect(await stores.schedules.stopSchedule(id, 'again', t0)).toBe(false);
    expect(await stores.schedules.getSchedule(id)).toMatchObject({
      enabled: false,
      stoppedReason: 'its owner was disabled',
    });
  });

  it('removes a schedule with what it took, and a suite’s with the suite', async () => {
    const suiteId = await withSuite(kind);
    const one = await stores.schedules.createSchedule(suiteId, fields(), t0);
    const two = await stores.schedules.createSchedule(suiteId, fields(), t0);
    await stores.schedules.takeOccurrence(one, t0 + minute, 'run', t0);
    expect(await stores.schedules.deleteSchedule(one)).toBe(true);
    expect(await stores.schedules.deleteSchedule(one)).toBe(false);
    expect(await stores.schedules.listSchedules({ suiteId })).toHaveLength(1);
    expect(await stores.suites.deleteSuite(suiteId)).toBe(true);
    expect(await stores.schedules.getSchedule(two)).toBeUndefined();
  });
});
