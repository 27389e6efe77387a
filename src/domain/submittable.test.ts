import { describe, expect, it } from 'vitest';
import { whyNotSubmittable } from './submittable';

const today = '2026-11-23';
const open = { status: '4', openings: '2', noNewSubmittalsAfter: '' };

describe('whyNotSubmittable', () => {
  it('is empty for an Open or Interview occurring requisition with openings and time left', () => {
    expect(whyNotSubmittable(open, today)).toEqual([]);
    expect(whyNotSubmittable({ ...open, status: '5' }, today)).toEqual([]);
    // The last day itself still takes submittals; unknown openings are not a reason.
    expect(
      whyNotSubmittable({ ...open, openings: '', noNewSubmittalsAfter: today }, today),
    ).toEqual([]);
  });

  it('names each reason: status, no openings, a passed submittals date', () => {
    expect(whyNotSubmittable({ ...open, status: '6' }, today)).toEqual([
      {
        id: 'status',
        reason: 'Filled: only Open or Interview occurring requisitions take candidates',
      },
    ]);
    expect(
      whyNotSubmittable(
        { status: '9', openings: '0', noNewSubmittalsAfter: '2026-11-22' },
        today,
      ).map((entry) => entry.id),
    ).toEqual(['status', 'no-openings', 'submittals-closed']);
    expect(
      whyNotSubmittable({ ...open, noNewSubmittalsAfter: '2026-11-22' }, today)[0]?.reason,
    ).toBe('Took no new submittals after 2026-11-22');
  });

  it('says which status an unknown code is, rather than nothing', () => {
    expect(whyNotSubmittable({ ...open, status: '7' }, today)[0]?.reason).toMatch(/^status 7: /);
  });
});
