import { describe, expect, it } from 'vitest';
import type { JournalBody } from '@/domain/journal';
import { compareBodies } from './compare';

function body(value: unknown): JournalBody {
  const text = JSON.stringify(value);
  return {
    text,
    encoding: 'utf8',
    size: text.length,
    sha256: '0'.repeat(64),
    truncated: false,
    redacted: false,
  };
}

describe('comparing a replay with its original', () => {
  it('finds nothing to show when the bodies read the same, however they were spaced', () => {
    expect(compareBodies(body([{ a: '1' }]), body([{ a: '1' }]))).toEqual({ kind: 'same' });
    const spaced = { ...body([{ a: '1' }]), text: '[ { "a" : "1" } ]' };
    expect(compareBodies(body([{ a: '1' }]), spaced)).toEqual({ kind: 'same' });
  });

  it('shows a changed value as one line out and one in, with the lines around it', () => {
    const items = Array.from({ length: 40 }, (_, i) => ({ clientinternalreq: `REQ-${i}` }));
    const changed = items.map((item, i) => (i === 20 ? { clientinternalreq: 'REQ-20X' } : item));
    const comparison = compareBodies(body(items), body(changed));
    if (comparison.kind !== 'different') throw new Error(comparison.kind);
    expect(comparison.hunks).toHaveLength(1);
    const [hunk] = comparison.hunks;
    expect(hunk?.lines.filter((line) => line.kind !== 'same')).toEqual([
      { kind: 'removed', text: '    "clientinternalreq": "REQ-20"' },
      { kind: 'added', text: '    "clientinternalreq": "REQ-20X"' },
    ]);
    // Three unchanged lines either side, not the other 39 items.
    expect(hunk?.lines).toHaveLength(8);
    expect(hunk?.original.start).toBe(hunk?.replay.start);
  });

  it('compares a body with none', () => {
    const comparison = compareBodies(null, body({ batchid: 'rb_2' }));
    if (comparison.kind !== 'different') throw new Error(comparison.kind);
    expect(comparison.hunks[0]?.lines).toEqual([
      { kind: 'removed', text: '(no body)' },
      { kind: 'added', text: '{' },
      { kind: 'added', text: '  "batchid": "rb_2"' },
      { kind: 'added', text: '}' },
    ]);
  });
});
