import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  bookkeepingParts,
  browserKeyParts,
  databases,
  decideOwnership,
  isUserWork,
  keptKeyOf,
  keptOriginal,
  ledgerUser,
  unknownOwner,
  userKeyParts,
} from './user-owned';

describe('whose work the browser holds', () => {
  const ada = 'user-ada';
  const bob = 'user-bob';

  it('is the user’s when the owner tag names them, or when there is no work', () => {
    expect(
      decideOwnership({ userId: ada, owner: ada, hasWork: true, ledgerUsers: [ada, bob] }),
    ).toEqual({ kind: 'mine' });
    expect(
      decideOwnership({ userId: ada, owner: bob, hasWork: false, ledgerUsers: [bob] }),
    ).toEqual({ kind: 'mine' });
  });

  it('is set aside for the user the tag names when someone else signs in', () => {
    expect(decideOwnership({ userId: bob, owner: ada, hasWork: true, ledgerUsers: [ada] })).toEqual(
      { kind: 'set-aside', owner: ada },
    );
    // Even when the one signing in once synced here too.
    expect(
      decideOwnership({ userId: bob, owner: ada, hasWork: true, ledgerUsers: [ada, bob] }),
    ).toEqual({ kind: 'set-aside', owner: ada });
  });

  it('without a tag, is taken only when no one else ever synced from this browser', () => {
    // Left while sign-in was off, or only ever by this user.
    expect(decideOwnership({ userId: ada, owner: null, hasWork: true, ledgerUsers: [] })).toEqual({
      kind: 'mine',
    });
    expect(
      decideOwnership({ userId: ada, owner: null, hasWork: true, ledgerUsers: [ada] }),
    ).toEqual({ kind: 'mine' });
    // Someone else synced here: it is theirs, or, when it cannot be told, no one's.
    expect(
      decideOwnership({ userId: bob, owner: null, hasWork: true, ledgerUsers: [ada] }),
    ).toEqual({ kind: 'set-aside', owner: ada });
    expect(
      decideOwnership({ userId: bob, owner: null, hasWork: true, ledgerUsers: [ada, bob] }),
    ).toEqual({ kind: 'set-aside', owner: unknownOwner });
    expect(
      decideOwnership({ userId: bob, owner: null, hasWork: true, ledgerUsers: [ada, 'user-cy'] }),
    ).toEqual({ kind: 'set-aside', owner: unknownOwner });
  });
});

describe('the keys of the user’s work', () => {
  it('tells work from the browser’s own settings and bookkeeping', () => {
    expect(isUserWork('vms-portal:v1:draft:requisition:1001:insert')).toBe(true);
    expect(isUserWork('vms-portal:v1:tray:candidate:1001')).toBe(true);
    expect(isUserWork('vms-portal:v1:submissions')).toBe(true);
    expect(isUserWork('vms-portal:v1:display')).toBe(false);
    expect(isUserWork('vms-portal:v1:kept:user-ada:draft:requisition:1001:insert')).toBe(false);
    expect(isUserWork('vms-portal:v1:sync:user-ada:drafts')).toBe(false);
    expect(isUserWork('another-site:draft')).toBe(false);
  });

  it('sets work aside under its owner and finds it again only for them', () => {
    const key = 'vms-portal:v1:tray:requisition:1001';
    const kept = keptKeyOf('user-ada', key);
    expect(kept).toBe('vms-portal:v1:kept:user-ada:tray:requisition:1001');
    expect(keptOriginal('user-ada', kept)).toBe(key);
    expect(keptOriginal('user-bob', kept)).toBeNull();
    expect(keptOriginal('user-ad', kept)).toBeNull();
  });

  it('reads whose a sync ledger is', () => {
    expect(ledgerUser('vms-portal:v1:sync:user-ada:drafts')).toBe('user-ada');
    expect(ledgerUser('vms-portal:v1:draft:requisition:1001:insert')).toBeNull();
  });
});

/** Every source file of the browser app, without tests. */
function sources(dir = 'src'): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory())
      return ['server', 'sandbox', 'cli', 'node'].includes(entry.name) ? [] : sources(path);
    return /\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) ? [path] : [];
  });
}

describe('every place the app stores something is placed', () => {
  const text = sources().map((path) => ({ path, text: readFileSync(path, 'utf8') }));

  it('each storage key’s first part is the user’s work, the browser’s, or bookkeeping', () => {
    const known: readonly string[] = [...userKeyParts, ...browserKeyParts, ...bookkeepingParts];
    const parts = text.flatMap(({ path, text: source }) =>
      [...source.matchAll(/storageKey\(\s*'([^']+)'/g)].map((match) => ({ path, part: match[1] })),
    );
    expect(parts.length).toBeGreaterThan(5);
    expect(parts.filter(({ part }) => !known.includes(part ?? ''))).toEqual([]);
  });

  it('each IndexedDB database is one of the named ones', () => {
    const opened = text.flatMap(({ path, text: source }) =>
      [...source.matchAll(/lazyDatabase<\w+>\(\s*([^,]+),/g)].map((match) => ({
        path,
        name: match[1]?.trim(),
      })),
    );
    expect(opened.length).toBe(Object.keys(databases).length);
    for (const { name } of opened) expect(name).toMatch(/^databases\.\w+$/);
  });
});
