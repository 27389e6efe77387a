import { afterEach, describe, expect, it } from 'vitest';
import type { Suite } from '@/domain/suite';
import type { CaseResult } from '@/domain/suite-run';
import { openTestStores, type PortalStores } from '@/test-support/portal-stores';
import type { NewRun, SuiteStore } from './suite-store';

// QA suites' store (decision 038), the same cases on a real SQLite file and a real PostgreSQL.

const ada = { userId: 'u-ada', email: 'ada@example.com' };
const quinn = { userId: 'u-quinn', email: 'quinn@example.com' };
const t0 = Date.UTC(2026, 10, 2, 9);

const suite = (name: string, ids: string[]): Suite => ({
  name,
  cases: ids.map((id) => ({
    id,
    kind: 'requisition',
    item: { titlerole: id },
    expect: { status: 'Success' },
  })),
});

const result = (id: string, passed: boolean): CaseResult => ({
  id,
  name: id,
  kind: 'requisition',
  passed,
  expected: { status: 'Success' },
  actual: { status: passed ? 'Success' : 'Error', message: '', createdId: '' },
  failure: passed ? null : 'expected Success, got Error',
  batchId: 'rb_1',
  durationMs: 12,
  verdict: null,
});

const newRun = (overrides: Partial<NewRun> = {}): NewRun => ({
  suiteId: null,
  suiteName: 'file suite',
  suiteVersion: null,
  connection: 'default',
  clientOrgId: 1001,
  vendorOrgId: 9001,
  runToken: 'ab12cd34',
  startedAt: t0,
  startedBy: quinn,
  casesTotal: 2,
  ...overrides,
});

let stores: PortalStores;
afterEach(() => stores.close());

async function open(kind: 'sqlite' | 'postgres'): Promise<SuiteStore> {
  stores = await openTestStores(kind, 'suite-store-');
  return stores.suites;
}

describe.each(['sqlite', 'postgres'] as const)('the suite store on %s', (kind) => {
  it('keeps every version of a suite with who saved it and when, and refuses a save based on an old one', async () => {
    const store = await open(kind);
    const created = await store.createSuite(suite('Regression', ['a']), ada, t0);
    expect(created).toEqual({ kind: 'saved', id: expect.any(Number), version: 1 });
    const id = created.kind === 'saved' ? created.id : 0;
    expect(await store.saveSuite(id, 1, suite('Regression', ['a', 'b']), quinn, t0 + 1000)).toEqual(
      { kind: 'saved', id, version: 2 },
    );
    // Saved from version 1 again: version 2 is there now.
    expect(await store.saveSuite(id, 1, suite('Regression', ['c']), ada, t0 + 2000)).toEqual({
      kind: 'conflict',
      latestVersion: 2,
    });

    const latest = await store.getSuite(id);
    expect(latest).toMatchObject({
      name: 'Regression',
      version: 2,
      latestVersion: 2,
      savedBy: quinn,
    });
    expect(JSON.parse(latest?.body ?? '{}')).toEqual(suite('Regression', ['a', 'b']));
    const first = await store.getSuite(id, 1);
    expect(first).toMatchObject({ version: 1, latestVersion: 2, savedBy: ada, savedAt: t0 });
    expect(JSON.parse(first?.body ?? '{}')).toEqual(suite('Regression', ['a']));
    expect(await store.getSuite(id, 3)).toBeUndefined();

    expect(await store.suiteVersions(id)).toEqual([
      {
        version: 2,
        name: 'Regression',
        caseCount: 2,
        savedAt: new Date(t0 + 1000).toISOString(),
        savedBy: quinn,
      },
      {
        version: 1,
        name: 'Regression',
        caseCount: 1,
        savedAt: new Date(t0).toISOString(),
        savedBy: ada,
      },
    ]);
    expect(await store.listSuites()).toEqual([
      { id, name: 'Regression', version: 2, caseCount: 2, updatedAt: t0 + 1000, updatedBy: quinn },
    ]);
  });

  it('keeps names unique without regard to case, and finds a suite by its name', async () => {
    const store = await open(kind);
    const first = await store.createSuite(suite('Smoke', ['a']), ada, t0);
    const id = first.kind === 'saved' ? first.id : 0;
    expect(await store.createSuite(suite(' smoke', ['b']), ada, t0)).toEqual({
      kind: 'name_taken',
      id,
    });
    const other = await store.createSuite(suite('Nightly', ['b']), null, t0);
    const otherId = other.kind === 'saved' ? other.id : 0;
    // Renaming into another suite's name is refused; keeping one's own name is not.
    expect(await store.saveSuite(otherId, 1, suite('SMOKE', ['b']), null, t0)).toEqual({
      kind: 'name_taken',
      id,
    });
    expect((await store.saveSuite(id, 1, suite('Smoke', ['a', 'c']), null, t0)).kind).toBe('saved');
    expect(await store.suiteIdByName('NIGHTLY')).toBe(otherId);
    expect(await store.suiteIdByName('nothing')).toBeUndefined();
    expect((await store.listSuites()).map((entry) => entry.name)).toEqual(['Nightly', 'Smoke']);
    expect(await store.saveSuite(999_999, 1, suite('Gone', ['a']), null, t0)).toEqual({
      kind: 'missing',
    });
  });

  it('keeps a run’s progress and end, compares with the latest finished run before it of the same suite and connection', async () => {
    const store = await open(kind);
    const saved = await store.createSuite(suite('Regression', ['a', 'b']), ada, t0);
    const suiteId = saved.kind === 'saved' ? saved.id : 0;
    const stored = { suiteId, suiteName: 'Regression', suiteVersion: 1 };

    const first = await store.createRun(newRun(stored));
    await store.writeProgress(first, { cases: [result('a', true)], batches: 1, at: t0 + 100 });
    expect(await store.getRun(first)).toMatchObject({
      status: 'running',
      casesDone: 1,
      casesTotal: 2,
      passed: 1,
      batches: 1,
      startedBy: quinn,
      finishedAt: null,
    });
    const cases = [
      { ...result('a', true), verdict: 'new' as const },
      { ...result('b', false), verdict: 'new' as const },
    ];
    expect(
      await store.endRun(first, {
        status: 'finished',
        interruption: null,
        cases,
        batches: 1,
        previousRunId: null,
        at: t0 + 500,
      }),
    ).toBe(true);
    const ended = await store.getRun(first);
    expect(ended).toMatchObject({
      status: 'finished',
      passed: 1,
      failed: 1,
      casesDone: 2,
      durationMs: 500,
      finishedAt: new Date(t0 + 500).toISOString(),
      verdicts: { new: 2, passing: 0, fixed: 0, 'still-failing': 0, 'newly-failing': 0 },
    });
    expect(ended?.cases).toEqual(cases);
    // Ended once: a second end changes nothing.
    expect(
      await store.endRun(first, {
        status: 'interrupted',
        interruption: 'x',
        cases: [],
        batches: 0,
        previousRunId: null,
        at: t0 + 900,
      }),
    ).toBe(false);

    // A run on another connection, an interrupted one, and a suite file of the same name are
    // not what the next run of the suite on this connection is compared with.
    const elsewhere = await store.createRun(newRun({ ...stored, connection: 'uat' }));
    await store.endRun(elsewhere, {
      status: 'finished',
      interruption: null,
      cases: [],
      batches: 0,
      previousRunId: null,
      at: t0 + 600,
    });
    const cut = await store.createRun(newRun(stored));
    await store.endRun(cut, {
      status: 'interrupted',
      interruption: 'stopped',
      cases: [],
      batches: 0,
      previousRunId: null,
      at: t0 + 700,
    });
    const file = await store.createRun(newRun({ suiteName: 'Regression' }));
    const next = await store.createRun(newRun(stored));
    expect(await store.runState(next)).toEqual({ casesDone: 0, status: 'running' });
    expect(
      await store.previousRun({
        id: next,
        suiteId,
        suiteName: 'Regression',
        connection: 'default',
      }),
    ).toEqual({
      id: first,
      cases: [
        { id: 'a', passed: true },
        { id: 'b', passed: false },
      ],
    });
    expect(
      await store.previousRun({
        id: next,
        suiteId: null,
        suiteName: 'Regression',
        connection: 'default',
      }),
    ).toBeUndefined();
    expect(await store.hasRunning(suiteId)).toBe(true);

    expect((await store.listRuns({ suiteId, limit: 10 })).map((run) => run.id)).toEqual([
      next,
      cut,
      elsewhere,
      first,
    ]);
    expect((await store.listRuns({ limit: 2 })).map((run) => run.id)).toEqual([next, file]);
    // The runs of suite files alone: those with no stored suite.
    expect((await store.listRuns({ suiteId: null, limit: 10 })).map((run) => run.id)).toEqual([
      file,
    ]);
    expect((await store.latestRuns()).get(suiteId)?.id).toBe(next);
  });

  it('marks interrupted only the running runs whose heartbeat is older than asked', async () => {
    const store = await open(kind);
    const stale = await store.createRun(newRun({ startedAt: t0 }));
    const alive = await store.createRun(newRun({ startedAt: t0 }));
    await store.heartbeat([alive], t0 + 60_000);
    expect(await store.interruptStale(t0 + 30_000, 'the process died', t0 + 61_000)).toBe(1);
    expect(await store.getRun(stale)).toMatchObject({
      status: 'interrupted',
      interruption: 'the process died',
      finishedAt: new Date(t0 + 61_000).toISOString(),
    });
    expect((await store.getRun(alive))?.status).toBe('running');
  });

  it('deletes a suite with its versions and runs', async () => {
    const store = await open(kind);
    const saved = await store.createSuite(suite('Old', ['a']), ada, t0);
    const suiteId = saved.kind === 'saved' ? saved.id : 0;
    await store.saveSuite(suiteId, 1, suite('Old', ['a', 'b']), ada, t0);
    const run = await store.createRun(newRun({ suiteId, suiteName: 'Old', suiteVersion: 2 }));
    const file = await store.createRun(newRun());
    expect(await store.deleteSuite(suiteId)).toBe(true);
    expect(await store.getSuite(suiteId)).toBeUndefined();
    expect(await store.suiteVersions(suiteId)).toEqual([]);
    expect(await store.getRun(run)).toBeUndefined();
    expect((await store.getRun(file))?.id).toBe(file);
    expect(await store.deleteSuite(suiteId)).toBe(false);
    // The name is free again.
    expect((await store.createSuite(suite('old', ['a']), ada, t0)).kind).toBe('saved');
  });
});
