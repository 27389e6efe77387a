import type { Role } from '@/domain/auth';
import { roles } from '@/domain/auth';
import type { PortalSqlite } from '@/server/store/portal-database';

/** An account as the server keeps it. */
export interface StoredUser {
  id: string;
  /** Lower case, trimmed: the sign-in name. */
  email: string;
  role: Role;
  /** argon2id (PHC string); null until an invited user sets a password. */
  passwordHash: string | null;
  disabled: boolean;
  createdAt: number;
  lastSignInAt: number | null;
  /** The client orgs granted (admins act for every org of the deployment whatever this says). */
  clientOrgIds: number[];
  /**
   * The VMS connections the account may use, by name; null for every connection of the
   * deployment (accounts made before there were several, and those an admin leaves open).
   */
  connections: string[] | null;
}

export interface NewUser {
  id: string;
  email: string;
  role: Role;
  passwordHash: string | null;
  clientOrgIds: readonly number[];
  /** Absent or null: every connection. */
  connections?: readonly string[] | null;
  createdAt: number;
}

export interface UserChanges {
  role?: Role;
  clientOrgIds?: readonly number[];
  /** Null: every connection. */
  connections?: readonly string[] | null;
  disabled?: boolean;
  passwordHash?: string;
}

/** An invite, by the SHA-256 of its token: who it is for and until when it may be used. */
export interface NewInvite {
  tokenHash: Buffer;
  userId: string;
  createdAt: number;
  expiresAt: number;
}

/**
 * Accounts, their grants and their invites (decision 026). Asynchronous, like every store, so a
 * PostgreSQL store can implement it beside this SQLite one.
 */
export interface UserStore {
  /** False when the e-mail address is taken (nothing written). */
  create(user: NewUser): Promise<boolean>;
  byEmail(email: string): Promise<StoredUser | undefined>;
  byId(id: string): Promise<StoredUser | undefined>;
  list(): Promise<StoredUser[]>;
  count(): Promise<number>;
  /** Enabled admins other than `exceptId`. */
  otherEnabledAdmins(exceptId: string): Promise<number>;
  /** Applies the changes (grants replaced as a whole); undefined when there is no such user. */
  update(id: string, changes: UserChanges): Promise<StoredUser | undefined>;
  noteSignIn(id: string, at: number): Promise<void>;
  /** Records an invite, replacing the user's earlier ones (one live link per user). */
  invite(invite: NewInvite): Promise<void>;
  /**
   * Uses an invite: when it exists and has not expired, sets the password and deletes the invite
   * in one transaction, and returns the user. Otherwise undefined.
   */
  acceptInvite(
    tokenHash: Buffer,
    passwordHash: string,
    now: number,
  ): Promise<StoredUser | undefined>;
  /** Whether the user has an unexpired invite (the list shows `invited`). */
  pendingInvites(now: number): Promise<Set<string>>;
}

/**
 * A user's row as both databases return it, but for the client orgs granted: each database
 * aggregates those its own way (a JSON array in SQLite, an array in PostgreSQL).
 */
export interface UserRowColumns {
  id: string;
  email: string;
  role: string;
  password_hash: string | null;
  disabled: number;
  created_at: number;
  last_sign_in_at: number | null;
  connections: string | null;
}

/** A user read from either database, given the client orgs its row grants. */
export function toStoredUser(row: UserRowColumns, clientOrgIds: number[]): StoredUser {
  return {
    id: row.id,
    email: row.email,
    // Written through this store's own checks; a role it no longer knows gets the least rights.
    role: roles.find((role) => role === row.role) ?? 'recruiter',
    passwordHash: row.password_hash,
    disabled: row.disabled === 1,
    createdAt: row.created_at,
    lastSignInAt: row.last_sign_in_at,
    clientOrgIds,
    connections: readConnectionsColumn(row.connections),
  };
}

/** `INSERT INTO users`: id, email, role, password_hash, created_at, connections. */
export function newUserValues(
  user: NewUser,
): [string, string, string, string | null, number, string | null] {
  return [
    user.id,
    user.email,
    user.role,
    user.passwordHash,
    user.createdAt,
    connectionsColumn(user.connections),
  ];
}

interface UserRow extends UserRowColumns {
  grants: string | null;
}

/** The `connections` column as written: a JSON array of names, or null for every connection. */
export function connectionsColumn(
  connections: readonly string[] | null | undefined,
): string | null {
  return connections === null || connections === undefined
    ? null
    : JSON.stringify([...connections]);
}

/** The `connections` column read back; anything but an array of names reads as none granted. */
export function readConnectionsColumn(text: string | null): string[] | null {
  if (text === null) return null;
  try {
    const names: unknown = JSON.parse(text);
    return Array.isArray(names) ? names.filter((name) => typeof name === 'string') : [];
  } catch {
    return [];
  }
}

const userColumns = `u.id, u.email, u.role, u.password_hash, u.disabled, u.created_at,
  u.last_sign_in_at, u.connections, (SELECT json_group_array(client_org_id) FROM
    (SELECT client_org_id FROM user_grants g WHERE g.user_id = u.id ORDER BY client_org_id)) AS grants`;

function toUser(row: UserRow): StoredUser {
  const grants: unknown = JSON.parse(row.grants ?? '[]');
  return toStoredUser(
    row,
    Array.isArray(grants) ? grants.filter((id) => typeof id === 'number') : [],
  );
}

export function createUserStore(db: PortalSqlite): UserStore {
  const statements = {
    insert: db.prepare<ReturnType<typeof newUserValues>>(
      `INSERT INTO users (id, email, role, password_hash, created_at, connections)
       VALUES (?, ?, ?, ?, ?, ?)
       ON CONFLICT (email) DO NOTHING`,
    ),
    byEmail: db.prepare<[string], UserRow>(`SELECT ${userColumns} FROM users u WHERE u.email = ?`),
    byId: db.prepare<[string], UserRow>(`SELECT ${userColumns} FROM users u WHERE u.id = ?`),
    list: db.prepare<[], UserRow>(`SELECT ${userColumns} FROM users u ORDER BY u.email`),
    count: db.prepare<[], { n: number }>('SELECT count(*) AS n FROM users'),
    otherAdmins: db.prepare<[string], { n: number }>(
      `SELECT count(*) AS n FROM users WHERE role = 'admin' AND disabled = 0 AND id != ?`,
    ),
    role: db.prepare<[string, string]>('UPDATE users SET role = ? WHERE id = ?'),
    disabled: db.prepare<[number, string]>('UPDATE users SET disabled = ? WHERE id = ?'),
    password: db.prepare<[string, string]>('UPDATE users SET password_hash = ? WHERE id = ?'),
    connections: db.prepare<[string | null, string]>(
      'UPDATE users SET connections = ? WHERE id = ?',
    ),
    clearGrants: db.prepare<[string]>('DELETE FROM user_grants WHERE user_id = ?'),
    grant: db.prepare<[string, number]>(
      'INSERT OR IGNORE INTO user_grants (user_id, client_org_id) VALUES (?, ?)',
    ),
    signIn: db.prepare<[number, string]>('UPDATE users SET last_sign_in_at = ? WHERE id = ?'),
    clearInvites: db.prepare<[string]>('DELETE FROM invites WHERE user_id = ?'),
    invite: db.prepare<[Buffer, string, number, number]>(
      'INSERT INTO invites (token_hash, user_id, created_at, expires_at) VALUES (?, ?, ?, ?)',
    ),
    takeInvite: db.prepare<[Buffer, number], { user_id: string }>(
      'DELETE FROM invites WHERE token_hash = ? AND expires_at > ? RETURNING user_id',
    ),
    pending: db.prepare<[number], { user_id: string }>(
      'SELECT DISTINCT user_id FROM invites WHERE expires_at > ?',
    ),
  };

  const userOf = (row: UserRow | undefined) => (row ? toUser(row) : undefined);

  const setGrants = (id: string, clientOrgIds: readonly number[]) => {
    statements.clearGrants.run(id);
    for (const orgId of clientOrgIds) statements.grant.run(id, orgId);
  };

  const create = db.transaction((user: NewUser) => {
    const inserted = statements.insert.run(...newUserValues(user)).changes === 1;
    if (inserted) setGrants(user.id, user.clientOrgIds);
    return inserted;
  });

  const update = db.transaction((id: string, changes: UserChanges) => {
    if (!statements.byId.get(id)) return undefined;
    if (changes.role !== undefined) statements.role.run(changes.role, id);
    if (changes.disabled !== undefined) statements.disabled.run(changes.disabled ? 1 : 0, id);
    if (changes.passwordHash !== undefined) statements.password.run(changes.passwordHash, id);
    if (changes.clientOrgIds !== undefined) setGrants(id, changes.clientOrgIds);
    if (changes.connections !== undefined) {
      statements.connections.run(connectionsColumn(changes.connections), id);
    }
    return userOf(statements.byId.get(id));
  });

  const invite = db.transaction((next: NewInvite) => {
    statements.clearInvites.run(next.userId);
    statements.invite.run(next.tokenHash, next.userId, next.createdAt, next.expiresAt);
  });

  const accept = db.transaction((tokenHash: Buffer, passwordHash: string, now: number) => {
    const taken = statements.takeInvite.get(tokenHash, now);
    if (!taken) return undefined;
    statements.password.run(passwordHash, taken.user_id);
    return userOf(statements.byId.get(taken.user_id));
  });

  return {
    async create(user) {
      return create(user);
    },
    async byEmail(email) {
      return userOf(statements.byEmail.get(email));
    },
    async byId(id) {
      return userOf(statements.byId.get(id));
    },
    async list() {
      return statements.list.all().map(toUser);
    },
    async count() {
      return statements.count.get()?.n ?? 0;
    },
    async otherEnabledAdmins(exceptId) {
      return statements.otherAdmins.get(exceptId)?.n ?? 0;
    },
    async update(id, changes) {
      return update(id, changes);
    },
    async noteSignIn(id, at) {
      statements.signIn.run(at, id);
    },
    async invite(next) {
      invite(next);
    },
    async acceptInvite(tokenHash, passwordHash, now) {
      return accept(tokenHash, passwordHash, now);
    },
    async pendingInvites(now) {
      return new Set(statements.pending.all(now).map((row) => row.user_id));
    },
  };
}
