import type { FastifyReply, FastifyRequest } from 'fastify';
import { ApiError } from '@/domain/api-error';
import { verifyPassword } from './passwords';
import type { PortalAuth, RequestSession } from './portal-auth';
import {
  accountDigest,
  accountKey,
  addressKey,
  throttlePolicy,
  waitBeforeAttempt,
} from './sign-in-throttle';

/** Why a sign-in failed, as its audit event says. */
type SignInFailure =
  'throttled' | 'unknown_account' | 'invite_pending' | 'disabled' | 'wrong_password';

/** The one answer to any failed sign-in: it says nothing about which part was wrong. */
export const invalidCredentialsMessage =
  'That e-mail address and password do not match an account that may sign in. Check both and try again; if you have forgotten your password, ask an admin for a new invite link.';

/** The address as it is stored: trimmed, lower case. Anything typed is accepted as a name. */
export function normalizedEmail(email: string): string {
  return email.trim().toLowerCase();
}

function waitText(ms: number): string {
  const seconds = Math.ceil(ms / 1000);
  return seconds < 90 ? `${seconds} seconds` : `${Math.ceil(seconds / 60)} minutes`;
}

/**
 * A password sign-in (decision 026). Every failure — unknown address, wrong password, an invite
 * not yet accepted, a disabled account — costs one argon2id verification and gets the same 401;
 * the audit line (never the password) says which it was. Failures are counted per address tried
 * and per client address, and past the free ones an attempt is refused with 429 and Retry-After
 * before the password is checked.
 */
export async function signIn(
  auth: PortalAuth,
  request: FastifyRequest,
  reply: FastifyReply,
  email: string,
  password: string,
): Promise<RequestSession> {
  const name = normalizedEmail(email).slice(0, 320);
  const secret = await auth.throttleSecret();
  const keys = [accountKey(secret, name), addressKey(request.ip)];
  const user = await auth.users.byEmail(name);
  // A name that is no account is never written as typed, to the log or the database: it is often
  // a password typed into the wrong box. Its keyed hash still lets a reader of the audit lines
  // see one name tried again and again.
  const tried = user
    ? { email: user.email }
    : { email: null, account: accountDigest(secret, name).slice(0, 16) };
  const failed = (reason: SignInFailure) =>
    auth.audit(
      'sign_in_failed',
      { ...tried, userId: user?.id ?? null, address: request.ip, reason },
      request,
    );
  const wait = waitBeforeAttempt(await auth.failures.read(keys), auth.now());
  if (wait > 0) {
    failed('throttled');
    reply.header('retry-after', String(Math.ceil(wait / 1000)));
    throw new ApiError(
      'rate_limited',
      `Too many failed sign-ins for this account or from this address. Wait ${waitText(wait)} and try again.`,
    );
  }

  const matches = await verifyPassword(user?.passwordHash ?? (await auth.dummyHash()), password);
  if (!user || user.passwordHash === null || user.disabled || !matches) {
    const now = auth.now();
    await auth.failures.fail(keys, now, now - throttlePolicy.forgetAfterMs);
    failed(
      !user
        ? 'unknown_account'
        : user.passwordHash === null
          ? 'invite_pending'
          : user.disabled
            ? 'disabled'
            : 'wrong_password',
    );
    throw new ApiError('invalid_credentials', invalidCredentialsMessage);
  }

  await auth.failures.clear(accountKey(secret, name));
  return auth.signIn(request, reply, user, 'password');
}
