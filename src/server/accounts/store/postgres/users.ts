import {
  connectionsColumn,
  newUserValues,
  toStoredUser,
  type StoredUser,
  type UserChanges,
  type UserRowColumns,
  type UserStore,
} from '@/server/accounts/store/users';
import {
  inTransaction,
  type PortalClient,
  type PortalPool,
  type Queryable,
} from '@/server/store/postgres/pool';

interface UserRow extends UserRowColumns {
  grants: number[] | null;
}

const userColumns = `u.id, u.email, u.role, u.password_hash, u.disabled, u.created_at,
  u.last_sign_in_at, u.connections, ARRAY(SELECT g.client_org_id FROM user_grants g WHERE g.user_id = u.id
    ORDER BY g.client_org_id) AS grants`;

function toUser(row: UserRow): StoredUser {
  // BIGINT[] comes back as strings (the pool's number parser is for plain BIGINT).
  return toStoredUser(row, (row.grants ?? []).map(Number));
}

async function userBy(db: Queryable, column: 'id' | 'email', value: string) {
  const { rows } = await db.query<UserRow>(
    `SELECT ${userColumns} FROM users u WHERE u.${column} = $1`,
    [value],
  );
  return rows[0] ? toUser(rows[0]) : undefined;
}

async function setGrants(client: PortalClient, id: string, clientOrgIds: readonly number[]) {
  await client.query('DELETE FROM user_grants WHERE user_id = $1', [id]);
  await client.query(
    `INSERT INTO user_grants (user_id, client_org_id)
     SELECT $1, org FROM unnest($2::bigint[]) AS org ON CONFLICT DO NOTHING`,
    [id, [...clientOrgIds]],
  );
}

/** Accounts, grants and invites in PostgreSQL (the SQLite store's statements, in transactions). */
export function createPostgresUserStore(pool: PortalPool): UserStore {
  return {
    async create(user) {
      return inTransaction(pool, async (client) => {
        const inserted =
          (
            await client.query(
              `INSERT INTO users (id, email, role, password_hash, created_at, connections)
               VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT (email) DO NOTHING`,
              newUserValues(user),
            )
          ).rowCount === 1;
        if (inserted) await setGrants(client, user.id, user.clientOrgIds);
        return inserted;
      });
    },
    byEmail: (email) => userBy(pool, 'email', email),
    byId: (id) => userBy(pool, 'id', id),
    async list() {
      const { rows } = await pool.query<UserRow>(
        `SELECT ${userColumns} FROM users u ORDER BY u.email`,
      );
      return rows.map(toUser);
    },
    async count() {
      const { rows } = await pool.query<{ n: number }>('SELECT count(*) AS n FROM users');
      return rows[0]?.n ?? 0;
    },
    async otherEnabledAdmins(exceptId) {
      const { rows } = await pool.query<{ n: number }>(
        `SELECT count(*) AS n FROM users WHERE role = 'admin' AND disabled = 0 AND id != $1`,
        [exceptId],
      );
      return rows[0]?.n ?? 0;
    },
    async update(id, changes: UserChanges) {
      return inTransaction(pool, async (client) => {
        const locked = await client.query('SELECT 1 FROM users WHERE id = $1 FOR UPDATE', [id]);
        if (locked.rowCount !== 1) return undefined;
        if (changes.role !== undefined) {
          await client.query('UPDATE users SET role = $1 WHERE id = $2', [changes.role, id]);
        }
        if (changes.disabled !== undefined) {
          await client.query('UPDATE users SET disabled = $1 WHERE id = $2', [
            changes.disabled ? 1 : 0,
            id,
          ]);
        }
        if (changes.passwordHash !== undefined) {
          await client.query('UPDATE users SET password_hash = $1 WHERE id = $2', [
            changes.passwordHash,
            id,
          ]);
        }
        if (changes.clientOrgIds !== undefined) await setGrants(client, id, changes.clientOrgIds);
        if (changes.connections !== undefined) {
          await client.query('UPDATE users SET connections = $1 WHERE id = $2', [
            connectionsColumn(changes.connections),
            id,
          ]);
        }
        return userBy(client, 'id', id);
      });
    },
    async noteSignIn(id, at) {
      await pool.query('UPDATE users SET last_sign_in_at = $1 WHERE id = $2', [at, id]);
    },
    async invite(next) {
      await inTransaction(pool, async (client) => {
        await client.query('DELETE FROM invites WHERE user_id = $1', [next.userId]);
        await client.query(
          'INSERT INTO invites (token_hash, user_id, created_at, expires_at) VALUES ($1, $2, $3, $4)',
          [next.tokenHash, next.userId, next.createdAt, next.expiresAt],
        );
      });
    },
    async acceptInvite(tokenHash, passwordHash, now) {
      return inTransaction(pool, async (client) => {
        const { rows } = await client.query<{ user_id: string }>(
          'DELETE FROM invites WHERE token_hash = $1 AND expires_at > $2 RETURNING user_id',
          [tokenHash, now],
        );
        const taken = rows[0];
        if (!taken) return undefined;
        await client.query('UPDATE users SET password_hash = $1 WHERE id = $2', [
          passwordHash,
          taken.user_id,
        ]);
        return userBy(client, 'id', taken.user_id);
      });
    },
    async pendingInvites(now) {
      const { rows } = await pool.query<{ user_id: string }>(
        'SELECT DISTINCT user_id FROM invites WHERE expires_at > $1',
        [now],
      );
      return new Set(rows.map((row) => row.user_id));
    },
  };
}
