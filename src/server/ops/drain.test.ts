import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { request } from 'undici';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { apiErrorBodySchema } from '@/domain/api-error';
import { buildPortal } from '@/server/app';
import type { PortalConfig } from '@/server/config';
import { REPLAYED_HEADER } from '@/server/proxy/vms-proxy';
import {
  requisitionImportPath,
  startCaptureUpstream,
  startTestPortal,
  testConfig,
  testCredentials,
  type CaptureUpstream,
  type TestPortal,
} from '@/test-support/capture-upstream';
import { queryTestDatabase } from '@/test-support/test-database';

/*
 * The drain (SIGTERM, SIGINT) loses nothing: calls at the VMS finish or their keys end unknown,
 * never forgotten; new sends are refused unsent; a retry anywhere is the remembered answer or
 * 409 outcome_unknown, never a second send. Run on SQLite and (the postgres project) PostgreSQL;
 * every count is taken at the upstream, every key state read from the database.
 */

const batches = 20;
const upstreamDelayMs = 1500;

let dir: string;
let portalDb: string;
let upstream: CaptureUpstream;
const portals: TestPortal[] = [];
const apps: FastifyInstance[] = [];

interface DrainingPortal {
  app: FastifyInstance;
  url: string;
  config: PortalConfig;
  logLines(): Record<string, unknown>[];
  rawLog(): string;
}

/** The portal under test, with its Fastify instance at hand: the drain is called on it. */
async function drainingPortal(env: NodeJS.ProcessEnv = {}): Promise<DrainingPortal> {
  const config = testConfig(upstream.url, { PORTAL_DB: portalDb, ...env });
  let log = '';
  const logStream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      log += chunk.toString('utf8');
      done();
    },
  });
  const app = buildPortal(config, { logStream });
  apps.push(app);
  const url = await app.listen({ port: 0, host: '127.0.0.1' });
  return {
    app,
    url,
    config,
    logLines: () =>
      log
        .split('\n')
        .filter((line) => line.trim() !== '')
        .map((line): Record<string, unknown> => JSON.parse(line)),
    rawLog: () => log,
  };
}

async function secondPortal(): Promise<TestPortal> {
  const started = await startTestPortal(testConfig(upstream.url, { PORTAL_DB: portalDb }));
  portals.push(started);
  return started;
}

const keyOf = (index: number) => `drain-key-${String(index).padStart(2, '0')}`;
const bodyOf = (index: number) =>
  JSON.stringify([{ titlerole: 'Welder', clientinternalreq: `DRAIN-${index}` }]);

async function post(url: string, key: string | null, body: string) {
  const res = await request(`${url}${requisitionImportPath}`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      ...(key === null ? {} : { 'idempotency-key': key }),
    },
    body,
  });
  const text = await res.body.text();
  return { status: res.statusCode, headers: res.headers, text };
}

async function get(url: string, path: string) {
  const res = await request(`${url}${path}`);
  const text = await res.body.text();
  return { status: res.statusCode, json: () => JSON.parse(text) as Record<string, unknown> };
}

const errorCode = (text: string) => apiErrorBodySchema.parse(JSON.parse(text)).error.code;

/** How many times the upstream received each batch, by its body. */
function receivedPerBatch(): Map<string, number> {
  const seen = new Map<string, number>();
  for (const captured of upstream.requests) {
    if (captured.method !== 'POST') continue;
    const body = captured.body.toString('utf8');
    seen.set(body, (seen.get(body) ?? 0) + 1);
  }
  return seen;
}

const postsReceived = () => upstream.requests.filter((r) => r.method === 'POST').length;

async function until(condition: () => boolean, timeoutMs = 10_000): Promise<void> {
  const started = Date.now();
  while (!condition()) {
    if (Date.now() - started > timeoutMs) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

async function keyStates(): Promise<Map<string, string>> {
  const rows = await queryTestDatabase<{ key: string; state: string }>(
    portalDb,
    "SELECT key, state FROM idempotency_keys WHERE key LIKE 'drain-%'",
  );
  return new Map(rows.map((row) => [row.key, row.state]));
}

/** Whether the drained portal let go of its database: no connection left, nothing unwritten. */
async function databaseClosed(config: PortalConfig): Promise<boolean> {
  if (config.databaseUrl === null) {
    // SQLite folds the WAL back into the file and removes it when the last connection closes.
    return !existsSync(`${portalDb}-wal`);
  }
  const name = new URL(config.databaseUrl).pathname.slice(1);
  const rows = await queryTestDatabase<{ open: number }>(
    portalDb,
    `SELECT count(*)::int AS open FROM pg_stat_activity WHERE datname = '${name}' AND application_name = 'vms-portal'`,
  );
  return rows[0]?.open === 0;
}

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'portal-drain-'));
  portalDb = join(dir, 'portal.db');
  upstream = await startCaptureUpstream();
  let accepted = 0;
  upstream.respondWith((captured) =>
    captured.method === 'POST'
      ? {
          status: 202,
          delayMs: upstreamDelayMs,
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ batchid: `rb_${(accepted += 1)}`, received: 1 }),
        }
      : { status: 200, headers: { 'content-type': 'application/json' }, body: '[]' },
  );
});

afterEach(async () => {
  for (const running of portals.splice(0)) await running.close();
  for (const app of apps.splice(0)) await app.close();
  await upstream.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('draining a portal with 20 keyed batches at a slow VMS', () => {
  it('lets every call finish, refuses new sends unsent, and leaves each key answered', async () => {
    const portal = await drainingPortal({ PORTAL_DRAIN_TIMEOUT_MS: '10000' });
    const sends = Array.from({ length: batches }, (_, index) =>
      post(portal.url, keyOf(index), bodyOf(index)),
    );
    await until(() => postsReceived() === batches);
    expect((await get(portal.url, '/api/health/ready')).status).toBe(200);

    const drained = portal.app.drainPortal();
    // While it drains: not ready, still alive, reads still served, and no new send forwarded.
    const ready = await get(portal.url, '/api/health/ready');
    expect(ready.status).toBe(503);
    expect(ready.json()).toMatchObject({ status: 'draining' });
    expect(String(ready.json().reasons)).toContain('draining');
    expect((await get(portal.url, '/api/health/live')).status).toBe(200);
    expect(
      (await get(portal.url, '/api/vms/requisitions?Client_Org_Id=1001&Vendor_Org_Id=9001')).status,
    ).toBe(200);
    const refused = [
      await post(portal.url, 'drain-new-1', bodyOf(100)),
      await post(portal.url, null, bodyOf(101)),
      // A repeat of a key in flight is a new request too: refused, the first call unaffected.
      await post(portal.url, keyOf(0), bodyOf(0)),
    ];
    for (const answer of refused) {
      expect(answer.status).toBe(503);
      expect(errorCode(answer.text)).toBe('draining');
      expect(JSON.parse(answer.text).error.message).toContain('Nothing was sent.');
    }
    expect(postsReceived()).toBe(batches);

    const report = await drained;
    // The 20 batches, and the read made during the drain.
    expect(report).toMatchObject({ callsFinished: batches + 1, keysMarkedUnknown: 0 });
    expect(report.timedOut).toBe(false);
    expect(report.journalFlushed).toBeGreaterThanOrEqual(batches);
    const answers = await Promise.all(sends);
    expect(answers.map((answer) => answer.status)).toEqual(Array(batches).fill(202));
    expect(await databaseClosed(portal.config)).toBe(true);

    const states = await keyStates();
    expect(states.size).toBe(batches); // the refused new key was never recorded
    for (let index = 0; index < batches; index += 1) {
      expect(states.get(keyOf(index))).toBe('settled');
    }
    const lines = portal.logLines();
    const started = lines.find((line) => line.msg === 'drain started');
    const ended = lines.find((line) => line.msg === 'drain finished');
    expect(started).toMatchObject({ callsInFlight: batches });
    expect(ended).toMatchObject({ callsFinished: batches + 1, keysMarkedUnknown: 0 });
    expect(ended?.journalFlushed).toBeGreaterThanOrEqual(batches);
    for (const line of [started, ended]) {
      expect(JSON.stringify(line)).not.toContain(testCredentials.apiSecret);
      expect(JSON.stringify(line)).not.toContain(testCredentials.apiKey);
    }

    // Every batch reached the VMS once; a retry on another process is the remembered answer.
    const other = await secondPortal();
    for (let index = 0; index < batches; index += 1) {
      const retry = await post(other.url, keyOf(index), bodyOf(index));
      expect(retry.status).toBe(202);
      expect(retry.headers[REPLAYED_HEADER]).toBe('true');
    }
    expect(postsReceived()).toBe(batches);
    expect([...receivedPerBatch().values()]).toEqual(Array(batches).fill(1));
  });

  it('marks the keys still waiting when the drain time is up unknown, and their retries are 409', async () => {
    const portal = await drainingPortal({ PORTAL_DRAIN_TIMEOUT_MS: '300' });
    // With a shared database the other process runs all along and reads the keys as they are
    // written; an SQLite file belongs to one process, so there it is the restarted one.
    const shared = portal.config.databaseUrl !== null;
    const early = shared ? await secondPortal() : null;
    const sends = Array.from({ length: batches }, (_, index) =>
      post(portal.url, keyOf(index), bodyOf(index)),
    );
    await until(() => postsReceived() === batches);

    const report = await portal.app.drainPortal();
    expect(report).toMatchObject({ keysMarkedUnknown: batches, timedOut: true, callsFinished: 0 });
    const states = await keyStates();
    expect([...states.values()]).toEqual(Array(batches).fill('unknown'));
    // The browsers still waiting learn it too.
    for (const answer of await Promise.all(sends)) {
      expect(answer.status).toBe(409);
      expect(errorCode(answer.text)).toBe('outcome_unknown');
    }
    // (The other process on a shared database has connections of its own: the first test checks
    // that the drained one lets go of its.)
    if (early === null) expect(await databaseClosed(portal.config)).toBe(true);
    expect(portal.logLines().find((line) => line.msg === 'drain finished')).toMatchObject({
      keysMarkedUnknown: batches,
      timedOut: true,
    });

    const other = early ?? (await secondPortal());
    for (let index = 0; index < batches; index += 1) {
      const retry = await post(other.url, keyOf(index), bodyOf(index));
      expect(retry.status).toBe(409);
      expect(errorCode(retry.text)).toBe('outcome_unknown');
    }
    // Long after the VMS's late answers would have come: still one call per batch.
    await new Promise((resolve) => setTimeout(resolve, upstreamDelayMs));
    expect(postsReceived()).toBe(batches);
    expect([...receivedPerBatch().values()]).toEqual(Array(batches).fill(1));
  });
});
