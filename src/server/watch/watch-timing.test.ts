import { describe, expect, it } from 'vitest';
import { requisitionPayload, candidatePayload } from '@/domain/payload-kind';
import { backoffMs, isSettled, retryAfterMs, stillPendingAfter } from './watch-timing';

const row = (status: string) => ({ row: 1, status, message: '', createdId: '', reference: '' });

describe('the watch’s timing', () => {
  it('doubles the wait per check up to the cap, jittered between half and all of it', () => {
    const backoff = { firstMs: 1000, maxMs: 60_000 };
    expect([0, 1, 2, 3].map((checks) => backoffMs(checks, backoff, () => 0.999999))).toEqual([
      1000, 2000, 4000, 8000,
    ]);
    expect(backoffMs(12, backoff, () => 0.999999)).toBe(60_000);
    expect(backoffMs(12, backoff, () => 0)).toBe(30_000);
    expect(backoffMs(500, backoff, () => 0.5)).toBe(45_000);
  });

  it('reads Retry-After as seconds or as an HTTP date, and nothing else', () => {
    const now = Date.parse('2026-11-29T12:00:00Z');
    expect(retryAfterMs('120', now)).toBe(120_000);
    expect(retryAfterMs('Sun, 29 Nov 2026 12:00:30 GMT', now)).toBe(30_000);
    expect(retryAfterMs('Sun, 29 Nov 2026 11:00:00 GMT', now)).toBe(0);
    expect(retryAfterMs('soon', now)).toBeNull();
    expect(retryAfterMs(undefined, now)).toBeNull();
  });

  it('calls a batch settled when it has rows and none is pending for its kind', () => {
    expect(isSettled(requisitionPayload, [])).toBe(false);
    expect(isSettled(requisitionPayload, [row('Success'), row('Pending')])).toBe(false);
    expect(isSettled(requisitionPayload, [row('Success'), row('Error')])).toBe(true);
    expect(isSettled(candidatePayload, [row('New'), row('Incomplete')])).toBe(true);
  });

  it('says how long a given-up batch was watched', () => {
    expect(stillPendingAfter(72 * 3_600_000)).toBe('still pending at the VMS after 72 h');
  });
});
