import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { turnCommitOf } from './turn-commit';

let dir: string | null = null;
afterEach(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
  dir = null;
});

/** A real database file in WAL mode, as the portal's, with two tables two stores would own. */
function database() {
  dir = mkdtempSync(join(tmpdir(), 'turn-commit-'));
  const db = new Database(join(dir, 'portal.db'));
  db.pragma('journal_mode = WAL');
  db.exec('CREATE TABLE keys (key TEXT PRIMARY KEY); CREATE TABLE watches (batch TEXT NOT NULL)');
  return db;
}

describe('turnCommitOf', () => {
  it('is one per database: the stores of one database share it, another database has its own', () => {
    const db = database();
    const other = new Database(':memory:');
    expect(turnCommitOf(db)).toBe(turnCommitOf(db));
    expect(turnCommitOf(other)).not.toBe(turnCommitOf(db));
    other.close();
    db.close();
  });

  it('commits the writes two stores ask for in one turn together, and each resolves with its own value', async () => {
    const db = database();
    const insertKey = db.prepare<[string]>('INSERT INTO keys (key) VALUES (?)');
    const insertWatch = db.prepare<[string]>('INSERT INTO watches (batch) VALUES (?)');
    const inTransaction: boolean[] = [];
    const turn = turnCommitOf(db);
    const written = await Promise.all([
      turn.run(() => {
        inTransaction.push(db.inTransaction);
        return insertKey.run('k1').changes;
      }),
      turn.run(() => {
        inTransaction.push(db.inTransaction);
        return insertWatch.run('rb_1').changes;
      }),
    ]);
    expect(written).toEqual([1, 1]);
    // Both ran inside one transaction, not each in its own.
    expect(inTransaction).toEqual([true, true]);
    expect(db.prepare('SELECT count(*) AS n FROM keys').get()).toEqual({ n: 1 });
    expect(db.prepare('SELECT count(*) AS n FROM watches').get()).toEqual({ n: 1 });
    db.close();
  });

  it('refuses a failing write alone: the other writes of its turn are committed', async () => {
    const db = database();
    const insertKey = db.prepare<[string]>('INSERT INTO keys (key) VALUES (?)');
    const insertWatch = db.prepare<[string | null]>('INSERT INTO watches (batch) VALUES (?)');
    const turn = turnCommitOf(db);
    const [key, watch, secondKey] = await Promise.allSettled([
      turn.run(() => insertKey.run('k1').changes),
      // NOT NULL: this store's write fails.
      turn.run(() => insertWatch.run(null).changes),
      turn.run(() => insertKey.run('k2').changes),
    ]);
    expect(key).toEqual({ status: 'fulfilled', value: 1 });
    expect(watch.status).toBe('rejected');
    expect(String((watch as PromiseRejectedResult).reason)).toMatch(/NOT NULL/);
    expect(secondKey).toEqual({ status: 'fulfilled', value: 1 });
    expect(db.prepare('SELECT key FROM keys ORDER BY key').all()).toEqual([
      { key: 'k1' },
      { key: 'k2' },
    ]);
    expect(db.prepare('SELECT count(*) AS n FROM watches').get()).toEqual({ n: 0 });
    db.close();
  });
});
