import {
  keptSecret,
  throttleSecretName,
  type FailureCount,
  type SignInFailureStore,
} from '@/server/accounts/store/sign-in-failures';
import {
  loginOf,
  type LoginRow,
  type SsoLogin,
  type SsoLoginStore,
} from '@/server/accounts/store/sso-logins';
import { inTransaction, type PortalPool } from '@/server/store/postgres/pool';

interface FailureRow {
  key: string;
  failures: number;
  last_failure_at: number;
}

function toMap(rows: FailureRow[]): Map<string, FailureCount> {
  return new Map(
    rows.map((row) => [row.key, { failures: row.failures, lastFailureAt: row.last_failure_at }]),
  );
}

/** Sign-in back-off counters in PostgreSQL: every process counts the same failures. */
export function createPostgresSignInFailureStore(pool: PortalPool): SignInFailureStore {
  return {
    async read(keys) {
      const { rows } = await pool.query<FailureRow>(
        'SELECT key, failures, last_failure_at FROM sign_in_failures WHERE key = ANY($1::text[])',
        [keys],
      );
      return toMap(rows);
    },
    async fail(keys, now, forgetBefore) {
      return inTransaction(pool, async (client) => {
        const rows: FailureRow[] = [];
        for (const key of keys) {
          const result = await client.query<FailureRow>(
            `INSERT INTO sign_in_failures AS f (key, failures, last_failure_at) VALUES ($1, 1, $2)
             ON CONFLICT (key) DO UPDATE SET
               failures = CASE WHEN f.last_failure_at <= $3 THEN 1 ELSE f.failures + 1 END,
               last_failure_at = $2
             RETURNING key, failures, last_failure_at`,
            [key, now, forgetBefore],
          );
          rows.push(...result.rows);
        }
        return toMap(rows);
      });
    },
    async clear(key) {
      await pool.query('DELETE FROM sign_in_failures WHERE key = $1', [key]);
    },
    async purge(before) {
      return (
        (await pool.query('DELETE FROM sign_in_failures WHERE last_failure_at <= $1', [before]))
          .rowCount ?? 0
      );
    },
    async throttleSecret(candidate, now) {
      await pool.query(
        'INSERT INTO portal_secrets (name, secret, created_at) VALUES ($1, $2, $3) ON CONFLICT (name) DO NOTHING',
        [throttleSecretName, candidate, now],
      );
      const { rows } = await pool.query<{ secret: Buffer }>(
        'SELECT secret FROM portal_secrets WHERE name = $1',
        [throttleSecretName],
      );
      return keptSecret(rows[0]);
    },
  };
}

/** Single sign-on attempts in PostgreSQL: the callback may land on another process. */
export function createPostgresSsoLoginStore(pool: PortalPool): SsoLoginStore {
  return {
    async begin(stateHash, login) {
      await pool.query(
        'INSERT INTO sso_logins (state_hash, nonce, code_verifier, created_at) VALUES ($1, $2, $3, $4)',
        [stateHash, login.nonce, login.codeVerifier, login.createdAt],
      );
    },
    async take(stateHash, startedAfter): Promise<SsoLogin | undefined> {
      const { rows } = await pool.query<LoginRow>(
        `DELETE FROM sso_logins WHERE state_hash = $1 AND created_at > $2
         RETURNING nonce, code_verifier, created_at`,
        [stateHash, startedAfter],
      );
      return loginOf(rows[0]);
    },
    async purge(startedBefore) {
      return (
        (await pool.query('DELETE FROM sso_logins WHERE created_at <= $1', [startedBefore]))
          .rowCount ?? 0
      );
    },
  };
}
