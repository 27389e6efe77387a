import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openPortalStores, type PortalStores } from '@/test-support/portal-stores';
import { CallTracker } from './call-tracker';
import { IdempotencyGate } from './idempotency';

/*
 * The calls at the VMS, as a drain sees them: waited for while they finish, counted when they
 * end during the drain, and past the wait their keys marked unknown before they are aborted.
 */

let stores: PortalStores;
let draining: boolean;

beforeEach(async () => {
  stores = await openPortalStores({ portalDb: ':memory:', databaseUrl: null });
  draining = false;
});

afterEach(async () => {
  await stores.close();
});

describe('CallTracker', () => {
  it('waits for the calls at the VMS and counts those that ended during the drain', async () => {
    const calls = new CallTracker(() => draining);
    let answer = () => {};
    const call = new Promise<void>((resolve) => {
      answer = resolve;
    });
    calls.track(calls.unkeyed, call);
    expect(calls.inFlight).toBe(1);
    draining = true;
    let aborted = false;
    const settling = calls.settle(5000, new IdempotencyGate(stores.idempotencyKeys), async () => {
      aborted = true;
    });
    setTimeout(answer, 20);
    expect(await settling).toEqual({ finished: 1, markedUnknown: 0, timedOut: false });
    expect(aborted).toBe(false);
    expect(calls.inFlight).toBe(0);
  });

  it('past its wait, marks the keys in flight unknown, then aborts the calls', async () => {
    const gate = new IdempotencyGate(stores.idempotencyKeys);
    const admission = await gate.admit('k-1', 'fp');
    expect(admission.kind).toBe('first');
    const calls = new CallTracker(() => draining);
    calls.track(calls.settling, new Promise(() => {}));
    draining = true;
    let keyStateWhenAborted: string | undefined;
    const settled = await calls.settle(30, gate, async () => {
      keyStateWhenAborted = (await stores.idempotencyKeys.find('k-1'))?.state;
    });
    expect(settled).toEqual({ finished: 0, markedUnknown: 1, timedOut: true });
    expect(keyStateWhenAborted).toBe('unknown');
  });

  it('keeps a failed call out of the count of calls at the VMS, without an unhandled rejection', async () => {
    const calls = new CallTracker(() => false);
    const failing = Promise.reject(new Error('reset'));
    calls.track(calls.unkeyed, failing);
    await expect(failing).rejects.toThrow('reset');
    await new Promise((resolve) => setImmediate(resolve));
    expect(calls.inFlight).toBe(0);
  });
});
