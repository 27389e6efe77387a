import { randomBytes } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { journalFilterSchema, type JournalFilter } from '@/domain/journal';
import { keptBody } from '@/server/journal/kept-body';
import { SecretNeedles } from '@/server/redaction/credential-scrub';
import { acceptedImport } from '@/test-support/journal-calls';
import {
  journalDatabaseKinds,
  openJournalTestDatabase,
  type JournalDatabaseKind,
  type JournalTestDatabase,
} from '@/test-support/journal-test-database';
import { createTestDatabase, postgresEnvName } from '@/test-support/postgres-server';
import { searchExpression } from './journal-search';
import {
  cursorAfter,
  JournalSearchError,
  type JournalRecord,
  type JournalStore,
} from './journal-store';

const noSecrets = SecretNeedles.of([]);

let database: JournalTestDatabase;
function newPostgresDatabase(): string {
  const adminUrl = process.env[postgresEnvName];
  if (!adminUrl) throw new Error(`${postgresEnvName} is unset: the global setup starts PostgreSQL`);
  return createTestDatabase(adminUrl);
}
const openDatabase = (kind: JournalDatabaseKind) =>
  openJournalTestDatabase(kind, newPostgresDatabase);
let store: JournalStore;

const start = Date.UTC(2026, 10, 1, 12);

function body(text: string, limit = 1024 * 1024) {
  return keptBody(Buffer.from(text), limit, noSecrets);
}

/** The `n`th call: written in order into an empty store, it gets the id n. */
function call(n: number, overrides: Partial<JournalRecord> = {}): JournalRecord {
  const id = n;
  return {
    at: start + id * 60_000,
    ...acceptedImport,
    url: 'http://vms.example/requisitionimport?Client_Org_Id=1001&Vendor_Org_Id=9001',
    batchId: null,
    latencyMs: 12.5,
    requestBody: body(`[{"clientinternalreq":"REQ-${id}"}]`),
    responseBody: body(`{"batchid":"rb_${id}","received":1}`),
    responseHeaders: { 'content-type': 'application/json' },
    ...overrides,
  };
}

const filter = (values: Record<string, string> = {}): JournalFilter =>
  journalFilterSchema.parse(values);

async function ids(values: Record<string, string> = {}, limit = 100): Promise<number[]> {
  return (await store.list(filter(values), { order: 'newest', from: null, limit })).map(
    (entry) => entry.id,
  );
}

afterEach(async () => {
  await database.close();
});

describe('the SQLite journal store', () => {
  beforeEach(async () => {
    database = await openDatabase('sqlite');
  });

  it('runs on the SQLite that better-sqlite3 ships, with FTS5 compiled in', () => {
    const options = database.sqlite
      ?.prepare<[], { compile_options: string }>('PRAGMA compile_options')
      .all()
      .map((row) => row.compile_options);
    expect(options).toContain('ENABLE_FTS5');
  });
});

describe.each(journalDatabaseKinds)('the journal store in %s', (kind) => {
  beforeEach(async () => {
    database = await openDatabase(kind);
    store = await database.open();
  });

  describe('writing and reading', () => {
    it('reads back what it wrote, bodies included, compressed or not', async () => {
      const big = JSON.stringify(
        Array.from({ length: 50 }, (_, i) => ({ titlerole: `Role ${i}` })),
      );
      await store.write(
        [call(1, { requestBody: body(big), replayOf: null, unchecked: true, firstByteMs: 7.5 })],
        [],
      );
      const entry = await store.get(1);
      expect(entry).toMatchObject({
        id: 1,
        at: new Date(start + 60_000).toISOString(),
        operation: 'requisitionimport',
        unchecked: true,
        requestSize: big.length,
        requestBody: { text: big, encoding: 'utf8', size: big.length, truncated: false },
        responseBody: { text: '{"batchid":"rb_1","received":1}' },
        responseHeaders: { 'content-type': 'application/json' },
        firstByteMs: 7.5,
        lateAnswer: null,
      });
      // Over 1 KB: kept deflated; the small answer as it is.
      expect(await database.number('SELECT max(compressed) AS n FROM journal_bodies')).toBe(1);
      expect(await database.number('SELECT min(compressed) AS n FROM journal_bodies')).toBe(0);
    });

    it('keeps a body seen again once, and indexes it once', async () => {
      const same = { requestBody: body('[{"same":"body"}]'), responseBody: body('{"ok":1}') };
      await store.write([call(1, same), call(2, same), call(3, same)], []);
      expect(await database.number('SELECT count(*) AS n FROM journal_bodies')).toBe(2);
      expect(await ids({ q: 'same' })).toEqual([3, 2, 1]);
    });

    it('gives a body that is not UTF-8 in base64', async () => {
      const bytes = Buffer.from([0xff, 0xfe, 0x00, 0x41]);
      await store.write([call(1, { responseBody: keptBody(bytes, 1024, noSecrets) })], []);
      expect((await store.get(1))?.responseBody).toMatchObject({
        text: bytes.toString('base64'),
        encoding: 'base64',
      });
    });

    it('adds a late answer to its call', async () => {
      await store.write([call(1, { status: 504, outcome: 'failed', failure: 'timeout' })], []);
      await store.write(
        [],
        [
          {
            call: { id: 1 },
            status: 202,
            latencyMs: 31_000,
            headers: { 'content-type': 'application/json' },
            body: body('{"batchid":"rb_late","received":1}'),
            batchId: 'rb_late',
          },
        ],
      );
      expect(await store.get(1)).toMatchObject({
        status: 504,
        batchId: 'rb_late',
        lateAnswer: {
          status: 202,
          latencyMs: 31_000,
          body: { text: '{"batchid":"rb_late","received":1}' },
        },
      });
    });

    it('gives ids itself, rising in the order calls are written', async () => {
      expect(await store.write([call(1), call(2)], [])).toEqual([1, 2]);
      expect(await store.write([call(3)], [])).toEqual([3]);
      expect(await store.write([], [])).toEqual([]);
      expect(await ids()).toEqual([3, 2, 1]);
    });

    it('gives each call of a large batch its own id, in order, with its own fields', async () => {
      // More calls than one INSERT holds, and a last part of another size.
      const batch = Array.from({ length: 41 }, (_, i) =>
        call(i + 1, { idempotencyKey: `key-${i + 1}`, latencyMs: i + 1 }),
      );
      const late = {
        call: { index: 37 },
        status: 202,
        latencyMs: 30_500,
        headers: {},
        body: body('{"batchid":"rb_late","received":1}'),
        batchId: 'rb_late',
      };
      const written = await store.write(batch, [late]);
      expect(written).toEqual(batch.map((_, i) => i + 1));
      for (const id of [1, 16, 17, 32, 33, 38, 41]) {
        expect(await store.get(id)).toMatchObject({
          id,
          at: new Date(start + id * 60_000).toISOString(),
          idempotencyKey: `key-${id}`,
          latencyMs: id,
          requestBody: { text: `[{"clientinternalreq":"REQ-${id}"}]` },
          responseBody: { text: `{"batchid":"rb_${id}","received":1}` },
          lateAnswer: id === 38 ? { status: 202 } : null,
        });
      }
      // Every new body is found by its words, the late answer's too.
      expect(await ids({ q: 'REQ-38' })).toEqual([38]);
      expect(await ids({ q: 'rb_41' })).toEqual([41]);
      expect(await ids({ q: 'rb_late' })).toEqual([38]);
      // Pruned but for the newest (SQLite numbers from 1 again when every call is pruned).
      expect(await store.pruneOldest(40)).toBe(40);
      expect(await store.write([call(1), call(2)], [])).toEqual([42, 43]);
    });

    it('adds a late answer to a call written in the same transaction', async () => {
      const timedOut = { status: 504, outcome: 'failed', failure: 'timeout' } as const;
      const written = await store.write(
        [call(1), call(2, timedOut)],
        [
          {
            call: { index: 1 },
            status: 202,
            latencyMs: 30_500,
            headers: {},
            body: body('{"batchid":"rb_same","received":1}'),
            batchId: 'rb_same',
          },
        ],
      );
      expect(written).toEqual([1, 2]);
      expect((await store.get(1))?.lateAnswer).toBeNull();
      expect(await store.get(2)).toMatchObject({
        batchId: 'rb_same',
        lateAnswer: { status: 202, body: { text: '{"batchid":"rb_same","received":1}' } },
      });
    });

    it('writes a batch whole or not at all', async () => {
      await store.write([call(1)], []);
      // @ts-expect-error an outcome the table's CHECK refuses: the second insert fails.
      const refused = call(3, { outcome: 'lost' });
      await expect(store.write([call(2), refused], [])).rejects.toThrow();
      expect(await ids()).toEqual([1]);
      expect(await store.count()).toBe(1);
    });
  });

  describe('finding calls', () => {
    beforeEach(async () => {
      await store.write(
        [
          call(1, { batchId: 'rb_1', idempotencyKey: 'key-1' }),
          call(2, {
            operation: 'requisitionresults',
            method: 'GET',
            path: '/api/vms/requisitionresults?Client_Org_Id=1001&Vendor_Org_Id=9001&batchid=rb_1',
            batchId: 'rb_1',
            status: 200,
            requestBody: null,
            responseBody: body(
              '[{"Row":1,"Status":"Error","ErrorMessage":"Zürich is not a location"}]',
            ),
          }),
          call(3, {
            clientOrgId: 1002,
            requestBody: body(
              '[{"titlerole":"Senior Java Developer","clientinternalreq":"REQ-2026-0042"}]',
            ),
            replayOf: 1,
            unchecked: true,
          }),
          call(4, {
            operation: 'candidates',
            status: 403,
            upstreamStatus: null,
            outcome: 'refused',
            errorCode: 'org_not_permitted',
            clientOrgId: 666,
          }),
          call(5, { status: 504, upstreamStatus: null, outcome: 'failed', failure: 'timeout' }),
          call(6, { status: 500, upstreamStatus: 500, method: 'GET', operation: 'requisitions' }),
        ],
        [],
      );
    });

    it('filters by operation, method, status class, outcome, org, batch and key', async () => {
      expect(await ids()).toEqual([6, 5, 4, 3, 2, 1]);
      expect(await ids({ operation: 'candidates' })).toEqual([4]);
      expect(await ids({ method: 'get' })).toEqual([6, 2]);
      expect(await ids({ status: '2xx' })).toEqual([3, 2, 1]);
      expect(await ids({ status: '4xx' })).toEqual([4]);
      expect(await ids({ status: '5xx' })).toEqual([6, 5]);
      expect(await ids({ status: 'refused' })).toEqual([4]);
      expect(await ids({ status: 'failed' })).toEqual([5]);
      expect(await ids({ org: '1002' })).toEqual([3]);
      expect(await ids({ org: '9001' })).toEqual([6, 5, 4, 3, 2, 1]);
      expect(await ids({ batch: 'rb_1' })).toEqual([2, 1]);
      expect(await ids({ key: 'key-1' })).toEqual([1]);
      expect(await ids({ operation: 'requisitionimport', status: '2xx' })).toEqual([3, 1]);
    });

    it('filters by date and time, inclusive', async () => {
      const at = (id: number) => new Date(start + id * 60_000).toISOString();
      expect(await ids({ from: at(2), to: at(4) })).toEqual([4, 3, 2]);
      expect(await ids({ from: '2026-11-02' })).toEqual([]);
      expect(await ids({ to: '2026-11-01' })).toEqual([6, 5, 4, 3, 2, 1]);
    });

    it('searches request and response bodies by words, phrases, prefixes and without accents', async () => {
      expect(await ids({ q: 'zurich' })).toEqual([2]);
      expect(await ids({ q: 'Senior java' })).toEqual([3]);
      expect(await ids({ q: 'REQ-2026-0042' })).toEqual([3]);
      expect(await ids({ q: 'REQ-2026' })).toEqual([3]);
      expect(await ids({ q: 'devel*' })).toEqual([3]);
      expect(await ids({ q: 'rb_4' })).toEqual([4]);
      expect(await ids({ q: 'zurich', method: 'POST' })).toEqual([]);
    });

    it('finds the same calls for a word in a few bodies as for a word in more than a thousand', async () => {
      // Past 1,000 matching bodies PostgreSQL's list tests calls newest first; below, it starts
      // from the bodies. Calls 7–1,206 each hold a body of their own with "welder"; every 100th
      // also says "foreman", and every 300th was refused.
      const many = Array.from({ length: 1200 }, (_, i) => {
        const n = i + 7;
        return call(n, {
          requestBody: body(
            `[{"titlerole":"Welder ${n}"${n % 100 === 0 ? ',"note":"foreman"' : ''}}]`,
          ),
          ...(n % 300 === 0 ? { status: 403, outcome: 'refused' as const } : {}),
        });
      });
      await store.write(many, []);
      expect(await ids({ q: 'welder' }, 3)).toEqual([1206, 1205, 1204]);
      expect(await ids({ q: 'welder', status: '4xx' })).toEqual([1200, 900, 600, 300]);
      expect(await ids({ q: 'foreman' })).toEqual([
        1200, 1100, 1000, 900, 800, 700, 600, 500, 400, 300, 200, 100,
      ]);
      expect(await ids({ q: 'foreman welder', status: '4xx' })).toEqual([1200, 900, 600, 300]);
      expect(await ids({ q: 'foreman', to: new Date(start + 500 * 60_000).toISOString() })).toEqual(
        [500, 400, 300, 200, 100],
      );
    });

    it('reads anything typed as words, never as search syntax', async () => {
      for (const text of [
        'AND',
        'OR zurich',
        'NEAR(a b)',
        'a:b',
        '"Senior java',
        '^Senior',
        'x"y',
        '-zurich',
        'body:zurich',
        '{a b}',
        'zurich)',
      ]) {
        await expect(ids({ q: text }), text).resolves.toBeInstanceOf(Array);
      }
      expect(await ids({ q: 'OR zurich' })).toEqual([]);
      expect(await ids({ q: '-zurich' })).toEqual([2]);
    });

    it('says there is nothing to search for in punctuation alone', async () => {
      expect(searchExpression('" * ()')).toBeNull();
      await expect(ids({ q: '" * ()' })).rejects.toBeInstanceOf(JournalSearchError);
    });

    it('pages newest first and oldest first from a cursor', async () => {
      const cursor = (id: number) => ({ at: start + id * 60_000, id });
      const page = (order: 'newest' | 'oldest', from: number | null) =>
        store
          .list(filter(), { order, from: from === null ? null : cursor(from), limit: 2 })
          .then((entries) => entries.map((e) => e.id));
      expect(await page('newest', null)).toEqual([6, 5]);
      expect(await page('newest', 5)).toEqual([4, 3]);
      expect(await page('newest', 1)).toEqual([]);
      expect(await page('oldest', null)).toEqual([1, 2]);
      expect(await page('oldest', 2)).toEqual([3, 4]);
      const entries = await store.entries(filter({ q: 'zurich' }), {
        order: 'oldest',
        from: null,
        limit: 10,
      });
      expect(entries.map((entry) => entry.responseBody?.text)).toEqual([
        '[{"Row":1,"Status":"Error","ErrorMessage":"Zürich is not a location"}]',
      ]);
    });

    it('finds a phrase anywhere in a batch of 600, and words far apart in it', async () => {
      const items = Array.from({ length: 600 }, (_, i) => ({
        clientinternalreq: `REQ-2026-${String(i + 1).padStart(4, '0')}`,
        titlerole: `Role ${i + 1}`,
      }));
      await store.write([call(7, { requestBody: body(JSON.stringify(items)) })], []);
      // "req" comes 600 times: more positions than one tsvector keeps for a word.
      expect(await ids({ q: 'REQ-2026-0590' })).toEqual([7]);
      expect(await ids({ q: 'REQ-2026-0600 "Role 1"' })).toEqual([7]);
      expect(await ids({ q: 'REQ-2026-059*' })).toEqual([7]);
      expect(await ids({ q: 'REQ-2026-0601' })).toEqual([]);
      expect(await ids({ q: 'REQ-2026-0590 zurich' })).toEqual([]);
    });

    it('orders and pages calls by when they started, not by when they were written', async () => {
      // Written after 1–6: 7 started before all of them (a slow call), 8 and 9 in the same
      // millisecond as 3 (the id settles the order), 10 last.
      await store.write(
        [
          call(7, { at: start, batchId: 'rb_7' }),
          call(8, { at: start + 3 * 60_000 }),
          call(9, { at: start + 3 * 60_000, batchId: 'rb_7' }),
          call(10),
        ],
        [],
      );
      const started = [10, 6, 5, 4, 9, 8, 3, 2, 1, 7];
      expect(await ids()).toEqual(started);
      for (const order of ['newest', 'oldest'] as const) {
        const seen: number[] = [];
        let from: { at: string; id: number } | undefined;
        for (let round = 0; round < 10; round += 1) {
          const page = await store.list(filter(), {
            order,
            from: from ? cursorAfter(from) : null,
            limit: 3,
          });
          seen.push(...page.map((entry) => entry.id));
          from = page.at(-1);
          if (page.length < 3) break;
        }
        expect(seen, order).toEqual(order === 'newest' ? started : [...started].reverse());
        const entries: number[] = [];
        let last: { at: string; id: number } | undefined;
        for (let round = 0; round < 10; round += 1) {
          const page = await store.entries(filter(), {
            order,
            from: last ? cursorAfter(last) : null,
            limit: 4,
          });
          entries.push(...page.map((entry) => entry.id));
          last = page.at(-1);
          if (page.length < 4) break;
        }
        expect(entries, order).toEqual(seen);
      }
      expect((await store.sameBatch('rb_7', 0)).map((entry) => entry.id)).toEqual([7, 9]);
    });

    it('finds a batch’s other calls and a call’s replays', async () => {
      expect((await store.sameBatch('rb_1', 1)).map((entry) => entry.id)).toEqual([2]);
      expect((await store.replaysOf(1)).map((entry) => entry.id)).toEqual([3]);
    });
  });

  describe('retention', () => {
    it('prunes by age, with the bodies and search rows only those calls held', async () => {
      const shared = body('[{"shared":"keepme"}]');
      await store.write(
        [
          call(1, { requestBody: body('[{"only":"gone"}]'), responseBody: shared }),
          call(2, { requestBody: body('[{"second":"gone"}]'), responseBody: shared }),
          call(3, { requestBody: body('[{"third":"stays"}]'), responseBody: shared }),
        ],
        [],
      );
      expect(await store.pruneReceivedBefore(start + 3 * 60_000, 10)).toBe(2);
      expect(await ids()).toEqual([3]);
      expect(await ids({ q: 'gone' })).toEqual([]);
      expect(await ids({ q: 'keepme' })).toEqual([3]);
      expect(await ids({ q: 'stays' })).toEqual([3]);
      expect(await database.number('SELECT count(*) AS n FROM journal_bodies')).toBe(2);
      expect(await database.number('SELECT count(*) AS n FROM journal_search')).toBe(2);
    });

    it('measures less used space once calls are pruned', async () => {
      const empty = await store.usedBytes();
      // Random text: deflating it saves nothing, so each body takes its ~12 KB.
      const records = Array.from({ length: 40 }, (_, i) =>
        call(i + 1, {
          requestBody: body(JSON.stringify([{ notes: randomBytes(9000).toString('base64') }])),
        }),
      );
      await store.write(records, []);
      const full = await store.usedBytes();
      expect(full - empty).toBeGreaterThan(40 * 12_000);
      await store.pruneOldest(30);
      const pruned = await store.usedBytes();
      expect(full - pruned).toBeGreaterThan(30 * 10_000);
    });

    it('prunes the oldest calls, in chunks', async () => {
      await store.write([call(1), call(2), call(3), call(4)], []);
      expect(await store.pruneReceivedBefore(start + 10 * 60_000, 3)).toBe(3);
      expect(await ids()).toEqual([4]);
      await store.write([call(5), call(6)], []);
      expect(await store.pruneOldest(2)).toBe(2);
      expect(await ids()).toEqual([6]);
      expect(await store.count()).toBe(1);
    });
  });
});

describe('the PostgreSQL journal store, shared by two portal processes', () => {
  beforeEach(async () => {
    database = await openDatabase('postgres');
  });

  it('gives unique ids to calls two processes write at once, storing their common bodies once', async () => {
    const [first, second] = await Promise.all([database.open(), database.open()]);
    const rounds = 20;
    const size = 16;
    const writer = async (journal: JournalStore, name: string) => {
      const written: number[] = [];
      for (let round = 0; round < rounds; round += 1) {
        const batch = Array.from({ length: size }, (_, k) =>
          call(round * size + k + 1, {
            // New to the database, and the same in both processes: both try to store them.
            requestBody: body(`[{"round":${round},"shared":${k % 4}}]`),
            responseBody: body(`{"writer":"${name}","round":${round},"call":${k}}`),
          }),
        );
        written.push(...(await journal.write(batch, [])));
      }
      return written;
    };
    const [a, b] = await Promise.all([writer(first, 'a'), writer(second, 'b')]);
    expect(a).toEqual([...a].sort((x, y) => x - y));
    expect(b).toEqual([...b].sort((x, y) => x - y));
    expect(new Set([...a, ...b]).size).toBe(2 * rounds * size);
    expect(await second.count()).toBe(2 * rounds * size);
    expect(await database.number('SELECT count(*) AS n FROM journal_bodies')).toBe(
      rounds * (4 + 2 * size),
    );
    const entries = await first.entries(filter(), { order: 'oldest', from: null, limit: 1000 });
    const writerOf = new Map(
      entries.map((entry) => [
        entry.id,
        /"writer":"(\w)"/.exec(entry.responseBody?.text ?? '')?.[1],
      ]),
    );
    expect(a.map((id) => writerOf.get(id))).toEqual(a.map(() => 'a'));
    expect(b.map((id) => writerOf.get(id))).toEqual(b.map(() => 'b'));
    for (const entry of entries) {
      expect(entry.requestBody?.text).toMatch(/^\[\{"round":\d+,"shared":[0-3]\}\]$/);
    }
  });

  it('uses a body another process stored while this one was writing it', async () => {
    const store = await database.open();
    const pool = database.postgres;
    if (!pool) throw new Error('no PostgreSQL pool');
    const racing = body('[{"stored":"by the other process"}]');
    if (!racing) throw new Error('no body');
    const other = await pool.connect();
    try {
      await other.query('BEGIN');
      await other.query(
        `INSERT INTO journal_bodies (sha256, size, truncated, redacted, compressed, data)
         VALUES ($1, $2, 0, 0, 0, $3)`,
        [racing.sha256, racing.size, racing.kept],
      );
      // This write finds no such body, and its insert waits for the other transaction.
      const writing = store.write([call(1, { requestBody: racing })], []);
      const waiting = () =>
        database.number(
          `SELECT count(*) AS n FROM pg_stat_activity
           WHERE datname = current_database() AND wait_event_type = 'Lock'`,
        );
      for (let tries = 0; (await waiting()) === 0; tries += 1) {
        if (tries === 100) throw new Error('the write never waited for the other transaction');
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      await other.query('COMMIT');
      expect(await writing).toEqual([1]);
    } finally {
      other.release();
    }
    expect((await store.get(1))?.requestBody?.text).toBe('[{"stored":"by the other process"}]');
    expect(await database.number('SELECT count(*) AS n FROM journal_bodies')).toBe(2);
  });

  it('keeps the bodies calls hold while one process prunes and another writes', async () => {
    const [writer, pruner] = await Promise.all([database.open(), database.open()]);
    const shared = body('[{"shared":"across prunes"}]');
    await writer.write([call(1, { requestBody: shared })], []);
    for (let round = 2; round <= 40; round += 1) {
      // The only call that holds the body goes as a new one that holds it is written.
      const [pruned] = await Promise.all([
        pruner.pruneOldest(1),
        writer.write([call(round, { requestBody: shared })], []),
      ]);
      expect(pruned).toBe(1);
      const [newest] = await writer.entries(filter(), { order: 'newest', from: null, limit: 1 });
      expect(newest?.requestBody?.text, `round ${round}`).toBe('[{"shared":"across prunes"}]');
    }
  });
});
