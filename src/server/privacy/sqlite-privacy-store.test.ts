import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import type { TextSource } from './privacy-store';
import { createSqlitePrivacyStore } from './sqlite-privacy-store';

let db: Database.Database | undefined;
afterEach(() => db?.close());

/** Calls whose addresses are read three ids at a time, as the journal's are ten thousand. */
const addresses: TextSource = {
  name: 'addresses',
  table: 'calls',
  keys: ['id'],
  at: 'at',
  columns: ['path'],
  reading: 'address',
  scanStep: 3,
};

describe('reading a large source in steps', () => {
  it('finds every row that mentions the person, in every step, the last one short', async () => {
    db = new Database(':memory:');
    db.exec('CREATE TABLE calls (id INTEGER PRIMARY KEY, at INTEGER NOT NULL, path TEXT)');
    const insert = db.prepare('INSERT INTO calls (id, at, path) VALUES (?, ?, ?)');
    // Ids 1 to 10, with a gap (as pruning leaves), the person in the first, a middle and the last.
    for (const id of [1, 2, 3, 5, 6, 7, 8, 9, 10]) {
      const theirs = id === 1 || id === 6 || id === 10;
      insert.run(
        id,
        id * 1000,
        `/api/vms/x?filtervalue=${theirs ? 'jane%40example.com' : 'other'}`,
      );
    }
    const found = await createSqlitePrivacyStore(db).rowsMentioning(addresses, [
      'jane%40example.com',
    ]);
    expect(found.map((row) => row.key)).toEqual([[1], [6], [10]]);
    expect(found[2]).toEqual({
      key: [10],
      at: 10_000,
      texts: { path: '/api/vms/x?filtervalue=jane%40example.com' },
    });
  });

  it('finds nothing, without failing, in an empty table', async () => {
    db = new Database(':memory:');
    db.exec('CREATE TABLE calls (id INTEGER PRIMARY KEY, at INTEGER NOT NULL, path TEXT)');
    expect(await createSqlitePrivacyStore(db).rowsMentioning(addresses, ['jane'])).toEqual([]);
  });
});
