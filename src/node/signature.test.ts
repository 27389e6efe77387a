import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { computeSignature, signatureHeaders, unixSeconds, verifySignature } from './signature';

describe('computeSignature', () => {
  it('matches the published test vector', () => {
    // The real service's documentation publishes this example; confirmed with sha256sum.
    expect(
      computeSignature(
        '5bcef48a3f03d311ff27d156630baf849e3b438b8a48fec99239d5c9',
        'foobar',
        1546259837,
      ),
    ).toBe('fce2e80253cd438b666341176f34bde499116b63719e2482dae6965518ffd316');
  });

  it('is lowercase hex SHA-256 of key + secret + seconds', () => {
    const expected = createHash('sha256').update('keysecret1700000000').digest('hex');
    expect(computeSignature('key', 'secret', 1700000000)).toBe(expected);
    expect(computeSignature('key', 'secret', 1700000000)).toMatch(/^[0-9a-f]{64}$/);
  });

  it('changes with every input', () => {
    const base = computeSignature('k', 's', 1);
    expect(computeSignature('k2', 's', 1)).not.toBe(base);
    expect(computeSignature('k', 's2', 1)).not.toBe(base);
    expect(computeSignature('k', 's', 2)).not.toBe(base);
  });
});

describe('signatureHeaders', () => {
  it('signs with the current Unix second', () => {
    const now = Date.UTC(2026, 10, 21, 12, 0, 0, 999);
    const headers = signatureHeaders('key', 'secret', now);
    expect(headers['x-api-key']).toBe('key');
    expect(headers['x-signature']).toBe(computeSignature('key', 'secret', unixSeconds(now)));
    expect(unixSeconds(now)).toBe(Math.floor(Date.UTC(2026, 10, 21, 12, 0, 0) / 1000));
  });
});

describe('verifySignature', () => {
  const now = 1_800_000_000_000;
  const ts = unixSeconds(now);

  it('accepts a signature within ±300 s and refuses one outside', () => {
    expect(verifySignature('k', 's', computeSignature('k', 's', ts), { now })).toBe(true);
    expect(verifySignature('k', 's', computeSignature('k', 's', ts - 300), { now })).toBe(true);
    expect(verifySignature('k', 's', computeSignature('k', 's', ts + 300), { now })).toBe(true);
    expect(verifySignature('k', 's', computeSignature('k', 's', ts - 301), { now })).toBe(false);
    expect(verifySignature('k', 's', computeSignature('k', 's', ts + 301), { now })).toBe(false);
  });

  it('refuses a wrong secret and malformed signatures', () => {
    expect(verifySignature('k', 's', computeSignature('k', 'other', ts), { now })).toBe(false);
    expect(verifySignature('k', 's', 'not-hex', { now })).toBe(false);
    expect(verifySignature('k', 's', computeSignature('k', 's', ts).toUpperCase(), { now })).toBe(
      false,
    );
  });
});
