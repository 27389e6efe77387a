import type { PortalSqlite } from '@/server/store/portal-database';

/** Failed sign-ins counted under one key (`account:<email>` or `address:<ip>`). */
export interface FailureCount {
  failures: number;
  lastFailureAt: number;
}

/**
 * The counters behind sign-in back-off (decision 026), in the database so that a restart does not
 * reset them and several processes share them.
 */
export interface SignInFailureStore {
  read(keys: readonly string[]): Promise<Map<string, FailureCount>>;
  /**
   * Counts one more failure under each key; a count whose last failure is at or before
   * `forgetBefore` starts again from one. Returns the new counts.
   */
  fail(
    keys: readonly string[],
    now: number,
    forgetBefore: number,
  ): Promise<Map<string, FailureCount>>;
  clear(key: string): Promise<void>;
  purge(before: number): Promise<number>;
  /**
   * The database's key for the account names failures are counted under: `candidate` is stored
   * when there is none yet, and whichever was stored first is returned, so that every process on
   * one database counts a name under the same key.
   */
  throttleSecret(candidate: Buffer, now: number): Promise<Buffer>;
}

/** The portal_secrets row of the sign-in throttle's key. */
export const throttleSecretName = 'sign_in_throttle';

interface FailureRow {
  key: string;
  failures: number;
  last_failure_at: number;
}

export function createSignInFailureStore(db: PortalSqlite): SignInFailureStore {
  const statements = {
    read: db.prepare<[string], FailureRow>(
      'SELECT key, failures, last_failure_at FROM sign_in_failures WHERE key = ?',
    ),
    fail: db.prepare<[{ key: string; now: number; forget: number }], FailureRow>(
      `INSERT INTO sign_in_failures (key, failures, last_failure_at) VALUES (@key, 1, @now)
       ON CONFLICT (key) DO UPDATE SET
         failures = CASE WHEN last_failure_at <= @forget THEN 1 ELSE failures + 1 END,
         last_failure_at = @now
       RETURNING key, failures, last_failure_at`,
    ),
    clear: db.prepare<[string]>('DELETE FROM sign_in_failures WHERE key = ?'),
    purge: db.prepare<[number]>('DELETE FROM sign_in_failures WHERE last_failure_at <= ?'),
    addSecret: db.prepare<[string, Buffer, number]>(
      'INSERT INTO portal_secrets (name, secret, created_at) VALUES (?, ?, ?) ON CONFLICT (name) DO NOTHING',
    ),
    secret: db.prepare<[string], { secret: Buffer }>(
      'SELECT secret FROM portal_secrets WHERE name = ?',
    ),
  };
  const toMap = (rows: FailureRow[]) =>
    new Map(
      rows.map((row) => [row.key, { failures: row.failures, lastFailureAt: row.last_failure_at }]),
    );
  const fail = db.transaction((keys: readonly string[], now: number, forgetBefore: number) =>
    toMap(
      keys.flatMap((key) => {
        const row = statements.fail.get({ key, now, forget: forgetBefore });
        return row ? [row] : [];
      }),
    ),
  );
  return {
    async read(keys) {
      return toMap(
        keys.flatMap((key) => {
          const row = statements.read.get(key);
          return row ? [row] : [];
        }),
      );
    },
    async fail(keys, now, forgetBefore) {
      return fail(keys, now, forgetBefore);
    },
    async clear(key) {
      statements.clear.run(key);
    },
    async purge(before) {
      return statements.purge.run(before).changes;
    },
    async throttleSecret(candidate, now) {
      statements.addSecret.run(throttleSecretName, candidate, now);
      return keptSecret(statements.secret.get(throttleSecretName));
    },
  };
}

/**
 * The throttle key the database keeps, read back after offering one: the first process's key
 * wins, so every process hashes account names alike.
 */
export function keptSecret(row: { secret: Buffer } | undefined): Buffer {
  if (!row) throw new Error('the sign-in throttle key could not be kept in the database');
  return row.secret;
}
