// @vitest-environment jsdom
import { beforeEach, describe, expect, it } from 'vitest';
import { clearUserWork, takeOwnership } from './local-work';
import { localOwner } from './owner-tag';

// jsdom has no IndexedDB: the batches stay in localStorage there, as in a browser that refuses
// IndexedDB, so this covers every key; the e2e journey covers IndexedDB in a real browser.
const draft = 'vms-portal:v1:draft:requisition:1001:insert';
const tray = 'vms-portal:v1:tray:requisition:1001';
const display = 'vms-portal:v1:display';

const contents = () =>
  Object.fromEntries(Object.keys(localStorage).map((key) => [key, localStorage.getItem(key)]));

beforeEach(() => {
  localStorage.clear();
  sessionStorage.clear();
});

describe('the work in a shared browser', () => {
  it('is set aside when someone else signs in, and given back to its owner', async () => {
    await takeOwnership('ada');
    localStorage.setItem(draft, '{"ada":"draft"}');
    localStorage.setItem(tray, '{"ada":"tray"}');
    localStorage.setItem(display, '{"theme":"dark"}');

    await takeOwnership('bob');
    expect(localOwner()).toBe('bob');
    expect(localStorage.getItem(draft)).toBeNull();
    expect(localStorage.getItem(tray)).toBeNull();
    // How the screen looks is the browser's, not Ada's.
    expect(localStorage.getItem(display)).toBe('{"theme":"dark"}');
    localStorage.setItem(draft, '{"bob":"draft"}');

    await takeOwnership('ada');
    expect(localStorage.getItem(draft)).toBe('{"ada":"draft"}');
    expect(localStorage.getItem(tray)).toBe('{"ada":"tray"}');
    // Bob's is set aside in turn, and Ada's set-aside copies are gone.
    expect(localStorage.getItem('vms-portal:v1:kept:bob:draft:requisition:1001:insert')).toBe(
      '{"bob":"draft"}',
    );
    expect(Object.keys(contents()).filter((key) => key.includes(':kept:ada:'))).toEqual([]);
    await takeOwnership('bob');
    expect(localStorage.getItem(draft)).toBe('{"bob":"draft"}');
  });

  it('leaves with its owner when they sign out, with their sync ledger, and nothing else', async () => {
    await takeOwnership('bob');
    localStorage.setItem(draft, '{"bob":"draft"}');
    await takeOwnership('ada');
    localStorage.setItem(draft, '{"ada":"draft"}');
    localStorage.setItem('vms-portal:v1:submissions', '[]');
    localStorage.setItem('vms-portal:v1:sync:ada:drafts', '{}');
    localStorage.setItem('vms-portal:v1:sync:bob:drafts', '{}');
    localStorage.setItem(display, '{"theme":"dark"}');
    sessionStorage.setItem('vms-portal:v1:anything', 'x');

    await clearUserWork('ada');
    expect(contents()).toEqual({
      [display]: '{"theme":"dark"}',
      'vms-portal:v1:sync:bob:drafts': '{}',
      'vms-portal:v1:kept:bob:draft:requisition:1001:insert': '{"bob":"draft"}',
    });
    expect(sessionStorage.length).toBe(0);
    expect(localOwner()).toBeNull();
  });

  it('left without a tag by someone who synced here is not taken by the next user', async () => {
    localStorage.setItem(draft, '{"ada":"draft"}');
    localStorage.setItem('vms-portal:v1:sync:ada:drafts', '{}');
    await takeOwnership('bob');
    expect(localStorage.getItem(draft)).toBeNull();
    await takeOwnership('ada');
    expect(localStorage.getItem(draft)).toBe('{"ada":"draft"}');
  });
});
