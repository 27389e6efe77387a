import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { PortalDatabase } from '@/server/store/portal-database';
import { openPortalSqlite } from '@/test-support/portal-stores';
import { createSqlitePrivacyStore } from './sqlite-privacy-store';

/*
 * What an erasure holds back on SQLite while it runs (the index's merging, the connection's own
 * checkpoints) and that it always puts back: after it ends, after it fails, after two overlap, and
 * after a portal stopped in the middle of one.
 */

let open: { database: PortalDatabase; dir: string } | null = null;
afterEach(async () => {
  await open?.database.close();
  if (open) rmSync(open.dir, { recursive: true, force: true });
  open = null;
});

/** The portal's database file with every concern's schema, as the portal opens it. */
async function portalSqlite() {
  const dir = mkdtempSync(join(tmpdir(), 'privacy-erasing-'));
  const database = await openPortalSqlite(join(dir, 'portal.db'));
  open = { database, dir };
  return database.db;
}

type Db = Awaited<ReturnType<typeof portalSqlite>>;

function merging(db: Db): Record<string, number> {
  const rows = db
    .prepare<[], { k: string; v: number }>(
      "SELECT k, v FROM journal_search_config WHERE k IN ('automerge', 'crisismerge')",
    )
    .all();
  return Object.fromEntries(rows.map((row) => [row.k, row.v]));
}

const autocheckpoint = (db: Db) => Number(db.pragma('wal_autocheckpoint', { simple: true }));

describe('an erasure on SQLite', () => {
  it('holds back the index’s merging and the connection’s checkpoints while it runs, and puts back what was set', async () => {
    const db = await portalSqlite();
    db.pragma('wal_autocheckpoint = 500');
    const store = createSqlitePrivacyStore(db);
    const during = await store.whileErasing(() =>
      Promise.resolve({ merging: merging(db), autocheckpoint: autocheckpoint(db) }),
    );
    expect(during).toEqual({ merging: { automerge: 0, crisismerge: 1000 }, autocheckpoint: 0 });
    expect(merging(db)).toEqual({ automerge: 4, crisismerge: 16 });
    expect(autocheckpoint(db)).toBe(500);
  });

  it('puts them back when the erasure fails, and passes its error on', async () => {
    const db = await portalSqlite();
    const store = createSqlitePrivacyStore(db);
    await expect(
      store.whileErasing(() => Promise.reject(new Error('the disk is full'))),
    ).rejects.toThrow('the disk is full');
    expect(merging(db)).toEqual({ automerge: 4, crisismerge: 16 });
    expect(autocheckpoint(db)).toBe(1000);
  });

  it('keeps them held back until the last of two overlapping erasures ends', async () => {
    const db = await portalSqlite();
    const store = createSqlitePrivacyStore(db);
    let endFirst = () => {};
    const first = store.whileErasing(() => new Promise<void>((resolve) => (endFirst = resolve)));
    const afterSecond = await store.whileErasing(() => Promise.resolve(merging(db)));
    expect(afterSecond).toEqual({ automerge: 0, crisismerge: 1000 });
    expect(merging(db)).toEqual({ automerge: 0, crisismerge: 1000 });
    expect(autocheckpoint(db)).toBe(0);
    endFirst();
    await first;
    expect(merging(db)).toEqual({ automerge: 4, crisismerge: 16 });
    expect(autocheckpoint(db)).toBe(1000);
  });

  it('puts the index’s merging back when the store opens after a portal stopped mid-erasure', async () => {
    const db = await portalSqlite();
    db.exec("INSERT INTO journal_search (journal_search, rank) VALUES ('automerge', 0)");
    createSqlitePrivacyStore(db);
    expect(merging(db)).toEqual({ automerge: 4, crisismerge: 16 });
  });

  it('has the log checkpointed meanwhile, off the connection that writes', async () => {
    const db = await portalSqlite();
    const path = db.name;
    const store = createSqlitePrivacyStore(db);
    const sizes = await store.whileErasing(async () => {
      const before = statSync(path).size;
      db.exec('CREATE TABLE filler (data BLOB NOT NULL)');
      const insert = db.prepare<[Buffer]>('INSERT INTO filler (data) VALUES (?)');
      db.transaction(() => {
        for (let i = 0; i < 300; i++) insert.run(Buffer.alloc(4096, i % 251));
      })();
      // The connection itself would not copy its log now (its checkpoints are held back).
      for (let wait = 0; wait < 50 && statSync(path).size - before < 300 * 4096; wait++) {
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      return { before, after: statSync(path).size };
    });
    expect(sizes.after - sizes.before).toBeGreaterThanOrEqual(300 * 4096);
  });
});
