import { randomUUID } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import type { z } from 'zod';
import { ApiError } from '@/domain/api-error';
import {
  apiTokenPattern,
  apiTokenPrefix,
  type ApiTokenScope,
  type ApiTokenSummary,
  type CreatedApiToken,
  type createApiTokenSchema,
} from '@/domain/api-tokens';
import { roleRank } from '@/domain/auth';
import type { PortalAuth, PortalUser, RequestSession } from '@/server/accounts/portal-auth';
import type { StoredUser } from '@/server/accounts/store/users';
import { randomToken, tokenDigest } from '@/server/accounts/tokens';
import { isoTime } from '@/server/http/iso-time';
import { purgeRounds } from '@/server/store/purge-rounds';
import { inScope, scopeReach } from './api-token-scope';
import type { ApiTokenStore, StoredApiToken } from './api-token-store';

/** The token a call was made with, once it was found: the audit trail names it (decision 037). */
export interface ApiTokenUse {
  id: string;
  name: string;
  scope: ApiTokenScope;
  /** Whose it is; set before the token is refused too, so a refusal names the owner. */
  userId: string;
  email: string | null;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** Set when the call carried an API token the portal knows; null otherwise. */
    apiToken: ApiTokenUse | null;
  }
}

/** A token's last use is written at most this often (each call would be a write). */
const touchEveryMs = 60_000;
/** A revoked or expired token's row is kept this long, so its use says what happened to it. */
const keepEndedMs = 90 * 24 * 60 * 60_000;
const dayMs = 24 * 60 * 60_000;

/** Where a user makes tokens, for the messages. */
const accountPage = 'your Account page (/account)';

const day = (at: number) => new Date(at).toISOString().slice(0, 10);
function refused(reason: string, message: string): ApiError {
  return new ApiError('token_invalid', message, [{ field: 'authorization', message: reason }]);
}

/** One answer for a token never made, removed, or not of a token's shape: nothing more is said. */
const unknownToken = () =>
  refused(
    'unknown',
    `This API token is not one this portal knows. Check that the whole token was copied (it starts with ${apiTokenPrefix}), or make a new one on ${accountPage}.`,
  );

/**
 * Personal API tokens (decision 037): making, listing and revoking them, and checking the one a
 * call carries. A token is `vmsp_` and 256 random bits; the database keeps its SHA-256 (as for
 * session ids), so only its owner ever sees it, once.
 */
export class ApiTokens {
  private readonly purging: { stop(): void };

  constructor(
    private readonly auth: PortalAuth,
    private readonly store: ApiTokenStore,
  ) {
    this.purging = purgeRounds({
      everyMs: 60 * 60_000,
      log: auth.log,
      failure: 'could not purge ended API tokens',
      purge: () => this.store.purgeEndedBefore(this.auth.now() - keepEndedMs),
    });
  }

  close(): void {
    this.purging.stop();
  }

  private summary(token: StoredApiToken, email: string): ApiTokenSummary {
    return {
      id: token.id,
      name: token.name,
      scope: token.scope,
      userId: token.userId,
      email,
      createdAt: isoTime(token.createdAt),
      expiresAt: isoTime(token.expiresAt),
      lastUsedAt: token.lastUsedAt === null ? null : isoTime(token.lastUsedAt),
      revokedAt: token.revokedAt === null ? null : isoTime(token.revokedAt),
    };
  }

  /** A new token for `owner`; the answer is the one place the token itself ever appears. */
  async create(
    request: FastifyRequest,
    owner: PortalUser,
    input: z.output<typeof createApiTokenSchema>,
  ): Promise<CreatedApiToken> {
    const now = this.auth.now();
    const taken = (await this.store.listForUser(owner.id)).find(
      (token) =>
        token.name.toLowerCase() === input.name.toLowerCase() &&
        token.revokedAt === null &&
        token.expiresAt > now,
    );
    if (taken) {
      throw new ApiError(
        'token_exists',
        `You already have a token named "${input.name}" that works until ${day(taken.expiresAt)}. Choose another name, or revoke that one first: the audit trail names tokens, so each working one has its own name.`,
        [{ field: 'name', message: 'already used by a working token of yours' }],
      );
    }
    const secret = `${apiTokenPrefix}${randomToken()}`;
    const token: StoredApiToken = {
      id: randomUUID(),
      userId: owner.id,
      name: input.name,
      scope: input.scope,
      createdAt: now,
      expiresAt: now + input.expiresInDays * dayMs,
      lastUsedAt: null,
      revokedAt: null,
      revokedBy: null,
    };
    await this.store.create(tokenDigest(secret), token);
    this.auth.audit(
      'api_token_created',
      {
        userId: owner.id,
        email: owner.email,
        credentialId: token.id,
        name: token.name,
        scope: token.scope,
        expiresAt: isoTime(token.expiresAt),
      },
      request,
    );
    return { token: this.summary(token, owner.email), secret };
  }

  async listFor(user: PortalUser): Promise<ApiTokenSummary[]> {
    return (await this.store.listForUser(user.id)).map((token) => this.summary(token, user.email));
  }

  /** Every user's tokens, for admins. */
  async listAll(): Promise<ApiTokenSummary[]> {
    const emails = new Map((await this.auth.users.list()).map((user) => [user.id, user.email]));
    return (await this.store.listAll()).map((token) =>
      this.summary(token, emails.get(token.userId) ?? '(account removed)'),
    );
  }

  /**
   * Revokes a token of `actor`'s own, or anyone's when `actor` is an admin. Someone else's token
   * is "not found" to anyone else, as one that does not exist. Revoking one already revoked
   * answers it as it is.
   */
  async revoke(request: FastifyRequest, actor: PortalUser, id: string): Promise<ApiTokenSummary> {
    const token = await this.store.byId(id);
    if (!token || (token.userId !== actor.id && actor.role !== 'admin')) {
      throw new ApiError(
        'not_found',
        'There is no such API token of yours. Reload the list: it may have been revoked and removed.',
      );
    }
    const owner = await this.auth.users.byId(token.userId);
    const email = owner?.email ?? '(account removed)';
    if (token.revokedAt !== null) return this.summary(token, email);
    const now = this.auth.now();
    await this.store.revoke(id, now, actor.id);
    const revoked = (await this.store.byId(id)) ?? {
      ...token,
      revokedAt: now,
      revokedBy: actor.id,
    };
    this.auth.audit(
      'api_token_revoked',
      {
        userId: token.userId,
        email,
        credentialId: token.id,
        name: token.name,
        scope: token.scope,
        by: actor.id,
      },
      request,
    );
    return this.summary(revoked, email);
  }

  /**
   * The session a call carrying `Authorization: Bearer <token>` acts in: its owner, with the same
   * role and grants as when signed in, within the token's scope. Refused with 401 `token_invalid`
   * saying which of revoked, expired, unknown or disabled account, or 403 for a call outside the
   * scope; nothing that does not have a token's shape is looked up.
   */
  async authenticate(
    request: FastifyRequest,
    given: string,
    path: string,
  ): Promise<RequestSession> {
    if (!apiTokenPattern.test(given)) throw unknownToken();
    const token = await this.store.byHash(tokenDigest(given));
    if (!token) throw unknownToken();
    const now = this.auth.now();
    const owner: StoredUser | undefined = await this.auth.users.byId(token.userId);
    request.apiToken = {
      id: token.id,
      name: token.name,
      scope: token.scope,
      userId: token.userId,
      email: owner?.email ?? null,
    };
    if (token.revokedAt !== null) {
      throw refused(
        'revoked',
        `This API token ("${token.name}") was revoked on ${day(token.revokedAt)}; make a new one on ${accountPage}.`,
      );
    }
    if (token.expiresAt <= now) {
      throw refused(
        'expired',
        `This API token ("${token.name}") expired on ${day(token.expiresAt)}; make a new one on ${accountPage}.`,
      );
    }
    if (!owner || owner.disabled) {
      throw refused(
        'account_disabled',
        `The account this API token ("${token.name}") belongs to is disabled, so the token no longer works. Ask an admin.`,
      );
    }
    const session: RequestSession = {
      user: this.auth.portalUser(owner),
      // A bearer call carries no cookie: there is no CSRF token to ask of it (decision 037).
      csrfToken: '',
      // No session row: nothing to delete should a route try to end "this session".
      idHash: Buffer.alloc(0),
    };
    request.portalSession = session;
    if (roleRank[owner.role] < roleRank.qa) {
      throw new ApiError(
        'forbidden',
        `API tokens are for QA and admins, and the account this token ("${token.name}") belongs to is now a ${owner.role}'s. Ask an admin for the qa role, or sign in to the portal.`,
      );
    }
    if (!inScope(token.scope, request.method, path)) {
      throw new ApiError(
        'token_scope',
        `This API token ("${token.name}") has the scope "${token.scope}": it may call ${scopeReach[token.scope]}, not ${request.method} ${path}. ${
          token.scope === 'suites' && inScope('suites-and-sends', request.method, path)
            ? `Make a token with the scope "suites-and-sends" on ${accountPage} to send through the VMS proxy.`
            : 'Sign in to the portal for that.'
        }`,
        [{ field: 'authorization', message: `outside the scope ${token.scope}` }],
      );
    }
    if (token.lastUsedAt === null || now - token.lastUsedAt >= touchEveryMs) {
      await this.store.touch(token.id, now);
    }
    return session;
  }
}
