import { randomBytes } from 'node:crypto';
import type { FastifyBaseLogger, FastifyReply, FastifyRequest } from 'fastify';
import type { SessionState, SessionUser, UserSummary } from '@/domain/auth';
import { deploymentClientOrgIds } from '@/domain/portal-config';
import type { PortalConfig } from '@/server/config';
import { purgeRounds } from '@/server/store/purge-rounds';
import { auditTo, type Audit } from './audit';
import { dummyHash } from './passwords';
import { clearSessionCookie, sessionIdsOf, setSessionCookie } from './session-cookie';
import { throttlePolicy } from './sign-in-throttle';
import type { AccountStores } from './store/account-stores';
import type { SessionStore } from './store/sessions';
import type { SignInFailureStore } from './store/sign-in-failures';
import type { SsoLoginStore } from './store/sso-logins';
import type { UserRecordStore } from './store/user-records';
import type { StoredUser, UserStore } from './store/users';
import { randomToken, tokenDigest, tokenPattern } from './tokens';
import { grantedConnections } from './user-scope';

/** The signed-in user a request acts as. */
export type PortalUser = SessionUser;

/** A request's session, once its cookie was checked. */
export interface RequestSession {
  user: PortalUser;
  csrfToken: string;
  idHash: Buffer;
}

/** Why a request that carried a session cookie has no session: said in its 401. */
export type SessionEnd = 'idle' | 'expired' | 'unknown';

declare module 'fastify' {
  interface FastifyRequest {
    /** Set by the session hook (auth-hooks.ts); null when signed out or sign-in is off. */
    portalSession: RequestSession | null;
    /** Set when the request's cookie named a session that has ended. */
    sessionEnd: SessionEnd | null;
  }
}

/** Invite links are valid this long and once. */
export const inviteLifetimeMs = 72 * 60 * 60_000;

/** A single sign-on attempt must come back from the provider within this. */
export const ssoLoginLifetimeMs = 10 * 60_000;

/** A session's last use is written at most this often (each request would be a write). */
const touchEveryMs = 60_000;

export interface PortalAuthOptions {
  config: PortalConfig;
  database: AccountStores;
  log: FastifyBaseLogger;
  /** The clock (tests control it); default Date.now. */
  now?: () => number;
  /**
   * Told of each audit event after its line is written, with the request it happened in: the
   * metrics count sign-ins, the audit trail keeps it (decision 036).
   */
  onAudit?: Audit;
}

/**
 * Sign-in and sessions (decision 026): the stores, the session checks every request
 * goes through, and what the routes share. The session id is 256 random bits in the cookie; the
 * database keeps its SHA-256, the user, the CSRF token and two times, which give the idle and
 * absolute limits.
 */
export class PortalAuth {
  readonly required: boolean;
  readonly users: UserStore;
  readonly sessions: SessionStore;
  readonly failures: SignInFailureStore;
  readonly records: UserRecordStore;
  readonly ssoLogins: SsoLoginStore;
  readonly audit: Audit;
  readonly now: () => number;
  private readonly purging: { first: Promise<void>; stop(): void };

  private constructor(
    readonly config: PortalConfig,
    database: AccountStores,
    readonly log: FastifyBaseLogger,
    now: () => number,
    onAudit?: Audit,
  ) {
    this.required = config.auth.required;
    this.users = database.users;
    this.sessions = database.sessions;
    this.failures = database.signInFailures;
    this.records = database.userRecords;
    this.ssoLogins = database.ssoLogins;
    const written = auditTo(log);
    this.audit = onAudit
      ? (event, fields, request) => {
          written(event, fields);
          onAudit(event, fields, request);
        }
      : written;
    this.now = now;
    this.purging = purgeRounds({
      everyMs: 10 * 60_000,
      log,
      failure: 'could not purge ended sessions',
      purge: () => this.purge(),
    });
  }

  static async open(options: PortalAuthOptions): Promise<PortalAuth> {
    const auth = new PortalAuth(
      options.config,
      options.database,
      options.log,
      options.now ?? Date.now,
      options.onAudit,
    );
    await auth.purging.first;
    // Made now so that the first failed sign-in costs no more than later ones.
    if (auth.required) void auth.dummyHash();
    if (auth.required && (await auth.users.count()) === 0) {
      options.log.warn(
        'sign-in is required and there are no accounts yet: create one with `npm run users -- add --role admin you@example.com`',
      );
    }
    return auth;
  }

  private dummy: Promise<string> | null = null;
  private throttleKey: Promise<Buffer> | null = null;

  /** The database's key for hashing the account names failed sign-ins are counted under. */
  throttleSecret(): Promise<Buffer> {
    this.throttleKey ??= this.failures.throttleSecret(randomBytes(32), this.now());
    // A failed read is tried again at the next sign-in rather than remembered.
    this.throttleKey.catch(() => {
      this.throttleKey = null;
    });
    return this.throttleKey;
  }

  /**
   * Verified against when there is no real hash to check (unknown account, invite pending), so
   * every failure costs one verification. Made at the first sign-in, not at start.
   */
  dummyHash(): Promise<string> {
    this.dummy ??= dummyHash();
    return this.dummy;
  }

  close(): void {
    this.purging.stop();
  }

  /** Ended sessions and forgotten failure counts go; a failed purge waits for the next round. */
  private async purge(): Promise<void> {
    const now = this.now();
    await this.sessions.purgeExpired(now - this.config.auth.idleMs, now - this.config.auth.maxMs);
    await this.failures.purge(now - throttlePolicy.forgetAfterMs);
    await this.ssoLogins.purge(now - ssoLoginLifetimeMs);
  }

  /**
   * The orgs a user acts for: every org of the deployment's connections for admins, else their
   * grants among them. Which of them a given connection acts for, the proxy checks per call.
   */
  clientOrgsOf(user: Pick<StoredUser, 'role' | 'clientOrgIds'>): number[] {
    const orgs = deploymentClientOrgIds(this.config.connections);
    if (user.role === 'admin') return orgs;
    const granted = new Set(user.clientOrgIds);
    return orgs.filter((id) => granted.has(id));
  }

  portalUser(user: StoredUser): PortalUser {
    return {
      id: user.id,
      email: user.email,
      role: user.role,
      clientOrgIds: this.clientOrgsOf(user),
      connections: grantedConnections(this.config.connections, user),
    };
  }

  summary(user: StoredUser): UserSummary {
    return {
      ...this.portalUser(user),
      disabled: user.disabled,
      invited: user.passwordHash === null,
      createdAt: new Date(user.createdAt).toISOString(),
      lastSignInAt: user.lastSignInAt === null ? null : new Date(user.lastSignInAt).toISOString(),
      everyConnection: user.connections === null,
    };
  }

  /**
   * The session the request's cookie names, if it is still valid: not idle past
   * SESSION_IDLE_MINUTES, not older than SESSION_MAX_HOURS, its user enabled. An ended one is
   * deleted and its cookie cleared. `touch` records the use (GET /api/session does not: a page
   * left open and asking who is signed in is not someone using the portal).
   */
  async resolve(
    request: FastifyRequest,
    reply: FastifyReply,
    touch: boolean,
  ): Promise<{ session: RequestSession | null; end: SessionEnd | null }> {
    const ids = sessionIdsOf(request);
    if (ids.length === 0) return { session: null, end: null };
    const now = this.now();
    let end: SessionEnd = 'unknown';
    for (const id of ids) {
      if (!tokenPattern.test(id)) continue;
      const idHash = tokenDigest(id);
      const stored = await this.sessions.find(idHash);
      if (!stored) continue;
      const idle = now - stored.lastSeenAt >= this.config.auth.idleMs;
      const expired = now - stored.createdAt >= this.config.auth.maxMs;
      const user = idle || expired ? undefined : await this.users.byId(stored.userId);
      if (!user || user.disabled) {
        await this.sessions.delete(idHash);
        end = expired ? 'expired' : idle ? 'idle' : 'unknown';
        if (idle || expired) {
          this.audit(
            'session_expired',
            { userId: stored.userId, reason: expired ? 'absolute' : 'idle' },
            request,
          );
        }
        continue;
      }
      if (touch && now - stored.lastSeenAt >= touchEveryMs) await this.sessions.touch(idHash, now);
      return {
        session: { user: this.portalUser(user), csrfToken: stored.csrfToken, idHash },
        end: null,
      };
    }
    clearSessionCookie(request, reply);
    return { session: null, end };
  }

  /**
   * A new session for a user who just proved who they are: a new id whatever the request carried
   * (no fixation), the old one deleted, a new CSRF token.
   */
  private async startSession(
    request: FastifyRequest,
    reply: FastifyReply,
    user: StoredUser,
  ): Promise<RequestSession> {
    if (request.portalSession) await this.sessions.delete(request.portalSession.idHash);
    const id = randomToken();
    const idHash = tokenDigest(id);
    const csrfToken = randomToken();
    const now = this.now();
    await this.sessions.create(idHash, {
      userId: user.id,
      csrfToken,
      createdAt: now,
      lastSeenAt: now,
    });
    await this.users.noteSignIn(user.id, now);
    setSessionCookie(request, reply, id, this.config.auth.maxMs);
    const session = { user: this.portalUser(user), csrfToken, idHash };
    request.portalSession = session;
    return session;
  }

  /**
   * Signs in a user who just proved who they are, by `method`: a new session (startSession), and
   * the `sign_in` audit line saying who, with which role, from where and how.
   */
  async signIn(
    request: FastifyRequest,
    reply: FastifyReply,
    user: StoredUser,
    method: 'password' | 'invite' | 'sso',
  ): Promise<RequestSession> {
    const session = await this.startSession(request, reply, user);
    this.audit(
      'sign_in',
      { userId: user.id, email: user.email, role: user.role, address: request.ip, method },
      request,
    );
    return session;
  }

  async endSession(request: FastifyRequest, reply: FastifyReply): Promise<void> {
    if (request.portalSession) await this.sessions.delete(request.portalSession.idHash);
    request.portalSession = null;
    clearSessionCookie(request, reply);
  }

  /** A new one-time invite for the user (earlier links stop working); returns its path. */
  async invite(userId: string): Promise<string> {
    const token = randomToken();
    const now = this.now();
    await this.users.invite({
      tokenHash: tokenDigest(token),
      userId,
      createdAt: now,
      expiresAt: now + inviteLifetimeMs,
    });
    return `/invite/${token}`;
  }

  state(request: FastifyRequest): SessionState {
    const session = request.portalSession;
    return {
      authRequired: this.required,
      user: session?.user ?? null,
      // No session, no token: a call without one has nothing to ride on (decision 026).
      csrfToken: session?.csrfToken ?? '',
      sso: this.config.auth.sso ? { label: this.config.auth.sso.label } : null,
    };
  }
}
