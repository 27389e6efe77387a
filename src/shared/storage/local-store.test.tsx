// @vitest-environment jsdom
import { act, cleanup, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  clearPortalStorage,
  localStore,
  portalStorageKeys,
  storageKey,
  useLocalStore,
  useStorageProblem,
} from './local-store';

const counter = () => localStore(storageKey('test', 'counter'), z.number(), 0);

beforeEach(() => {
  clearPortalStorage();
  localStorage.clear();
});
afterEach(cleanup);

describe('localStore', () => {
  it('writes to browser storage and reads it back, once per key', () => {
    const store = counter();
    expect(store).toBe(counter());
    expect(store.set(3)).toBe(true);
    expect(localStorage.getItem('vms-portal:v1:test:counter')).toBe('3');
    expect(store.get()).toBe(3);
  });

  it('reads what another tab or version wrote, and ignores a shape it does not know', () => {
    const store = counter();
    localStorage.setItem(store.key, '7');
    expect(store.get()).toBe(7);
    localStorage.setItem(store.key, '"seven"');
    expect(store.get()).toBe(0);
    localStorage.setItem(store.key, '{not json');
    expect(store.get()).toBe(0);
    // The unreadable value is left alone until the next write.
    expect(localStorage.getItem(store.key)).toBe('{not json');
  });

  it('keeps a value it could not store in memory and says why, with what to do', () => {
    const big = localStore(storageKey('test', 'big'), z.string(), '');
    function Warning() {
      return <p>{useStorageProblem()?.message ?? 'fine'}</p>;
    }
    render(<Warning />);
    // jsdom enforces the usual 5 million character quota.
    let stored = true;
    act(() => {
      stored = big.set('x'.repeat(6_000_000));
    });
    expect(stored).toBe(false);
    expect(big.get()).toHaveLength(6_000_000);
    expect(screen.getByText(/storage for this portal is full/).textContent).toMatch(
      /clear local data in Settings/,
    );
    act(() => {
      big.set('small');
    });
    // The warning is gone once a value fits again.
    expect(screen.queryByText(/storage for this portal is full/)).toBeNull();
    expect(big.get()).toBe('small');
  });

  it('re-renders readers on change', () => {
    const store = counter();
    function Reader() {
      return <p>count {useLocalStore(store)}</p>;
    }
    render(<Reader />);
    act(() => {
      store.update((value) => value + 5);
    });
    expect(screen.getByRole('paragraph').textContent).toBe('count 5');
  });

  it('clears everything the portal keeps, and nothing else', () => {
    counter().set(1);
    localStorage.setItem('someone-else', 'keep');
    expect(portalStorageKeys()).toEqual(['vms-portal:v1:test:counter']);
    act(() => clearPortalStorage());
    expect(portalStorageKeys()).toEqual([]);
    expect(counter().get()).toBe(0);
    expect(localStorage.getItem('someone-else')).toBe('keep');
  });
});
