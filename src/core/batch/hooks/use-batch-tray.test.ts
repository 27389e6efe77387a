// @vitest-environment jsdom
import { describe, expect, it } from 'vitest';
import { addManyToTray, trayStore } from './use-batch-tray';

// The tray where IndexedDB cannot be used (jsdom has none, as some private windows): kept in
// localStorage, whose 5 MB quota a test can fill to make the browser refuse a change.

/** What the browser holds for a tray, read back from localStorage. */
function storedTitles(clientOrgId: number): string[] {
  const key = Object.keys(localStorage).find(
    (name) => name.includes('tray') && name.includes(`${clientOrgId}@`),
  );
  const stored = JSON.parse(localStorage.getItem(key ?? '') ?? 'null') as {
    items: Array<{ wire: Record<string, string> }>;
  } | null;
  return stored?.items.map((item) => item.wire.titlerole ?? '') ?? [];
}

let next = 0;
const newId = () => `item-${(next += 1)}`;

describe('adding an import’s rows to the tray at once', () => {
  it('stores them all and answers with their ids, after what the tray held', async () => {
    const store = trayStore('requisition', 2001);
    await store.ready;
    store.set({
      items: [{ id: 'kept', wire: { titlerole: 'Kept' }, addedAt: 'then' }],
      sendKey: 'k',
    });
    const ids = await addManyToTray(
      store,
      [{ titlerole: 'Welder' }, { titlerole: 'Fitter' }],
      newId,
      '2026-11-23T10:00:00.000Z',
    );
    expect(ids).toHaveLength(2);
    expect(store.get().items.map((item) => item.id)).toEqual(['kept', ...(ids ?? [])]);
    expect(store.get().items[1]?.addedAt).toBe('2026-11-23T10:00:00.000Z');
    // A change to the items: the next send is a new batch.
    expect(store.get().sendKey).toBeNull();
    expect(storedTitles(2001)).toEqual(['Kept', 'Welder', 'Fitter']);
  });

  it('adds none when the browser will not store them, leaving the tray as it was', async () => {
    const store = trayStore('requisition', 2002);
    await store.ready;
    store.set({
      items: [{ id: 'kept', wire: { titlerole: 'Kept' }, addedAt: 'then' }],
      sendKey: null,
    });
    expect(await store.flush()).toBe(true);
    const big = 'x'.repeat(6 * 1024 * 1024); // more than jsdom's 5 MB localStorage quota
    const ids = await addManyToTray(
      store,
      [{ titlerole: 'Welder' }, { titlerole: big }],
      newId,
      '2026-11-23T10:00:00.000Z',
    );
    expect(ids).toBeNull();
    expect(store.get().items.map((item) => item.id)).toEqual(['kept']);
    expect(storedTitles(2002)).toEqual(['Kept']);
  });
});
