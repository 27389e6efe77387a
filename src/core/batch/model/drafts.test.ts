import { describe, expect, it } from 'vitest';
import type { Incoming } from './drafts';
import { decideStart, mergeOntoTemplate, sameOrigin, storedDraftSchema } from './drafts';

interface Form {
  title: string;
  rows: Array<{ text: string }>;
}
const blank: Incoming<Form> = {
  origin: { type: 'blank' },
  values: { title: '', rows: [] },
  label: 'new',
};
const record: Incoming<Form> = {
  origin: { type: 'record', id: '40001' },
  values: { title: 'From VMS', rows: [] },
  label: 'requisition 40001',
};

describe('decideStart', () => {
  it('starts blank when there is nothing', () => {
    expect(decideStart(null, null, blank)).toEqual({
      start: { values: blank.values, origin: blank.origin, restored: false },
      ask: null,
    });
  });

  it('restores a draft with changes and says so', () => {
    const draft = { values: { title: 'Typed', rows: [] }, origin: blank.origin, dirty: true };
    expect(decideStart(draft, null, blank).start).toEqual({
      values: draft.values,
      origin: draft.origin,
      restored: true,
    });
  });

  it('prefers the draft of the same origin over the incoming values', () => {
    const draft = { values: { title: 'Typed', rows: [] }, origin: record.origin, dirty: true };
    const decision = decideStart(draft, record, blank);
    expect(decision.start.values.title).toBe('Typed');
    expect(decision.ask).toBeNull();
  });

  it('never replaces unsaved changes silently: it asks', () => {
    const draft = { values: { title: 'Typed', rows: [] }, origin: blank.origin, dirty: true };
    const decision = decideStart(draft, record, blank);
    expect(decision.start.values.title).toBe('Typed');
    expect(decision.ask).toBe(record);
  });

  it('replaces an untouched draft with the incoming values', () => {
    const draft = { values: { title: '', rows: [] }, origin: blank.origin, dirty: false };
    expect(decideStart(draft, record, blank)).toEqual({
      start: { values: record.values, origin: record.origin, restored: false },
      ask: null,
    });
  });
});

describe('sameOrigin', () => {
  it('compares by kind and identity', () => {
    expect(sameOrigin({ type: 'tray-item', itemId: 'a' }, { type: 'tray-item', itemId: 'a' })).toBe(
      true,
    );
    expect(sameOrigin({ type: 'tray-item', itemId: 'a' }, { type: 'tray-item', itemId: 'b' })).toBe(
      false,
    );
    expect(
      sameOrigin(
        { type: 'result', batchId: 'rb', row: 1 },
        { type: 'result', batchId: 'rb', row: 2 },
      ),
    ).toBe(false);
    expect(sameOrigin({ type: 'record', id: '1' }, { type: 'blank' })).toBe(false);
  });
});

describe('mergeOntoTemplate', () => {
  const template: Form = { title: '', rows: [] };

  it('reads stored values onto the form’s shape, row by row', () => {
    const stored = { title: 'Dev', rows: [{ text: 'Java', extra: 1 }, { text: 2 }], unknown: 'x' };
    expect(mergeOntoTemplate(template, stored, { rows: { text: '' } })).toEqual({
      title: 'Dev',
      rows: [{ text: 'Java' }, { text: '' }],
    });
  });

  it('keeps the defaults for anything missing or of the wrong type', () => {
    expect(mergeOntoTemplate(template, { title: 5, rows: 'no' }, { rows: { text: '' } })).toEqual(
      template,
    );
    expect(mergeOntoTemplate(template, null)).toEqual(template);
  });
});

describe('storedDraftSchema', () => {
  it('accepts a saved draft and refuses an unknown origin', () => {
    const draft = { values: {}, origin: { type: 'blank' }, dirty: true, savedAt: 'now' };
    expect(storedDraftSchema.safeParse(draft).success).toBe(true);
    expect(storedDraftSchema.safeParse({ ...draft, origin: { type: 'other' } }).success).toBe(
      false,
    );
  });
});
