import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ApiError } from '@/domain/api-error';
import type { StoreTarget } from '@/server/store/database';
import { openPortalStores, type PortalStores } from '@/test-support/portal-stores';
import { createTestDatabase, postgresEnvName } from '@/test-support/postgres-server';
import { IdempotencyGate, type IdempotencyGateOptions, type KeyedCall } from './idempotency';
import {
  callFingerprint,
  type CallOutcome,
  type ForwardResult,
  type GateOutcome,
} from './idempotency-key';

const accepted: CallOutcome = {
  status: 202,
  headers: { 'content-type': 'application/json' },
  body: Buffer.from('{"batchid":"rb_1","received":2}'),
};
const refused: CallOutcome = {
  status: 400,
  headers: { 'content-type': 'application/json' },
  body: Buffer.from('{"error":{"code":"invalid_body","message":"no","details":[]}}'),
};
const reset = new ApiError('upstream_unreachable', 'connection closed unexpectedly');

async function codeOf(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof ApiError) return error.code;
    throw error;
  }
  throw new Error('expected a refusal');
}

/** The same cases on both databases the keys can live in (decision 027). */
const backends: [string, (dir: string) => StoreTarget][] = [
  ['SQLite', (dir) => ({ portalDb: join(dir, 'portal.db'), databaseUrl: null })],
  [
    'PostgreSQL',
    () => {
      const adminUrl = process.env[postgresEnvName];
      if (!adminUrl) throw new Error(`${postgresEnvName} is unset: the global setup starts it`);
      return { portalDb: ':memory:', databaseUrl: createTestDatabase(adminUrl) };
    },
  ],
];

describe.each(backends)('IdempotencyGate on %s', (_name, targetIn) => {
  let dir: string;
  let target: StoreTarget;
  let database: PortalStores;
  let clock: number;

  function gateOn(db: PortalStores, ttlMs?: number, options: IdempotencyGateOptions = {}) {
    return new IdempotencyGate(db.idempotencyKeys, {
      now: () => clock,
      ...(ttlMs === undefined ? {} : { ttlMs }),
      ...options,
    });
  }

  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'portal-db-'));
    target = targetIn(dir);
    database = await openPortalStores(target);
    clock = 1_800_000_000_000;
  });

  afterEach(async () => {
    await database.close().catch(() => {});
    rmSync(dir, { recursive: true, force: true });
  });

  it('lets the first call through, makes a duplicate wait for it, and replays it afterwards', async () => {
    const gate = gateOn(database);
    const first = await gate.admit('k1', 'fp');
    expect(first.kind).toBe('first');
    const duplicate = await gate.admit('k1', 'fp');
    expect(duplicate.kind).toBe('in_flight');
    if (first.kind !== 'first' || duplicate.kind !== 'in_flight') return;

    await first.finish({ kind: 'answered', outcome: accepted });
    expect((await duplicate.answer).body.toString()).toBe('{"batchid":"rb_1","received":2}');
    const repeat = await gate.admit('k1', 'fp');
    expect(repeat).toMatchObject({ kind: 'replay', outcome: { status: 202 } });
  });

  it('remembers an accepted answer across a restart of the portal (same database file)', async () => {
    const first = await gateOn(database).admit('k2', 'fp');
    if (first.kind !== 'first') throw new Error('expected first');
    await first.finish({ kind: 'answered', outcome: accepted });
    await database.close();

    database = await openPortalStores(target);
    const restarted = gateOn(database);
    await restarted.recover();
    const repeat = await restarted.admit('k2', 'fp');
    expect(repeat.kind).toBe('replay');
    if (repeat.kind === 'replay') expect(repeat.outcome.body.equals(accepted.body)).toBe(true);
  });

  it('reads a call that was in flight at a restart as outcome unknown, never as free', async () => {
    const first = await gateOn(database).admit('k3', 'fp');
    expect(first.kind).toBe('first');
    await database.close(); // the process stops before the VMS answers

    database = await openPortalStores(target);
    const restarted = gateOn(database);
    await restarted.recover();
    expect(await codeOf(restarted.admit('k3', 'fp'))).toBe('outcome_unknown');
    expect(await codeOf(restarted.admit('k3', 'fp'))).toBe('outcome_unknown');
  });

  it('marks a call that may have arrived without an answer as unknown, for waiters too', async () => {
    const gate = gateOn(database);
    const first = await gate.admit('k4', 'fp');
    const waiter = await gate.admit('k4', 'fp');
    if (first.kind !== 'first' || waiter.kind !== 'in_flight') throw new Error('unexpected');
    const answered = await first.finish({ kind: 'uncertain', failure: reset });
    expect(answered.status).toBe(409);
    expect(JSON.parse((await waiter.answer).body.toString())).toMatchObject({
      error: { code: 'outcome_unknown' },
    });
    expect(await codeOf(gate.admit('k4', 'fp'))).toBe('outcome_unknown');
  });

  it('frees the key when the call certainly never left, or the VMS refused it', async () => {
    const gate = gateOn(database);
    const notSent = await gate.admit('k5', 'fp');
    if (notSent.kind !== 'first') throw new Error('expected first');
    const unreachable = new ApiError('upstream_unreachable', 'connection refused');
    expect((await notSent.finish({ kind: 'not_sent', failure: unreachable })).status).toBe(502);
    const retry = await gate.admit('k5', 'fp');
    expect(retry.kind).toBe('first');
    if (retry.kind !== 'first') return;
    await retry.finish({ kind: 'answered', outcome: refused });
    expect((await gate.admit('k5', 'fp')).kind).toBe('first');
  });

  it('refuses the same key for a different request', async () => {
    const gate = gateOn(database);
    await gate.admit('k6', 'fp-a');
    expect(await codeOf(gate.admit('k6', 'fp-b'))).toBe('idempotency_conflict');
  });

  it('forgets keys after the retention period, and the purge removes them', async () => {
    const gate = gateOn(database, 1000);
    const first = await gate.admit('k7', 'fp');
    if (first.kind !== 'first') throw new Error('expected first');
    await first.finish({ kind: 'answered', outcome: accepted });
    clock += 999;
    expect((await gate.admit('k7', 'fp')).kind).toBe('replay');
    clock += 1;
    expect(await gate.purge()).toBe(1);
    expect((await gate.admit('k7', 'fp')).kind).toBe('first');
  });

  it('refuses to forward (503) when the database cannot record the key, and says so', async () => {
    const gate = gateOn(database);
    await database.close();
    expect(await codeOf(gate.admit('k8', 'fp'))).toBe('store_unavailable');
  });

  it("with a shared database, waits for another process's call with the key, then replays it", async () => {
    const other = await openPortalStores(target);
    try {
      const elsewhere = gateOn(other, undefined, { shared: true });
      const here = gateOn(database, undefined, { shared: true, waitElsewhereMs: 5000, pollMs: 20 });
      const first = await elsewhere.admit('k9', 'fp');
      if (first.kind !== 'first') throw new Error('expected first');
      const waiting = here.admit('k9', 'fp');
      await new Promise((resolve) => setTimeout(resolve, 100));
      await first.finish({ kind: 'answered', outcome: accepted });
      expect(await waiting).toMatchObject({ kind: 'replay', outcome: { status: 202 } });
    } finally {
      await other.close();
    }
  });

  it('with a shared database, answers "still waiting" when the other process takes longer than the wait', async () => {
    const here = gateOn(database, undefined, { shared: true, waitElsewhereMs: 150, pollMs: 20 });
    const elsewhere = gateOn(database, undefined, { shared: true });
    expect((await elsewhere.admit('k10', 'fp')).kind).toBe('first');
    const started = performance.now();
    expect((await here.admit('k10', 'fp')).kind).toBe('in_flight_elsewhere');
    expect(performance.now() - started).toBeGreaterThanOrEqual(140);
  });

  it('with a shared database, claims a key the other process freed (its call never left)', async () => {
    const here = gateOn(database, undefined, { shared: true, waitElsewhereMs: 5000, pollMs: 20 });
    const elsewhere = gateOn(database, undefined, { shared: true });
    const first = await elsewhere.admit('k11', 'fp');
    if (first.kind !== 'first') throw new Error('expected first');
    const waiting = here.admit('k11', 'fp');
    await new Promise((resolve) => setTimeout(resolve, 60));
    await first.finish({
      kind: 'not_sent',
      failure: new ApiError('upstream_unreachable', 'refused'),
    });
    expect((await waiting).kind).toBe('first');
  });

  it("with a shared database, start-up leaves other processes' calls in flight and ends only abandoned ones", async () => {
    const elsewhere = gateOn(database, undefined, { shared: true });
    expect((await elsewhere.admit('old', 'fp')).kind).toBe('first');
    clock += 11 * 60_000;
    expect((await elsewhere.admit('recent', 'fp')).kind).toBe('first');
    const starting = gateOn(database, undefined, {
      shared: true,
      abandonedAfterMs: 10 * 60_000,
      waitElsewhereMs: 0,
    });
    await starting.recover();
    expect(await database.idempotencyKeys.find('old')).toMatchObject({ state: 'unknown' });
    expect(await database.idempotencyKeys.find('recent')).toMatchObject({ state: 'in_flight' });
    expect(await codeOf(starting.admit('old', 'fp'))).toBe('outcome_unknown');
    expect((await starting.admit('recent', 'fp')).kind).toBe('in_flight_elsewhere');
  });
});

/** A keyed call whose sends are counted, answered by `answer` (after `delayMs`, if given). */
function keyedCall(
  answer: () => ForwardResult,
  options: { delayMs?: number; timeoutMs?: number; draining?: boolean } = {},
) {
  const late: { result: ForwardResult; answer: CallOutcome }[] = [];
  const settling: Promise<unknown>[] = [];
  let sends = 0;
  const call: KeyedCall = {
    send: async () => {
      sends += 1;
      if (options.delayMs) await new Promise((resolve) => setTimeout(resolve, options.delayMs));
      return answer();
    },
    timeoutMs: options.timeoutMs ?? 5000,
    draining: () => options.draining ?? false,
    settling: (promise) => settling.push(promise),
    lateAnswer: (result, outcome) => late.push({ result, answer: outcome }),
  };
  return { call, late, settling, sends: () => sends };
}

const answered = (): ForwardResult => ({ kind: 'answered', outcome: accepted });

function bodyCode(outcome: CallOutcome): string {
  return (JSON.parse(outcome.body.toString()) as { error: { code: string } }).error.code;
}

describe.each(backends)(
  'IdempotencyGate.pass on %s: one outcome per keyed call',
  (_name, targetIn) => {
    let dir: string;
    let database: PortalStores;
    const gateOn = (options: IdempotencyGateOptions = {}) =>
      new IdempotencyGate(database.idempotencyKeys, options);

    beforeEach(async () => {
      dir = mkdtempSync(join(tmpdir(), 'portal-db-'));
      database = await openPortalStores(targetIn(dir));
    });

    afterEach(async () => {
      await database.close().catch(() => {});
      rmSync(dir, { recursive: true, force: true });
    });

    it('forwarded: the first call is sent once, and its answer settles the key', async () => {
      const gate = gateOn();
      const first = keyedCall(answered);
      const outcome = await gate.pass('p1', 'fp', first.call);
      expect(outcome).toMatchObject({ kind: 'forwarded', answer: { status: 202 } });
      expect(outcome.kind === 'forwarded' && outcome.result.kind).toBe('answered');
      expect(first.sends()).toBe(1);
      expect(first.settling).toHaveLength(1);
      expect(await database.idempotencyKeys.find('p1')).toMatchObject({ state: 'settled' });
    });

    it('forwarded: a call whose answer never came is answered 409 outcome_unknown', async () => {
      const outcome = await gateOn().pass(
        'p2',
        'fp',
        keyedCall(() => ({ kind: 'uncertain', failure: reset })).call,
      );
      expect(outcome.kind).toBe('forwarded');
      if (outcome.kind !== 'forwarded') return;
      expect(outcome.result.kind).toBe('uncertain');
      expect(outcome.answer.status).toBe(409);
      expect(bodyCode(outcome.answer)).toBe('outcome_unknown');
    });

    it('replayed: a repeat of an accepted call gets its answer, and the VMS is not asked', async () => {
      const gate = gateOn();
      await gate.pass('p3', 'fp', keyedCall(answered).call);
      const repeat = keyedCall(answered);
      const outcome = await gate.pass('p3', 'fp', repeat.call);
      expect(outcome.kind).toBe('replayed');
      if (outcome.kind === 'replayed') expect(outcome.answer.body.equals(accepted.body)).toBe(true);
      expect(repeat.sends()).toBe(0);
    });

    it('replayed: a repeat while the first is at the VMS waits for its answer', async () => {
      const gate = gateOn();
      const first = keyedCall(answered, { delayMs: 80 });
      const firstOutcome = gate.pass('p4', 'fp', first.call);
      await new Promise((resolve) => setTimeout(resolve, 20));
      const repeat = keyedCall(answered);
      const outcome = await gate.pass('p4', 'fp', repeat.call);
      expect(outcome).toMatchObject({ kind: 'replayed', answer: { status: 202 } });
      expect((await firstOutcome).kind).toBe('forwarded');
      expect(first.sends() + repeat.sends()).toBe(1);
    });

    it('waiting: a repeat whose first call takes longer than its wait is told so, and nothing is sent', async () => {
      const gate = gateOn();
      const first = keyedCall(answered, { delayMs: 150 });
      const firstOutcome = gate.pass('p5', 'fp', first.call);
      await new Promise((resolve) => setTimeout(resolve, 20));
      const repeat = keyedCall(answered, { timeoutMs: 30 });
      expect(await gate.pass('p5', 'fp', repeat.call)).toEqual({ kind: 'waiting', first: false });
      expect(repeat.sends()).toBe(0);
      await firstOutcome;
    });

    it("waiting: with a shared database, a repeat of another process's call in flight is told so", async () => {
      const elsewhere = gateOn({ shared: true });
      const here = gateOn({ shared: true, waitElsewhereMs: 60, pollMs: 20 });
      expect((await elsewhere.admit('p11', 'fp')).kind).toBe('first');
      const repeat = keyedCall(answered);
      expect(await here.pass('p11', 'fp', repeat.call)).toEqual({ kind: 'waiting', first: false });
      expect(repeat.sends()).toBe(0);
    });

    it('waiting (first): the browser is told to wait, and the late answer still settles the key', async () => {
      const gate = gateOn();
      const first = keyedCall(answered, { delayMs: 120, timeoutMs: 30 });
      expect(await gate.pass('p6', 'fp', first.call)).toEqual({ kind: 'waiting', first: true });
      expect(first.late).toHaveLength(0);
      await Promise.all(first.settling);
      expect(first.late).toHaveLength(1);
      expect(first.late[0]?.answer.status).toBe(202);
      expect(await database.idempotencyKeys.find('p6')).toMatchObject({ state: 'settled' });
      expect((await gate.pass('p6', 'fp', keyedCall(answered).call)).kind).toBe('replayed');
    });

    it('unknown: a repeat of a call whose answer never came is refused, nothing sent', async () => {
      const gate = gateOn();
      await gate.pass('p7', 'fp', keyedCall(() => ({ kind: 'uncertain', failure: reset })).call);
      const repeat = keyedCall(answered);
      const outcome = await gate.pass('p7', 'fp', repeat.call);
      expect(outcome.kind).toBe('unknown');
      if (outcome.kind === 'unknown') expect(outcome.error.code).toBe('outcome_unknown');
      expect(repeat.sends()).toBe(0);
    });

    it('conflict: the same key for a different request is refused, nothing sent', async () => {
      const gate = gateOn();
      await gate.pass('p8', 'fp-a', keyedCall(answered).call);
      const other = keyedCall(answered);
      const outcome = await gate.pass('p8', 'fp-b', other.call);
      expect(outcome.kind).toBe('conflict');
      if (outcome.kind === 'conflict') {
        expect(outcome.error.code).toBe('idempotency_conflict');
        expect(outcome.error.statusCode).toBe(409);
      }
      expect(other.sends()).toBe(0);
    });

    it('unavailable: a key that cannot be recorded is refused, nothing sent', async () => {
      const gate = gateOn();
      await database.close();
      const call = keyedCall(answered);
      const outcome = await gate.pass('p9', 'fp', call.call);
      expect(outcome.kind).toBe('unavailable');
      if (outcome.kind === 'unavailable') expect(outcome.error.code).toBe('store_unavailable');
      expect(call.sends()).toBe(0);
    });

    it('draining: a key recorded as the drain began is freed again, nothing sent', async () => {
      const gate = gateOn();
      const call = keyedCall(answered, { draining: true });
      const outcome: GateOutcome = await gate.pass('p10', 'fp', call.call);
      expect(outcome.kind).toBe('draining');
      if (outcome.kind === 'draining') {
        expect(outcome.answer.status).toBe(503);
        expect(bodyCode(outcome.answer)).toBe('draining');
      }
      expect(call.sends()).toBe(0);
      expect(await database.idempotencyKeys.find('p10')).toBeUndefined();
    });
  },
);

describe('callFingerprint', () => {
  it('differs by method, address and body bytes', () => {
    const base = callFingerprint('POST', '/api/vms/candidates?a=1', Buffer.from('[{}]'));
    expect(callFingerprint('POST', '/api/vms/candidates?a=1', Buffer.from('[{}]'))).toBe(base);
    expect(callFingerprint('POST', '/api/vms/candidates?a=2', Buffer.from('[{}]'))).not.toBe(base);
    expect(callFingerprint('POST', '/api/vms/candidates?a=1', Buffer.from('[{} ]'))).not.toBe(base);
    expect(callFingerprint('PUT', '/api/vms/candidates?a=1', Buffer.from('[{}]'))).not.toBe(base);
  });
});
