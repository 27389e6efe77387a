import type { PortalSqlite } from '@/server/store/portal-database';

/** What the callback of a single sign-on needs from its start. */
export interface SsoLogin {
  nonce: string;
  codeVerifier: string;
  createdAt: number;
}

/**
 * Single sign-on attempts between their start and the provider's callback (decision 026), in the
 * database so that the callback may land on another process. Asynchronous for PostgreSQL.
 */
export interface SsoLoginStore {
  begin(stateHash: Buffer, login: SsoLogin): Promise<void>;
  /** Takes the attempt (one use) if it started after `startedAfter`. */
  take(stateHash: Buffer, startedAfter: number): Promise<SsoLogin | undefined>;
  purge(startedBefore: number): Promise<number>;
}

/** An attempt as both databases keep it (the `sso_logins` columns). */
export interface LoginRow {
  nonce: string;
  code_verifier: string;
  created_at: number;
}

/** The attempt a row taken by `take` holds, if one was taken. */
export function loginOf(row: LoginRow | undefined): SsoLogin | undefined {
  return row
    ? { nonce: row.nonce, codeVerifier: row.code_verifier, createdAt: row.created_at }
    : undefined;
}

export function createSsoLoginStore(db: PortalSqlite): SsoLoginStore {
  const statements = {
    begin: db.prepare<[Buffer, string, string, number]>(
      'INSERT INTO sso_logins (state_hash, nonce, code_verifier, created_at) VALUES (?, ?, ?, ?)',
    ),
    take: db.prepare<[Buffer, number], LoginRow>(
      `DELETE FROM sso_logins WHERE state_hash = ? AND created_at > ?
       RETURNING nonce, code_verifier, created_at`,
    ),
    purge: db.prepare<[number]>('DELETE FROM sso_logins WHERE created_at <= ?'),
  };
  return {
    async begin(stateHash, login) {
      statements.begin.run(stateHash, login.nonce, login.codeVerifier, login.createdAt);
    },
    async take(stateHash, startedAfter) {
      return loginOf(statements.take.get(stateHash, startedAfter));
    },
    async purge(startedBefore) {
      return statements.purge.run(startedBefore).changes;
    },
  };
}
