import type Database from 'better-sqlite3';

/**
 * One concern's part of one schema version, written for both databases the portal can keep its
 * stores in (decision 027): the type asks for both, and schema-parity.test.ts checks that they make
 * the same tables and columns.
 */
export interface MigrationStep {
  /**
   * The schema version this step belongs to. Versions are the portal's, not a concern's: a
   * database at version N has run every step of versions 1 to N, whichever concern wrote them. A
   * new step takes the next free version (decision 047); a released one is never edited.
   */
  version: number;
  /** The version's name, the same in every concern that has a step in it. */
  name: string;
  /** Runs inside the version's transaction on the SQLite file. */
  sqlite(db: Database.Database): void;
  /** SQL run inside the version's transaction on PostgreSQL. */
  postgres: string;
}

/** The schema steps one concern owns, for the tables it keeps (decision 047). */
export interface ConcernSchema {
  concern: string;
  steps: readonly MigrationStep[];
}

/**
 * One schema version: its steps, in the order of the concerns that were given, joined into one of
 * the same shape (one SQLite function, one PostgreSQL script), run in one transaction.
 */
export type Migration = MigrationStep;

/**
 * The portal's schema versions, in order, from the steps each concern declares: a version may
 * have steps in several concerns (version 8 added a column to the journal's calls and one to the
 * accounts' users in one transaction), run in the order the concerns are listed. Refuses a gap, a
 * version named two ways, or a version below 1, so that a concern cannot take a number another
 * concern already has or skip one.
 */
export function orderMigrations(schemas: readonly ConcernSchema[]): Migration[] {
  const byVersion = new Map<number, { name: string; concerns: string[]; steps: MigrationStep[] }>();
  for (const { concern, steps } of schemas) {
    for (const step of steps) {
      if (!Number.isInteger(step.version) || step.version < 1) {
        throw new Error(
          `${concern}'s schema step "${step.name}" has no valid version (${step.version}).`,
        );
      }
      const known = byVersion.get(step.version);
      if (known === undefined) {
        byVersion.set(step.version, { name: step.name, concerns: [concern], steps: [step] });
      } else if (known.name !== step.name) {
        throw new Error(
          `Schema version ${step.version} is "${known.name}" in ${known.concerns.join(', ')} but "${step.name}" in ${concern}: a new step takes the next free version.`,
        );
      } else {
        known.concerns.push(concern);
        known.steps.push(step);
      }
    }
  }
  const versions = [...byVersion.keys()].sort((a, b) => a - b);
  versions.forEach((version, index) => {
    if (version !== index + 1) {
      throw new Error(
        `Schema version ${index + 1} has no step in any concern (the next is ${version}): versions are numbered without gaps.`,
      );
    }
  });
  return versions.map((version) => {
    const { name, steps } = byVersion.get(version)!;
    return {
      version,
      name,
      sqlite: (db) => {
        for (const step of steps) step.sqlite(db);
      },
      postgres: steps.map((step) => step.postgres).join('\n'),
    };
  });
}

export interface MigrateOptions {
  /**
   * Stop after this schema version instead of the newest: for tests that make a database as an
   * older release left it, to check that this one upgrades it (the same migrations, not a copy).
   */
  upTo?: number;
}

/**
 * Why a portal will not open a database a newer release has upgraded: its migrations may have
 * changed what this code reads and writes, and there is no going down. Going back to this release
 * means the backup taken before the upgrade.
 */
export function newerSchemaMessage(version: number, known: number, setting: string): string {
  return `its schema is version ${version}, newer than this portal knows (it supports up to version ${known}): a newer release has upgraded it. Run that newer release, or to go back to this one restore the backup taken before the upgrade (npm run restore, docs/deployment.md "Upgrades"); or point ${setting} elsewhere`;
}
