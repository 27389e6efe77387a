/**
 * Proxy benchmark helper, run as a child process: the signing peer (proxy-peer.ts) with the
 * portal's promises added in the plainest, cheapest form that still keeps them, so the bench can
 * say what those promises cost by themselves, apart from how the portal is built:
 *
 * - a durable Idempotency-Key (decision 002): written as in flight before the call leaves, and
 *   settled with the answer after, in SQLite (WAL, synchronous NORMAL), the writes of one turn of
 *   the event loop in one transaction, each answered only once committed;
 * - the call's fingerprint: one SHA-256 of the method, the address and the body;
 * - one log line per call (pino, synchronously to a file, as the portal's bench leg logs);
 * - the audit trail's event for a send (decision 036): a row with who, when, the status and the
 *   call's details as JSON, up to 200 a transaction;
 * - the call journal, unless BENCH_JOURNAL=off (decision 025): the request and the answer stored
 *   once per content (the body's SHA-256 is its identity), the call's row, and the body indexed
 *   for full-text search (FTS5, as the portal's search needs: every word, phrases, no
 *   diacritics), up to 64 calls a transaction. Bodies are stored as they came, not compressed:
 *   leaving that out makes the floor cheaper, never dearer.
 *
 * Nothing else: no org checks, no sign-in, no rate limit, no scrubbing of echoed credentials, no
 * late answers, no replays. So its CPU per request is a floor for any proxy that keeps these
 * promises in one Node process, whoever writes it. The bench prints the portal against it for
 * context only: it writes its journal as the portal does, so a budget against it would measure
 * the portal against a copy of itself (decision 048); the budgets are against proxy-peer.ts.
 */
import { createHash } from 'node:crypto';
import Database from 'better-sqlite3';
import pino from 'pino';
import * as signing from './signing-peer-parts';

const upstream = signing.upstreamFromEnv();
const logFile = process.env.BENCH_LOG_FILE;
if (!logFile) throw new Error('BENCH_LOG_FILE is required');
const journalOn = process.env.BENCH_JOURNAL !== 'off';

const db = new Database(`${logFile}.floor.db`);
db.pragma('journal_mode = WAL');
db.pragma('synchronous = NORMAL');
db.exec(`
  CREATE TABLE IF NOT EXISTS keys (key TEXT PRIMARY KEY, fingerprint TEXT NOT NULL,
    state TEXT NOT NULL, status INTEGER, body BLOB);
  CREATE TABLE IF NOT EXISTS bodies (id INTEGER PRIMARY KEY, sha256 BLOB NOT NULL UNIQUE,
    data BLOB NOT NULL);
  CREATE TABLE IF NOT EXISTS calls (id INTEGER PRIMARY KEY, at INTEGER NOT NULL, path TEXT NOT NULL,
    key TEXT, status INTEGER NOT NULL, latency_ms REAL NOT NULL, request_body INTEGER,
    response_body INTEGER);
  CREATE TABLE IF NOT EXISTS audit (id INTEGER PRIMARY KEY, at INTEGER NOT NULL, event TEXT NOT NULL,
    address TEXT, status INTEGER, details TEXT NOT NULL);
  CREATE VIRTUAL TABLE IF NOT EXISTS search USING fts5(body, content = '', contentless_delete = 1,
    detail = full, tokenize = 'unicode61 remove_diacritics 2');
`);
const insertKey = db.prepare<[string, string]>(
  `INSERT INTO keys (key, fingerprint, state) VALUES (?, ?, 'in_flight') ON CONFLICT DO NOTHING`,
);
const settleKey = db.prepare<[number, Buffer, string]>(
  `UPDATE keys SET state = 'settled', status = ?, body = ? WHERE key = ?`,
);
const findBody = db.prepare<[Buffer], { id: number }>('SELECT id FROM bodies WHERE sha256 = ?');
const insertBody = db.prepare<[Buffer, Buffer]>('INSERT INTO bodies (sha256, data) VALUES (?, ?)');
const insertCall = db.prepare<[number, string, string, number, number, number, number]>(
  `INSERT INTO calls (at, path, key, status, latency_ms, request_body, response_body)
   VALUES (?, ?, ?, ?, ?, ?, ?)`,
);
const index = db.prepare<[number | bigint, Buffer]>(
  'INSERT INTO search (rowid, body) VALUES (?, ?)',
);

/** The key writes asked for in one turn, committed together; each resolves once committed. */
let keyWrites: { write: () => unknown; done: (value: unknown) => void }[] = [];
const commitKeys = db.transaction((writes: typeof keyWrites) => writes.map(({ write }) => write()));
function keyWrite<T>(write: () => T): Promise<T> {
  if (keyWrites.length === 0) {
    setImmediate(() => {
      const writes = keyWrites;
      keyWrites = [];
      const results = commitKeys(writes);
      writes.forEach(({ done }, i) => done(results[i]));
    });
  }
  return new Promise((resolve) => keyWrites.push({ write, done: resolve as (v: unknown) => void }));
}

interface Call {
  at: number;
  path: string;
  key: string;
  status: number;
  latencyMs: number;
  request: { sha256: Buffer; bytes: Buffer };
  response: { sha256: Buffer; bytes: Buffer };
}
let calls: Call[] = [];
let journalTimer: NodeJS.Timeout | null = null;
function keepBody(body: Call['request'], fresh: { id: number; bytes: Buffer }[]): number {
  const found = findBody.get(body.sha256);
  if (found) return found.id;
  const id = Number(insertBody.run(body.sha256, body.bytes).lastInsertRowid);
  fresh.push({ id, bytes: body.bytes });
  return id;
}
const writeJournal = db.transaction((batch: Call[]) => {
  const fresh: { id: number; bytes: Buffer }[] = [];
  for (const call of batch) {
    const request = keepBody(call.request, fresh);
    const response = keepBody(call.response, fresh);
    insertCall.run(call.at, call.path, call.key, call.status, call.latencyMs, request, response);
  }
  for (const { id, bytes } of fresh) index.run(id, bytes);
});
function flushJournal() {
  if (journalTimer) clearTimeout(journalTimer);
  journalTimer = null;
  const batch = calls;
  calls = [];
  if (batch.length > 0) writeJournal(batch);
}
function journal(call: Call) {
  calls.push(call);
  if (calls.length >= 64) flushJournal();
  else journalTimer ??= setTimeout(flushJournal, 50);
}

const insertAudit = db.prepare<[number, string, number, string]>(
  `INSERT INTO audit (at, event, address, status, details) VALUES (?, 'send', ?, ?, ?)`,
);
let events: [number, string, number, string][] = [];
const writeAudit = db.transaction((batch: typeof events) => {
  for (const event of batch) insertAudit.run(...event);
});
function audit(event: (typeof events)[number]) {
  events.push(event);
  if (events.length === 1) {
    setTimeout(() => {
      const batch = events;
      events = [];
      writeAudit(batch);
    }, 50);
  } else if (events.length >= 200) {
    const batch = events;
    events = [];
    writeAudit(batch);
  }
}

const log = pino(pino.destination({ dest: logFile, sync: true }));
const app = signing.bytesApp();

app.post('/api/vms/requisitionimport', async (request, reply) => {
  const started = performance.now();
  const body = request.body as Buffer;
  const key = request.headers['idempotency-key'];
  if (typeof key !== 'string') return reply.code(400).send({ error: 'no Idempotency-Key' });
  const problem = signing.batchProblem(body);
  if (problem) return reply.code(400).send({ error: problem });
  const bodySha = createHash('sha256').update(body).digest();
  const fingerprint = createHash('sha256')
    .update(`POST ${request.url}\n`)
    .update(bodySha)
    .digest('hex');
  const admitted = await keyWrite(() => insertKey.run(key, fingerprint).changes === 1);
  if (!admitted) return reply.code(409).send({ error: 'key in use' });
  const answer = await signing.forwardSigned(
    upstream,
    'POST',
    'requisitionimport',
    request.url,
    body,
  );
  const { bytes } = answer;
  await keyWrite(() => settleKey.run(answer.status, bytes, key));
  const latencyMs = performance.now() - started;
  if (journalOn) {
    journal({
      at: Date.now(),
      path: request.url,
      key,
      status: answer.status,
      latencyMs,
      request: { sha256: bodySha, bytes: body },
      response: { sha256: createHash('sha256').update(bytes).digest(), bytes },
    });
  }
  audit([
    Date.now(),
    request.ip,
    answer.status,
    JSON.stringify({ operation: 'requisitionimport', idempotencyKey: key, durationMs: latencyMs }),
  ]);
  log.info({
    reqId: request.id,
    operation: 'requisitionimport',
    status: answer.status,
    durationMs: latencyMs,
    idempotencyKey: key,
  });
  return signing.sendAnswer(reply, answer);
});

await signing.serveForBench(app);
