// @vitest-environment jsdom
import { expect, it } from 'vitest';
import { z } from 'zod';
import { freezePortalStorage, localStore, storageKey } from './local-store';

// On its own file: freezing lasts for the rest of the page, here the rest of the module.
it('a page leaving for another user’s writes nothing more to localStorage, only to memory', () => {
  const draft = localStore(storageKey('draft', 'test'), z.string().nullable(), null);
  draft.set('before');
  localStorage.removeItem(draft.key); // the work just cleared or set aside
  freezePortalStorage();
  expect(draft.set('a last keystroke as the page goes')).toBe(true);
  expect(localStorage.getItem(draft.key)).toBeNull();
  expect(draft.get()).toBe('a last keystroke as the page goes');
});
