import { describe, expect, it } from 'vitest';
import { IdempotencyStore, callFingerprint, type CallOutcome } from './idempotency';
import { PortalError } from './portal-error';

const accepted: CallOutcome = { status: 202, headers: {}, body: Buffer.from('{"batchid":"1"}') };
const failed: CallOutcome = { status: 500, headers: {}, body: Buffer.from('down') };

function claimFirst(store: IdempotencyStore, key: string, fingerprint = 'f') {
  const claim = store.claim(key, fingerprint);
  if (claim.kind !== 'first') throw new Error(`expected a first claim for ${key}`);
  return claim;
}

describe('IdempotencyStore', () => {
  it('hands the in-flight outcome to a duplicate and the remembered one to a repeat', async () => {
    const store = new IdempotencyStore();
    const first = claimFirst(store, 'k');
    const duplicate = store.claim('k', 'f');
    expect(duplicate.kind).toBe('repeat');
    first.settle(accepted);
    if (duplicate.kind === 'repeat') expect(await duplicate.outcome).toBe(accepted);
    const repeat = store.claim('k', 'f');
    expect(repeat.kind).toBe('repeat');
    if (repeat.kind === 'repeat') expect(await repeat.outcome).toBe(accepted);
  });

  it('forgets a failed outcome once the waiters have it', async () => {
    const store = new IdempotencyStore();
    const first = claimFirst(store, 'k');
    const waiter = store.claim('k', 'f');
    first.settle(failed);
    if (waiter.kind === 'repeat') expect(await waiter.outcome).toBe(failed);
    expect(store.claim('k', 'f').kind).toBe('first');
  });

  it('refuses the same key for a different request', () => {
    const store = new IdempotencyStore();
    claimFirst(store, 'k', 'one').settle(accepted);
    expect(() => store.claim('k', 'two')).toThrow(PortalError);
    expect(() => store.claim('k', 'two')).toThrow(/different request/);
  });

  it('forgets remembered answers after the TTL', () => {
    let now = 0;
    const store = new IdempotencyStore({ ttlMs: 1000, now: () => now });
    claimFirst(store, 'k').settle(accepted);
    now = 999;
    expect(store.claim('k', 'f').kind).toBe('repeat');
    now = 1000;
    expect(store.claim('k', 'f').kind).toBe('first');
  });

  it('keeps at most maxKeys, dropping the oldest first', () => {
    const store = new IdempotencyStore({ maxKeys: 3 });
    for (const key of ['a', 'b', 'c', 'd']) claimFirst(store, key).settle(accepted);
    expect(store.size).toBe(3);
    expect(store.claim('a', 'f').kind).toBe('first');
    expect(store.claim('d', 'f').kind).toBe('repeat');
  });
});

describe('callFingerprint', () => {
  it('differs by method, address and body bytes', () => {
    const base = callFingerprint('POST', '/api/vms/candidates?a=1', Buffer.from('[{}]'));
    expect(callFingerprint('POST', '/api/vms/candidates?a=1', Buffer.from('[{}]'))).toBe(base);
    expect(callFingerprint('POST', '/api/vms/candidates?a=2', Buffer.from('[{}]'))).not.toBe(base);
    expect(callFingerprint('POST', '/api/vms/candidates?a=1', Buffer.from('[{} ]'))).not.toBe(base);
    expect(callFingerprint('PUT', '/api/vms/candidates?a=1', Buffer.from('[{}]'))).not.toBe(base);
  });
});
