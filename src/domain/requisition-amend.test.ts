import { describe, expect, it } from 'vitest';
import {
  amendAsEdited,
  amendChanges,
  amendFreshness,
  amendWire,
  ownerChangeIgnored,
  resolveConflict,
  splitOwnerChange,
  type LoadedRecord,
} from './requisition-amend';

// A requisition as GET Requisitions gave it (wire keys), written out by hand.
const loaded: Record<string, string> = {
  requesttype: 'A',
  orgid: '1001',
  clientinternalreq: 'NW-2026-001',
  titlerole: 'Backend Developer',
  noofopenings: '2',
  reqstatus: '4',
  reqownerid: 'jdoe',
  clientcontactid: 'jdoe',
  reportstoid: 'jdoe',
  skill1: '1',
  skilldescription1: 'Java',
  requireddesired1: '1',
  amountofexperience1: '5',
  amountofexperiencetype1: '4',
  expertiserating1: '3',
  skill2: '2',
  skilldescription2: 'SQL',
  requireddesired2: '2',
};

/** What the form gives back when nothing was touched: the same values. */
const untouched = { ...loaded };

function nonBlank(wire: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(wire).filter(([, value]) => value !== ''));
}

describe('amendWire', () => {
  it('sends the identifying keys alone when nothing changed', () => {
    expect(nonBlank(amendWire(loaded, untouched))).toEqual({
      requesttype: 'A',
      orgid: '1001',
      clientinternalreq: 'NW-2026-001',
    });
  });

  it('sends a changed field beside the three identifying keys, and nothing else', () => {
    expect(
      nonBlank(amendWire(loaded, { ...untouched, titlerole: 'Senior Backend Developer' })),
    ).toEqual({
      requesttype: 'A',
      orgid: '1001',
      clientinternalreq: 'NW-2026-001',
      titlerole: 'Senior Backend Developer',
    });
  });

  it('keeps every documented key, blank when unchanged', () => {
    const wire = amendWire(loaded, untouched);
    expect(Object.keys(wire)).toHaveLength(129);
    expect(wire.noofopenings).toBe('');
    expect(wire.skilldescription10).toBe('');
  });

  it('sends every skill when one of them changed: the VMS replaces skills as a set', () => {
    const wire = nonBlank(amendWire(loaded, { ...untouched, requireddesired2: '3' }));
    expect(wire).toEqual({
      requesttype: 'A',
      orgid: '1001',
      clientinternalreq: 'NW-2026-001',
      skill1: '1',
      skilldescription1: 'Java',
      requireddesired1: '1',
      amountofexperience1: '5',
      amountofexperiencetype1: '4',
      expertiserating1: '3',
      skill2: '2',
      skilldescription2: 'SQL',
      requireddesired2: '3',
    });
  });

  it('does not send a field the user emptied: a blank cannot clear on Amend', () => {
    expect(nonBlank(amendWire(loaded, { ...untouched, noofopenings: '' }))).toEqual({
      requesttype: 'A',
      orgid: '1001',
      clientinternalreq: 'NW-2026-001',
    });
  });

  it('removes a skill by sending the set without it', () => {
    const { skill2: _s, skilldescription2: _d, requireddesired2: _r, ...withoutRow2 } = untouched;
    const wire = amendWire(loaded, withoutRow2);
    expect(wire.skilldescription1).toBe('Java');
    expect(wire.skill2).toBe('');
    expect(amendChanges(loaded, wire).map((change) => [change.key, change.to])).toEqual([
      ['skill2', ''],
      ['skilldescription2', ''],
      ['requireddesired2', ''],
    ]);
  });

  it('ignores whitespace around values when comparing', () => {
    expect(amendWire(loaded, { ...untouched, titlerole: ' Backend Developer ' }).titlerole).toBe(
      '',
    );
  });

  it('lets an owner-only change go out with contact and reports-to blank (rule 6)', () => {
    const wire = amendWire(loaded, { ...untouched, reqownerid: 'asmith' });
    expect(wire.reqownerid).toBe('asmith');
    expect(wire.clientcontactid).toBe('');
    expect(wire.reportstoid).toBe('');
    expect(ownerChangeIgnored(wire)).toBe(false);
  });
});

describe('amendChanges and amendAsEdited', () => {
  it('lists each change as label, from and to', () => {
    const wire = amendWire(loaded, { ...untouched, titlerole: 'Lead', noofopenings: '3' });
    expect(amendChanges(loaded, wire)).toEqual([
      { key: 'titlerole', label: 'Job title', from: 'Backend Developer', to: 'Lead' },
      { key: 'noofopenings', label: 'Number of openings', from: '2', to: '3' },
    ]);
  });

  it('puts the changes back on top of the loaded values for editing', () => {
    const wire = amendWire(loaded, { ...untouched, titlerole: 'Lead' });
    expect(amendAsEdited(loaded, wire)).toEqual({ ...loaded, titlerole: 'Lead' });
  });
});

describe('amendFreshness', () => {
  const before: LoadedRecord = { id: '40001', updatedAt: '2026-11-20T10:00:00Z', values: loaded };

  it('notes a change by someone else to a field this Amend leaves alone', () => {
    const now = {
      ...before,
      updatedAt: '2026-11-21T09:00:00Z',
      values: { ...loaded, noofopenings: '5' },
    };
    const wire = amendWire(loaded, { ...untouched, titlerole: 'Lead' });
    expect(amendFreshness(before, now, wire)).toEqual({
      conflicts: [],
      changedElsewhere: [{ key: 'noofopenings', label: 'Number of openings', from: '2', to: '5' }],
    });
  });

  it('holds a field both changed, to different values', () => {
    const now = { ...before, values: { ...loaded, titlerole: 'Staff Engineer' } };
    const wire = amendWire(loaded, { ...untouched, titlerole: 'Lead' });
    expect(amendFreshness(before, now, wire).conflicts).toEqual([
      {
        key: 'titlerole',
        label: 'Job title',
        loaded: 'Backend Developer',
        mine: 'Lead',
        theirs: 'Staff Engineer',
      },
    ]);
  });

  it('is no conflict when both made the same change', () => {
    const now = { ...before, values: { ...loaded, titlerole: 'Lead' } };
    const wire = amendWire(loaded, { ...untouched, titlerole: 'Lead' });
    expect(amendFreshness(before, now, wire)).toEqual({ conflicts: [], changedElsewhere: [] });
  });

  it('resolves a conflict by keeping mine or taking theirs', () => {
    const now = { ...before, values: { ...loaded, titlerole: 'Staff Engineer' } };
    const wire = amendWire(loaded, { ...untouched, titlerole: 'Lead' });
    const mine = resolveConflict(before, now, wire, 'titlerole', 'mine');
    expect(mine.wire.titlerole).toBe('Lead');
    expect(amendFreshness(mine.loaded, now, mine.wire).conflicts).toEqual([]);
    const theirs = resolveConflict(before, now, wire, 'titlerole', 'theirs');
    expect(theirs.wire.titlerole).toBe('');
    expect(amendFreshness(theirs.loaded, now, theirs.wire).conflicts).toEqual([]);
  });
});

describe('rule 6', () => {
  it('spots an owner change sent with a contact change, and splits it in two', () => {
    const wire = amendWire(loaded, {
      ...untouched,
      reqownerid: 'asmith',
      clientcontactid: 'bkhan',
    });
    expect(ownerChangeIgnored(wire)).toBe(true);
    const [first, second] = splitOwnerChange(wire);
    expect(nonBlank(first)).toEqual({
      requesttype: 'A',
      orgid: '1001',
      clientinternalreq: 'NW-2026-001',
      clientcontactid: 'bkhan',
    });
    expect(nonBlank(second)).toEqual({
      requesttype: 'A',
      orgid: '1001',
      clientinternalreq: 'NW-2026-001',
      reqownerid: 'asmith',
    });
    expect(ownerChangeIgnored(first)).toBe(false);
    expect(ownerChangeIgnored(second)).toBe(false);
  });
});
