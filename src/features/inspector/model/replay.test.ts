import { describe, expect, it } from 'vitest';
import type { JournalBody, JournalDetail } from '@/domain/journal';
import { replayElements, whyNotReplayable } from './replay';

/* Which recorded calls can be sent again, and how their body goes back to the tray. */
const body = (text: string, extra: Partial<JournalBody> = {}): JournalBody => ({
  text,
  encoding: 'utf8',
  size: text.length,
  sha256: '0'.repeat(64),
  truncated: false,
  redacted: false,
  ...extra,
});
const entry = (extra: Partial<JournalDetail>): JournalDetail =>
  ({
    method: 'POST',
    outcome: 'forwarded',
    requestBody: body('[{"titlerole":"Nurse"}]'),
    ...extra,
  }) as JournalDetail;

describe('sending a recorded call again', () => {
  it('allows a forwarded POST kept whole, and says why not otherwise', () => {
    expect(whyNotReplayable(entry({}))).toBeNull();
    expect(whyNotReplayable(entry({ method: 'GET' }))).toBe(
      'Only a POST (a batch) can be sent again.',
    );
    expect(whyNotReplayable(entry({ outcome: 'refused' }))).toMatch(/nothing reached the VMS/);
    expect(
      whyNotReplayable(entry({ requestBody: body('[]', { truncated: true, size: 300000 }) })),
    ).toBe('Its body (300,000 bytes) was kept only in part, so it cannot be sent again as it was.');
    expect(whyNotReplayable(entry({ requestBody: body('[]', { redacted: true }) }))).toMatch(
      /secret was cut out/,
    );
  });

  it('refuses a body shown with its personal values masked, not one where none were found', () => {
    const masked = body('[{"firstname":"J•••"}]', { personal: { masked: 1, reading: 'json' } });
    expect(whyNotReplayable(entry({ requestBody: masked }))).toBe(
      'Its personal values are masked, so it cannot be sent again as it was: reveal the call first.',
    );
    const withheld = body('', { encoding: 'utf8', personal: { masked: 0, reading: 'withheld' } });
    expect(whyNotReplayable(entry({ requestBody: withheld }))).toMatch(/masked/);
    const nothingPersonal = body('[{"titlerole":"Nurse"}]', {
      personal: { masked: 0, reading: 'json' },
    });
    expect(whyNotReplayable(entry({ requestBody: nothingPersonal }))).toBeNull();
  });

  it('gives the tray wire items for objects of text values and raw items for anything else', () => {
    expect(replayElements(body('[{"a":"1"},{"a":2},"x"]'))).toEqual([
      { wire: { a: '1' } },
      { wire: { a: '2' }, raw: { a: 2 } },
      { wire: {}, raw: 'x' },
    ]);
    expect(replayElements(body('{"a":"1"}'))).toBeNull();
    expect(replayElements(body('not json'))).toBeNull();
  });
});
