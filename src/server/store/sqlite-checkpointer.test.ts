import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { startCheckpointer } from './sqlite-checkpointer';

let dir: string | null = null;
afterEach(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
  dir = null;
});

/** A WAL database whose own connection never checkpoints, holding 2 MB of rows in its log. */
function databaseWithALog() {
  dir = mkdtempSync(join(tmpdir(), 'checkpointer-'));
  const path = join(dir, 'portal.db');
  const db = new Database(path);
  db.pragma('journal_mode = WAL');
  db.pragma('wal_autocheckpoint = 0');
  db.exec('CREATE TABLE rows (data BLOB NOT NULL)');
  const insert = db.prepare<[Buffer]>('INSERT INTO rows (data) VALUES (?)');
  db.transaction(() => {
    for (let i = 0; i < 500; i++) insert.run(Buffer.alloc(4096, i % 251));
  })();
  return { db, path };
}

describe('startCheckpointer', () => {
  it('copies the log into the database file from its own thread, while the writer goes on', async () => {
    const { db, path } = databaseWithALog();
    const before = statSync(path).size;
    expect(statSync(`${path}-wal`).size).toBeGreaterThan(2_000_000);
    const checkpointer = startCheckpointer(path, 20);
    // Writes meanwhile are not refused: a passive checkpoint holds no write lock.
    for (let i = 0; i < 20; i++) {
      db.prepare('INSERT INTO rows (data) VALUES (?)').run(Buffer.alloc(4096, 7));
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    await checkpointer.stop();
    // The file now holds the 520 rows' pages, which were only in the log before.
    expect(before).toBeLessThan(100_000);
    expect(statSync(path).size).toBeGreaterThan(520 * 4096);
    expect(db.prepare('SELECT count(*) AS n FROM rows').get()).toEqual({ n: 520 });
    db.close();
  });

  it('repeats a statement on its own connection until a run changes fewer than two rows', async () => {
    const { db, path } = databaseWithALog();
    db.exec('CREATE TABLE queue (id INTEGER PRIMARY KEY)');
    const insert = db.prepare<[number]>('INSERT INTO queue (id) VALUES (?)');
    for (let id = 1; id <= 25; id++) insert.run(id);
    const checkpointer = startCheckpointer(path, 1000);
    // Ten rows a run: 10, 10, 5, then none: four runs.
    const runs = await checkpointer.repeat(
      'DELETE FROM queue WHERE id IN (SELECT id FROM queue ORDER BY id LIMIT 10)',
      1,
    );
    expect(runs).toBe(4);
    expect(db.prepare('SELECT count(*) AS n FROM queue').get()).toEqual({ n: 0 });
    await expect(checkpointer.repeat('DELETE FROM no_such_table', 1)).rejects.toThrow(
      /no such table/,
    );
    await checkpointer.stop();
    await expect(checkpointer.repeat('SELECT 1', 1)).rejects.toThrow(/stopped/);
    db.close();
  });

  it('stops quietly when it could not open the database, leaving the log to its own connection', async () => {
    const { db, path } = databaseWithALog();
    const checkpointer = startCheckpointer(join(dir ?? '', 'absent.db'), 20);
    await expect(checkpointer.stop()).resolves.toBeUndefined();
    expect(statSync(path).size).toBeLessThan(100_000);
    db.close();
  });
});
