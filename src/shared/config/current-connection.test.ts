// @vitest-environment jsdom
import { beforeEach, describe, expect, it } from 'vitest';
import { storageKey } from '@/shared/storage/local-store';
import {
  adoptUnscoped,
  currentConnection,
  isThisConnections,
  settleConnection,
  unscopedKey,
  workScope,
} from './current-connection';

const names = ['sandbox', 'uat', 'production'];
const chosen = storageKey('connection');

beforeEach(() => localStorage.clear());

describe('settleConnection', () => {
  it('takes the one chosen last when it may still be used, else the default, else the first allowed', () => {
    expect(settleConnection(names, 'sandbox', null)).toBe('sandbox');
    localStorage.setItem(chosen, JSON.stringify('uat'));
    expect(settleConnection(names, 'sandbox', null)).toBe('uat');
    // No longer granted: the default.
    expect(settleConnection(names, 'sandbox', ['sandbox', 'production'])).toBe('sandbox');
    // Neither granted: the first that is.
    expect(settleConnection(names, 'sandbox', ['production'])).toBe('production');
    // None at all.
    expect(settleConnection(names, 'sandbox', [])).toBeNull();
    // A name the deployment no longer has.
    localStorage.setItem(chosen, JSON.stringify('gone'));
    expect(settleConnection(names, 'uat', null)).toBe('uat');
    expect(currentConnection()).toBe('uat');
  });
});

describe('keeping work apart', () => {
  it('keys work with the connection, and gives earlier work to the default connection only', () => {
    settleConnection(names, 'sandbox', null);
    expect(workScope(1001)).toBe('1001@sandbox');
    expect(workScope(1001, 'uat')).toBe('1001@uat');
    const keyOf = (scope: string) => storageKey('tray', 'requisition', scope);
    expect(unscopedKey(1001, keyOf)).toBe(keyOf('1001'));
    expect(unscopedKey(1001, keyOf, 'uat')).toBeNull();
    expect(isThisConnections(undefined)).toBe(true);
    expect(isThisConnections('sandbox')).toBe(true);
    expect(isThisConnections('uat')).toBe(false);

    localStorage.setItem(chosen, JSON.stringify('uat'));
    settleConnection(names, 'sandbox', null);
    expect(unscopedKey(1001, keyOf)).toBeNull();
    expect(isThisConnections(undefined)).toBe(false);
    expect(isThisConnections('uat')).toBe(true);
  });

  it('moves a draft kept before connections once, and never over one already there', () => {
    const old = storageKey('draft', 'requisition', 1001, 'insert');
    const scoped = storageKey('draft', 'requisition', '1001@sandbox', 'insert');
    localStorage.setItem(old, '{"values":{"titlerole":"Welder"}}');
    adoptUnscoped(scoped, old);
    expect(localStorage.getItem(scoped)).toBe('{"values":{"titlerole":"Welder"}}');
    expect(localStorage.getItem(old)).toBeNull();

    const other = storageKey('draft', 'requisition', '1002@sandbox', 'insert');
    const otherOld = storageKey('draft', 'requisition', 1002, 'insert');
    localStorage.setItem(other, '"kept"');
    localStorage.setItem(otherOld, '"older"');
    adoptUnscoped(other, otherOld);
    expect(localStorage.getItem(other)).toBe('"kept"');
    expect(localStorage.getItem(otherOld)).toBe('"older"');
  });
});
