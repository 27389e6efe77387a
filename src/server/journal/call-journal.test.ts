import { randomBytes } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { journalFilterSchema } from '@/domain/journal';
import type { JournalSettings } from '@/server/config';
import { acceptedImport } from '@/test-support/journal-calls';
import {
  journalDatabaseKinds,
  openJournalTestDatabase,
  type JournalDatabaseKind,
  type JournalTestDatabase,
} from '@/test-support/journal-test-database';
import { createTestDatabase, postgresEnvName } from '@/test-support/postgres-server';
import {
  CallJournal,
  type CallJournalOptions,
  type CallToRecord,
  type JournalLog,
  type RecordedCall,
} from './call-journal';
import type { JournalStore } from './store/journal-store';

const day = 24 * 60 * 60 * 1000;
const settings: JournalSettings = {
  enabled: true,
  retentionMs: 30 * day,
  maxBytes: 500 * 1024 * 1024,
  bodyLimitBytes: 256 * 1024,
};

let database: JournalTestDatabase;
let clock: number;
let logged: { level: string; details: unknown; message: string }[];
let health: (string | null)[];
const journals: CallJournal[] = [];

const log: JournalLog = {
  error: (details, message) => logged.push({ level: 'error', details, message }),
  warn: (details, message) => logged.push({ level: 'warn', details, message }),
  info: (details, message) => logged.push({ level: 'info', details, message }),
};

function call(overrides: Partial<CallToRecord> = {}): CallToRecord {
  return {
    at: clock,
    ...acceptedImport,
    url: 'http://vms.example/requisitionimport?Client_Org_Id=1001&Vendor_Org_Id=9001',
    latencyMs: 4,
    requestBody: Buffer.from('[{"clientinternalreq":"REQ-1"}]'),
    responseBody: Buffer.from('{"batchid":"rb_1","received":1}'),
    responseHeaders: { 'content-type': 'application/json' },
    signature: 'f'.repeat(64),
    ...overrides,
  };
}

async function open(
  store: JournalStore,
  more: Partial<JournalSettings> = {},
  options: Partial<CallJournalOptions> = {},
) {
  const journal = await CallJournal.open({
    store,
    settings: { ...settings, ...more },
    secrets: ['the-api-key', 'the-api-secret'],
    log,
    onHealth: (problem) => health.push(problem),
    now: () => clock,
    ...options,
  });
  journals.push(journal);
  return journal;
}

async function listed(journal: CallJournal, filter: Record<string, string> = {}) {
  const reader = await journal.reader();
  return reader.list(journalFilterSchema.parse(filter), {
    order: 'newest',
    from: null,
    limit: 200,
  });
}

function newPostgresDatabase(): string {
  const adminUrl = process.env[postgresEnvName];
  if (!adminUrl) throw new Error(`${postgresEnvName} is unset: the global setup starts PostgreSQL`);
  return createTestDatabase(adminUrl);
}

async function openDatabase(kind: JournalDatabaseKind) {
  database = await openJournalTestDatabase(kind, newPostgresDatabase);
}

beforeEach(() => {
  clock = Date.UTC(2026, 10, 20);
  logged = [];
  health = [];
});

afterEach(async () => {
  for (const journal of journals.splice(0)) await journal.close().catch(() => {});
  await database.close();
});

/** The store with its writes held until `unblock` is called: a journal whose writing is behind. */
function blockedWrites(store: JournalStore): { store: JournalStore; unblock: () => void } {
  let unblock = () => {};
  const blocked = new Promise<void>((resolve) => {
    unblock = resolve;
  });
  return {
    store: { ...store, write: async (...args) => blocked.then(() => store.write(...args)) },
    unblock,
  };
}

/** Whether the promise settles within `ms`. */
async function settlesWithin(promise: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), ms);
  });
  const settled = await Promise.race([promise.then(() => true), late]);
  clearTimeout(timer);
  return settled;
}

describe('CallJournal on SQLite', () => {
  beforeEach(() => openDatabase('sqlite'));

  it('holds new calls while writing is far behind, and lets them go once it has caught up', async () => {
    const { store, unblock } = blockedWrites(await database.open());
    const hold = { fromCalls: 3, fromBytes: 1024 * 1024, atMostMs: 60_000 };
    const journal = await open(store, {}, { hold, flushDelayMs: 1 });
    journal.record(call());
    journal.record(call());
    expect(journal.room()).toBeNull();
    journal.record(call());
    const held = journal.room();
    if (!held) throw new Error('three calls waiting, and the next one is not held');
    // The writer has taken the three calls and waits on the store: nothing goes yet.
    expect(await settlesWithin(held, 100)).toBe(false);
    unblock();
    expect(await settlesWithin(held, 5_000)).toBe(true);
    expect(journal.room()).toBeNull();
    expect(journal.written).toBe(3);
    expect(logged).toEqual([
      {
        level: 'warn',
        details: { waiting: 3 },
        message:
          'call journal: writing is behind; new calls wait before they are sent until it catches up',
      },
      {
        level: 'info',
        details: { held: 1 },
        message: 'call journal: writing caught up; calls go on at once',
      },
    ]);
  });

  it('holds by the bytes waiting too, and never longer than its limit when the store stalls', async () => {
    const { store, unblock } = blockedWrites(await database.open());
    const hold = { fromCalls: 1_000, fromBytes: 100_000, atMostMs: 50 };
    const journal = await open(store, {}, { hold });
    const big = randomBytes(60_000).toString('hex').slice(0, 60_000);
    journal.record(call({ requestBody: Buffer.from(JSON.stringify([{ titlerole: big }])) }));
    expect(journal.room()).toBeNull();
    journal.record(call({ requestBody: Buffer.from(JSON.stringify([{ notes: big }])) }));
    const held = journal.room();
    if (!held) throw new Error('120 KB waiting, and the next call is not held');
    // The store answers nothing, and the call goes on after 50 ms all the same.
    expect(await settlesWithin(held, 2_000)).toBe(true);
    expect(journal.written).toBe(0);
    unblock();
    await journal.flush();
    expect(journal.written).toBe(2);
  });

  it('goes on when the database is full (SQLite max_page_count)', async () => {
    const journal = await open(await database.open());
    journal.record(call());
    await journal.flush();
    const pages = Number(database.sqlite?.pragma('page_count', { simple: true }));
    database.sqlite?.pragma(`max_page_count = ${pages}`);
    const big = Buffer.from(JSON.stringify({ filler: 'x'.repeat(200_000) }));
    expect(journal.record(call({ requestBody: big }))).not.toBeNull();
    await journal.flush();
    expect(logged[0]?.details).toMatchObject({ code: 'SQLITE_FULL' });
    database.sqlite?.pragma('max_page_count = 1073741823');
    journal.record(call());
    await journal.flush();
    // The call that could not be written took no id: the store gives ids as it writes.
    expect((await listed(journal)).map((entry) => entry.id)).toEqual([2, 1]);
  });
});

describe.each(journalDatabaseKinds)('on %s', (kind) => {
  beforeEach(() => openDatabase(kind));

  describe('CallJournal', () => {
    it('gives each call the id the store wrote it with, on from the last one, across a restart', async () => {
      const first = await open(await database.open());
      const calls = [first.record(call()), first.record(call())];
      expect(calls.map((recorded) => recorded?.id)).toEqual([null, null]);
      await first.close();
      expect(calls.map((recorded) => recorded?.id)).toEqual([1, 2]);
      const again = await open(await database.open());
      const third = again.record(call());
      expect((await listed(again)).map((entry) => entry.id)).toEqual([3, 2, 1]);
      expect(third?.id).toBe(3);
    });

    it('writes later, never while recording; a call exists once written', async () => {
      const store = await database.open();
      const journal = await open(store);
      const recorded = journal.record(call());
      expect(await store.count()).toBe(0);
      expect(recorded?.id).toBeNull();
      await new Promise((resolve) => setTimeout(resolve, 150));
      expect(await store.count()).toBe(1);
      expect(recorded?.id).toBe(1);
      expect(await journal.exists(1)).toBe(true);
      expect(await journal.exists(2)).toBe(false);
    });

    it('adds a late answer to its call, written with it or after it', async () => {
      const journal = await open(await database.open());
      const timedOut = {
        status: 504,
        upstreamStatus: null,
        outcome: 'failed',
        failure: 'timeout',
      } as const;
      const late = (batch: string) => ({
        status: 202,
        latencyMs: 31_000,
        headers: { 'content-type': 'application/json' },
        body: Buffer.from(`{"batchid":"${batch}","received":1}`),
        signature: null,
      });
      // Queued together: one batch, the call's id not known until the store writes it.
      const together = journal.record(call({ ...timedOut, responseBody: null }));
      if (!together) throw new Error('not recorded');
      journal.recordLateAnswer(together, late('rb_together'));
      // The answer comes after its call was written.
      const before = journal.record(call({ ...timedOut, responseBody: null }));
      if (!before) throw new Error('not recorded');
      await journal.flush();
      journal.recordLateAnswer(before, late('rb_after'));
      const reader = await journal.reader();
      expect(await reader.get(1)).toMatchObject({
        batchId: 'rb_together',
        lateAnswer: { status: 202, body: { text: '{"batchid":"rb_together","received":1}' } },
      });
      expect(await reader.get(2)).toMatchObject({
        batchId: 'rb_after',
        lateAnswer: { status: 202, body: { text: '{"batchid":"rb_after","received":1}' } },
      });
    });

    it('drops a late answer whose call could not be written', async () => {
      const store = await database.open();
      let broken = true;
      const failing: JournalStore = {
        ...store,
        write: async (records, late) => {
          if (broken) throw new Error('database or disk is full');
          return store.write(records, late);
        },
      };
      const journal = await open(failing);
      const lost = journal.record(call({ status: 504, outcome: 'failed', failure: 'timeout' }));
      if (!lost) throw new Error('not recorded');
      await journal.flush();
      expect(lost.id).toBeNull();
      broken = false;
      journal.recordLateAnswer(lost, {
        status: 202,
        latencyMs: 31_000,
        headers: {},
        body: Buffer.from('{"batchid":"rb_lost","received":1}'),
        signature: null,
      });
      journal.record(call());
      expect((await listed(journal)).map((entry) => [entry.id, entry.batchId])).toEqual([
        [1, 'rb_1'],
      ]);
      expect(logged.map((line) => line.level)).toEqual(['error', 'info']);
    });

    it('records when a call came in to the whole millisecond', async () => {
      const journal = await open(await database.open());
      // The proxy's Date.now() - elapsedTime has a fraction; the tables keep whole milliseconds.
      journal.record(call({ at: clock + 0.75 }));
      expect((await listed(journal)).map((entry) => entry.at)).toEqual([
        new Date(clock).toISOString(),
      ]);
    });

    it('derives the batch id from a POST’s answer and from a poll’s query', async () => {
      const journal = await open(await database.open());
      journal.record(call());
      journal.record(
        call({
          operation: 'requisitionresults',
          method: 'GET',
          path: '/api/vms/requisitionresults?Client_Org_Id=1001&Vendor_Org_Id=9001&batchid=rb_1',
          requestBody: null,
          responseBody: Buffer.from('[]'),
        }),
      );
      journal.record(
        call({ status: 400, responseBody: Buffer.from('{"batchid":"not-accepted"}') }),
      );
      expect((await listed(journal)).map((entry) => entry.batchId)).toEqual([null, 'rb_1', 'rb_1']);
    });

    it('scrubs the call’s signature from a repeated body too', async () => {
      const journal = await open(await database.open());
      const echo = Buffer.from(`bad signature ${'a'.repeat(64)}`);
      journal.record(call({ responseBody: echo, signature: 'b'.repeat(64) }));
      journal.record(call({ responseBody: echo, signature: 'a'.repeat(64) }));
      const reader = await journal.reader();
      expect((await reader.get(1))?.responseBody?.text).toBe(`bad signature ${'a'.repeat(64)}`);
      expect((await reader.get(2))?.responseBody).toMatchObject({
        text: 'bad signature [redacted]',
        redacted: true,
      });
    });

    it('holds a repeated body once: the call’s own Buffer is let go, its batch is not cut short, its signature still scrubbed', async () => {
      const store = await database.open();
      const writes: number[] = [];
      const counting: JournalStore = {
        ...store,
        write: (records, late) => {
          writes.push(records.length);
          return store.write(records, late);
        },
      };
      const journal = await open(counting);
      // The proxy bench's case: the same 31 KB batch every time, each in a Buffer of its own.
      const batch = Buffer.from(JSON.stringify({ filler: 'x'.repeat(31 * 1024) }));
      const echo = Buffer.from(`bad signature ${'a'.repeat(64)}`);
      journal.record(call({ requestBody: Buffer.from(batch), responseBody: Buffer.from(echo) }));
      await journal.flush();
      const again = Array.from({ length: 64 }, (_, index) =>
        call({
          requestBody: Buffer.from(batch),
          responseBody: Buffer.from(echo),
          signature: (index === 63 ? 'a' : 'b').repeat(64),
        }),
      );
      for (const each of again) journal.record(each);
      expect(again.every((each) => each.requestBody !== null && each.requestBody !== batch)).toBe(
        true,
      );
      expect(new Set(again.map((each) => each.requestBody)).size).toBe(1);
      await journal.flush();
      expect(writes).toEqual([1, 64]);
      const reader = await journal.reader();
      expect((await reader.get(65))?.requestBody?.text).toBe(batch.toString());
      expect((await reader.get(64))?.responseBody?.text).toBe(echo.toString());
      expect((await reader.get(65))?.responseBody).toMatchObject({
        text: 'bad signature [redacted]',
        redacted: true,
      });
    });

    it('goes on when a write fails: logged once, without bodies, told to health, then recovers', async () => {
      const store = await database.open();
      let broken = true;
      const failing: JournalStore = {
        ...store,
        write: async (records, late) => {
          if (broken)
            throw Object.assign(new Error('database or disk is full'), { code: 'SQLITE_FULL' });
          return store.write(records, late);
        },
      };
      const journal = await open(failing);
      for (let i = 0; i < 5; i += 1) {
        expect(
          journal.record(call({ requestBody: Buffer.from('[{"secretive":"payload"}]') })),
        ).not.toBeNull();
        await journal.flush();
      }
      expect(logged).toHaveLength(1);
      expect(logged[0]).toMatchObject({
        level: 'error',
        details: { code: 'SQLITE_FULL', reason: 'database or disk is full' },
      });
      expect(JSON.stringify(logged)).not.toContain('payload');
      expect(health).toEqual([
        'call journal (PORTAL_DB): database or disk is full; calls are not being recorded',
      ]);

      broken = false;
      journal.record(call());
      await journal.flush();
      expect(logged.at(-1)).toMatchObject({ level: 'info', details: { unrecorded: 5 } });
      expect(health.at(-1)).toBeNull();
      expect(await listed(journal)).toHaveLength(1);
      // The log's count starts again once writes work; the journal's own count of calls it never
      // kept does not (the bench fails a run on any).
      expect(journal.unrecordedCalls).toBe(5);
      expect(journal.written).toBe(1);
    });
  });

  describe('retention', () => {
    it('prunes calls older than JOURNAL_RETENTION_DAYS at start', async () => {
      const journal = await open(await database.open(), { retentionMs: 2 * day });
      for (let age = 5; age >= 0; age -= 1) journal.record(call({ at: clock - age * day }));
      await journal.close();
      clock += 1000;
      const again = await open(await database.open(), { retentionMs: 2 * day });
      // Two days and a second: the call from two days before is out too.
      expect((await listed(again)).map((entry) => entry.id)).toEqual([6, 5]);
    });

    it('prunes the oldest calls until the database uses at most 90 % of JOURNAL_MAX_MB', async () => {
      const maxBytes = 1024 * 1024;
      const journal = await open(await database.open(), { maxBytes });
      // 60 distinct batches of 100 requisitions with a random reference each: ~3 MB in all.
      for (let i = 0; i < 60; i += 1) {
        const items = Array.from({ length: 100 }, (_, k) => ({
          clientinternalreq: `REQ-${i}-${k}-${randomBytes(8).toString('hex')}`,
          titlerole: `Role ${i * 100 + k}`,
          shortdescription: randomBytes(96).toString('base64'),
        }));
        journal.record(call({ requestBody: Buffer.from(JSON.stringify(items)) }));
      }
      await journal.flush();
      const store = await database.open();
      expect(await store.usedBytes()).toBeGreaterThan(1.5 * maxBytes);
      await journal.prune();
      expect(await store.usedBytes()).toBeLessThanOrEqual(maxBytes * 0.9);
      const kept = (await listed(journal)).map((entry) => entry.id);
      expect(kept.length).toBeGreaterThan(3);
      // The newest stay, the oldest went.
      expect(kept[0]).toBe(60);
      expect(Math.min(...kept)).toBe(61 - kept.length);
    });
  });
});

describe('two portal processes on one PostgreSQL database', () => {
  beforeEach(() => openDatabase('postgres'));

  it('records every call of both once, each with an id of its own, the latest started first', async () => {
    const first = await open(await database.open());
    const second = await open(await database.open());
    const recorded: { call: RecordedCall; path: string }[] = [];
    for (let n = 0; n < 100; n += 1) {
      for (const [journal, name] of [
        [first, 'first'],
        [second, 'second'],
      ] as const) {
        clock += 1;
        const path = `/api/vms/requisitions?Client_Org_Id=1001&process=${name}&n=${n}`;
        const handle = journal.record(call({ at: clock, path, method: 'GET' }));
        if (!handle) throw new Error('not recorded');
        recorded.push({ call: handle, path });
      }
      // Both queues write now and then as the calls come, so their transactions interleave.
      if (n % 10 === 9) await new Promise((resolve) => setTimeout(resolve, 60));
    }
    await Promise.all([first.flush(), second.flush()]);
    const ids = recorded.map(({ call: { id } }) => id);
    expect(ids).not.toContain(null);
    expect(new Set(ids).size).toBe(200);
    const entries = await listed(second);
    expect(entries).toHaveLength(200);
    // Listed by when they started, whichever process wrote first and got the lower id.
    expect(entries.map((entry) => entry.path)).toEqual(recorded.map(({ path }) => path).reverse());
    const pathOf = new Map(entries.map((entry) => [entry.id, entry.path]));
    for (const { call: written, path } of recorded) expect(pathOf.get(written.id ?? 0)).toBe(path);
  });
});
