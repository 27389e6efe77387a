import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { journalDetailSchema, journalPageSchema } from '@/domain/journal';
import { portalSchemaVersion } from '@/server/portal-schema';
import {
  defaultResponder,
  requisitionImportPath,
  startCaptureUpstream,
  startTestPortal,
  testConfig,
  type CaptureUpstream,
  type TestPortal,
} from '@/test-support/capture-upstream';

// Recording never fails a call; and a batch's late answer reaches its entry.

const json = { 'content-type': 'application/json' };
const batch = '[{"clientinternalreq":"UNRECORDED-1","titlerole":"Confidential title"}]';

let dir: string;
let file: string;
let upstream: CaptureUpstream;
const portals: TestPortal[] = [];

async function portal(env: NodeJS.ProcessEnv = {}): Promise<TestPortal> {
  const started = await startTestPortal(testConfig(upstream.url, { PORTAL_DB: file, ...env }));
  portals.push(started);
  return started;
}

async function health(running: TestPortal) {
  return (await running.call('GET', '/api/health')).json();
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'portal-journal-fail-'));
  file = join(dir, 'portal.db');
  upstream = await startCaptureUpstream();
});

afterEach(async () => {
  for (const running of portals.splice(0)) await running.close();
  await upstream.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('a journal that cannot be written', () => {
  it('does not fail or hold up the call; it is logged once, without bodies, and shown in health', async () => {
    const running = await portal();
    // Another connection makes the journal's table refuse every row (a schema change every
    // connection sees), while the idempotency keys beside it still work.
    const saboteur = new Database(file);
    saboteur.exec(`CREATE TRIGGER journal_refuses BEFORE INSERT ON journal_calls
      BEGIN SELECT RAISE(ABORT, 'journal_calls is read-only in this test'); END;`);

    for (let i = 0; i < 3; i += 1) {
      const res = await running.call('POST', requisitionImportPath, {
        headers: { ...json, 'idempotency-key': `unrecorded-${i}` },
        body: batch,
      });
      expect(res.status).toBe(202);
    }
    expect(
      (
        await running.call(
          'GET',
          `${requisitionImportPath.replace('requisitionimport', 'requisitions')}`,
        )
      ).status,
    ).toBe(200);
    expect(upstream.requests).toHaveLength(4);
    // The failed writes happen after the answers; reading the list waits for them.
    expect(
      journalPageSchema.parse((await running.call('GET', '/api/journal')).json()).entries,
    ).toEqual([]);

    const failures = running
      .logLines()
      .filter((line) => String(line.msg).startsWith('call journal'));
    expect(failures).toHaveLength(1);
    expect(failures[0]).toMatchObject({
      level: 50,
      reason: expect.stringContaining('read-only in this test'),
    });
    expect(running.rawLog()).not.toContain('Confidential title');
    expect(running.rawLog()).not.toContain('UNRECORDED-1');
    expect(await health(running)).toEqual({
      status: 'degraded',
      database: { kind: 'sqlite', schemaVersion: portalSchemaVersion },
      reasons: [expect.stringContaining('call journal (PORTAL_DB)')],
    });

    saboteur.exec('DROP TRIGGER journal_refuses');
    saboteur.close();
    expect(
      (await running.call('POST', requisitionImportPath, { headers: json, body: batch })).status,
    ).toBe(202);
    const { entries } = journalPageSchema.parse((await running.call('GET', '/api/journal')).json());
    expect(entries).toHaveLength(1);
    expect(await health(running)).toEqual({
      status: 'ok',
      database: { kind: 'sqlite', schemaVersion: portalSchemaVersion },
    });
    expect(running.logLines().at(-1)).toMatchObject({
      msg: 'call journal: writes work again',
      unrecorded: 4,
    });
  });
});

describe('a journal whose writing is behind', () => {
  it('holds a new call before it is sent until the calls waiting are written', async () => {
    // Held from one call waiting: each call finds the one before it still queued (the journal
    // writes ~50 ms after an answer), as every call does under a load the writer cannot match.
    const running = await startTestPortal(testConfig(upstream.url, { PORTAL_DB: file }), {
      journalHold: { fromCalls: 1, fromBytes: 64 * 1024 * 1024, atMostMs: 60_000 },
    });
    portals.push(running);
    const reader = new Database(file, { readonly: true });
    const count = reader.prepare<[], { n: number }>('SELECT count(*) AS n FROM journal_calls');
    const writtenWhenSent: number[] = [];
    upstream.respondWith((captured) => {
      writtenWhenSent.push(count.get()?.n ?? -1);
      return defaultResponder(captured);
    });
    for (let i = 0; i < 3; i += 1) {
      const res = await running.call('POST', requisitionImportPath, { headers: json, body: batch });
      expect(res.status).toBe(202);
    }
    reader.close();
    // Each call reached the VMS only once the calls before it were in the journal.
    expect(writtenWhenSent).toEqual([0, 1, 2]);
    const behind =
      'call journal: writing is behind; new calls wait before they are sent until it catches up';
    const caughtUp = 'call journal: writing caught up; calls go on at once';
    expect(
      running
        .logLines()
        .filter((line) => String(line.msg).startsWith('call journal'))
        .map((line) => [line.msg, line.waiting ?? line.held]),
    ).toEqual([
      [behind, 1],
      [caughtUp, 1],
      [behind, 1],
      [caughtUp, 1],
    ]);
  });
});

describe('a batch answered after the browser’s 504', () => {
  it('is recorded as a timeout, then completed with the VMS’s late answer', async () => {
    const running = await portal({ VMS_TIMEOUT_MS: '200', VMS_LATE_ANSWER_MS: '5000' });
    upstream.respondWith(() => ({
      status: 202,
      headers: json,
      body: '{"batchid":"rb_late_journal","received":1}',
      delayMs: 1500,
    }));
    const res = await running.call('POST', requisitionImportPath, {
      headers: { ...json, 'idempotency-key': 'late-journal-1' },
      body: batch,
    });
    expect(res.status).toBe(504);
    const [entry] = journalPageSchema.parse(
      (await running.call('GET', '/api/journal')).json(),
    ).entries;
    expect(entry).toMatchObject({
      status: 504,
      outcome: 'failed',
      failure: 'timeout',
      errorCode: 'upstream_timeout',
      upstreamStatus: null,
      batchId: null,
    });

    await sleep(1800);
    const full = journalDetailSchema.parse(
      (await running.call('GET', `/api/journal/${entry?.id}`)).json(),
    );
    expect(full).toMatchObject({
      status: 504,
      batchId: 'rb_late_journal',
      lateAnswer: {
        status: 202,
        headers: { 'content-type': 'application/json' },
        body: { text: '{"batchid":"rb_late_journal","received":1}' },
      },
    });
    expect(full.lateAnswer?.latencyMs).toBeGreaterThan(1000);
  });
});
