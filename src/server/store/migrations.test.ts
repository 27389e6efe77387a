import { describe, expect, it } from 'vitest';
import { orderMigrations, type MigrationStep } from './migrations';
import { openPortalDatabase } from './portal-database';

/** A step that records, in the database, that it ran and in which order. */
function step(version: number, name: string, mark: string): MigrationStep {
  return {
    version,
    name,
    sqlite: (db) => {
      db.exec('CREATE TABLE IF NOT EXISTS ran (seq INTEGER PRIMARY KEY, mark TEXT NOT NULL)');
      db.prepare('INSERT INTO ran (mark) VALUES (?)').run(mark);
    },
    postgres: `-- ${mark}`,
  };
}

describe('orderMigrations', () => {
  it('orders the concerns’ steps by version, a shared version’s steps in the concerns’ order', async () => {
    const migrations = orderMigrations([
      { concern: 'b', steps: [step(2, 'two', 'b2'), step(3, 'three', 'b3')] },
      { concern: 'a', steps: [step(1, 'one', 'a1'), step(2, 'two', 'a2')] },
    ]);
    expect(migrations.map(({ version, name }) => `${version} ${name}`)).toEqual([
      '1 one',
      '2 two',
      '3 three',
    ]);
    expect(migrations[1]?.postgres).toBe('-- b2\n-- a2');

    const opened = await openPortalDatabase(':memory:', migrations);
    try {
      const marks = opened.db
        .prepare<[], { mark: string }>('SELECT mark FROM ran ORDER BY seq')
        .all();
      expect(marks.map(({ mark }) => mark)).toEqual(['a1', 'b2', 'a2', 'b3']);
      expect(opened.db.pragma('user_version', { simple: true })).toBe(3);
    } finally {
      await opened.close();
    }
  });

  it('refuses a gap in the versions', () => {
    expect(() =>
      orderMigrations([{ concern: 'a', steps: [step(1, 'one', 'a1'), step(3, 'three', 'a3')] }]),
    ).toThrow('Schema version 2 has no step in any concern (the next is 3)');
  });

  it('refuses a version another concern already has under another name', () => {
    expect(() =>
      orderMigrations([
        { concern: 'journal', steps: [step(1, 'call journal', 'j')] },
        { concern: 'audit', steps: [step(1, 'audit trail', 'a')] },
      ]),
    ).toThrow(
      'Schema version 1 is "call journal" in journal but "audit trail" in audit: a new step takes the next free version.',
    );
  });

  it('refuses a version that is not a whole number from 1', () => {
    expect(() => orderMigrations([{ concern: 'a', steps: [step(0, 'zero', 'a0')] }])).toThrow(
      `a's schema step "zero" has no valid version (0).`,
    );
  });
});
