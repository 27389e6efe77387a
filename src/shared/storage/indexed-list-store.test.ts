// @vitest-environment jsdom
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { indexedListStore } from './indexed-list-store';

// Without IndexedDB (jsdom has none, as some private windows), the list stays in localStorage
// under the same key, and flush() still tells whether the latest change is stored.
const schema = z.object({
  items: z.array(z.object({ id: z.string(), text: z.string() })),
  sendKey: z.string().nullable(),
});
type List = z.infer<typeof schema>;
const empty: List = { items: [], sendKey: null };

describe('a list store where IndexedDB cannot be used', () => {
  it('loads what localStorage holds and keeps each change there', async () => {
    localStorage.setItem(
      'list-a',
      JSON.stringify({ items: [{ id: '1', text: 'kept' }], sendKey: null }),
    );
    const store = indexedListStore('list-a', schema, empty);
    await store.ready;
    expect(store.get().items).toEqual([{ id: '1', text: 'kept' }]);
    store.update((list) => ({ ...list, items: [...list.items, { id: '2', text: 'added' }] }));
    expect(await store.flush()).toBe(true);
    expect(JSON.parse(localStorage.getItem('list-a') ?? 'null')).toEqual({
      items: [
        { id: '1', text: 'kept' },
        { id: '2', text: 'added' },
      ],
      sendKey: null,
    });
  });

  it('applies a change made before loading on top of what was stored, losing nothing', async () => {
    localStorage.setItem(
      'list-b',
      JSON.stringify({ items: [{ id: '1', text: 'stored' }], sendKey: null }),
    );
    const store = indexedListStore('list-b', schema, empty);
    store.update((list) => ({ ...list, items: [...list.items, { id: '2', text: 'early' }] }));
    await store.flush();
    expect(store.get().items.map((item) => item.id)).toEqual(['1', '2']);
  });

  it('says so when the browser refuses to store the change', async () => {
    const store = indexedListStore('list-c', schema, empty);
    await store.ready;
    const big = 'x'.repeat(6 * 1024 * 1024); // more than jsdom's 5 MB localStorage quota
    store.set({ items: [{ id: '1', text: big }], sendKey: 'key-1' });
    expect(await store.flush()).toBe(false);
    expect(store.get().sendKey).toBe('key-1'); // still shown, from memory
  });
});
