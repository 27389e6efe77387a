import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { SecretNeedles } from '@/server/redaction/credential-scrub';
import { keptBody, RecentBodies } from './kept-body';

const needles = SecretNeedles.of(['key-123456', 'secret-abcdef', null, 'abc']);

describe('keptBody', () => {
  it('keeps a body whole, with its length and SHA-256', () => {
    const bytes = Buffer.from('[{"titlerole":"Zürich"}]');
    const kept = keptBody(bytes, 1024, needles);
    expect(kept).toMatchObject({ size: bytes.length, truncated: false, redacted: false });
    expect(kept?.kept.equals(bytes)).toBe(true);
    expect(kept?.sha256.toString('hex')).toBe(createHash('sha256').update(bytes).digest('hex'));
  });

  it('has nothing to keep for no body', () => {
    expect(keptBody(null, 1024, needles)).toBeNull();
    expect(keptBody(Buffer.alloc(0), 1024, needles)).toBeNull();
  });

  it('cuts a long body at the limit, never inside a character, and hashes the whole', () => {
    // "ü" is two bytes: a cut at byte 4 would split the second one.
    const bytes = Buffer.from('aaüüüü');
    const kept = keptBody(bytes, 5, needles);
    expect(kept).toMatchObject({ size: bytes.length, truncated: true });
    expect(kept?.kept.toString('utf8')).toBe('aaü');
    expect(kept?.sha256.toString('hex')).toBe(createHash('sha256').update(bytes).digest('hex'));
  });

  it('replaces every secret, however often it appears, and says so', () => {
    const bytes = Buffer.from('key-123456 and secret-abcdef, again key-123456; abc stays');
    const kept = keptBody(bytes, 1024, needles);
    expect(kept?.kept.toString()).toBe('[redacted] and [redacted], again [redacted]; abc stays');
    expect(kept).toMatchObject({ redacted: true, size: bytes.length });
  });
});

describe('RecentBodies', () => {
  it('holds a repeated body as the copy it kept, so the caller’s Buffer can go', () => {
    const recent = new RecentBodies();
    const first = Buffer.from('[{"titlerole":"Zürich"}]');
    const kept = recent.keep(first, 1024, needles, null);
    const again = Buffer.from(first);
    expect(recent.held(again)).toBe(first);
    expect(recent.keep(first, 1024, needles, null)).toBe(kept);
    expect(recent.held(Buffer.from('[{"titlerole":"Zurich"}]'))).toBeNull();
    expect(recent.held(null)).toBeNull();
  });
});
