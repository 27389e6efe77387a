import { describe, expect, it } from 'vitest';
import type { Incoming } from '@/core/batch/model/drafts';
import type { SessionEvent, SessionState, StoredValues } from './use-workspace-session';
import { initialSession, sessionReducer } from './use-workspace-session';

type Values = { title: string };
const blank: Incoming<Values> = {
  origin: { type: 'blank' },
  values: { title: '' },
  label: 'a new form',
};
const record: Incoming<Values> = {
  origin: { type: 'record', id: '40001' },
  values: { title: 'Senior Java Developer' },
  label: 'requisition 40001',
};
const trayItem: Incoming<Values> = {
  origin: { type: 'tray-item', itemId: 'item-1' },
  values: { title: 'From the tray' },
  label: 'item 1 of the batch',
};
const empty = initialSession as SessionState<Values>;

function sync(overrides: Partial<Extract<SessionEvent<Values>, { type: 'sync' }>> = {}) {
  return { type: 'sync', load: null, source: null, stored: null, blank, ...overrides } as const;
}

const dirtyDraft: StoredValues<Values> = {
  values: { title: 'typed before the reload' },
  origin: { type: 'blank' },
  dirty: true,
};

describe('sessionReducer', () => {
  it('starts a blank form when there is nothing else', () => {
    const state = sessionReducer(empty, sync());
    expect(state.start).toMatchObject({ values: { title: '' }, origin: { type: 'blank' }, key: 1 });
  });

  it('restores a draft with changes, marked restored', () => {
    const state = sessionReducer(empty, sync({ stored: dirtyDraft }));
    expect(state.start).toMatchObject({
      values: { title: 'typed before the reload' },
      restored: true,
    });
  });

  it('waits for the page’s own source, then starts from it', () => {
    const waiting = sessionReducer(
      empty,
      sync({ source: { origin: record.origin, incoming: null } }),
    );
    expect(waiting.start).toBeNull();
    const started = sessionReducer(
      waiting,
      sync({ source: { origin: record.origin, incoming: record } }),
    );
    expect(started.start).toMatchObject({ values: record.values, origin: record.origin });
    expect(started.sourceSeen).toBe(true);
  });

  it('asks before a load request replaces unsaved changes, and does as answered', () => {
    const open = sessionReducer(empty, sync({ stored: dirtyDraft }));
    const asked = sessionReducer(
      open,
      sync({ load: { token: 7, incoming: trayItem }, stored: dirtyDraft }),
    );
    expect(asked.ask).toEqual(trayItem);
    expect(asked.start?.values).toEqual(dirtyDraft.values);
    expect(asked.handledLoad).toBe(7);

    const kept = sessionReducer(asked, { type: 'keep-current' });
    expect(kept.ask).toBeNull();
    expect(kept.start?.values).toEqual(dirtyDraft.values);

    const replaced = sessionReducer(asked, { type: 'replace-with-incoming' });
    expect(replaced.start).toMatchObject({
      values: trayItem.values,
      origin: trayItem.origin,
      key: 2,
    });
  });

  it('replaces an untouched form without asking, and handles each load request once', () => {
    const open = sessionReducer(empty, sync());
    const event = sync({ load: { token: 3, incoming: trayItem } });
    const loaded = sessionReducer(open, event);
    expect(loaded.start?.origin).toEqual(trayItem.origin);
    expect(sessionReducer(loaded, event)).toBe(loaded);
  });

  it('changes nothing (same object) when nothing happened', () => {
    const open = sessionReducer(empty, sync());
    expect(sessionReducer(open, sync())).toBe(open);
    expect(sessionReducer(open, { type: 'keep-current' })).toBe(open);
  });

  it('restarts with a new key', () => {
    const open = sessionReducer(empty, sync());
    const restarted = sessionReducer(open, { type: 'restart', next: blank });
    expect(restarted.start?.key).toBe(2);
  });
});
