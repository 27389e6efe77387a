import type { z } from 'zod';
import { ConfigError, isLoopbackHost, type portalEnvSchema } from './config-env';

/*
 * Sign-in's settings: whether it is required, the sessions' limits, single sign-on. Read from the
 * variables config-env.ts has parsed; config.ts puts them in PortalConfig.
 */

export interface AuthSettings {
  /**
   * Sign-in is required: always when HOST is not loopback or a reverse proxy is trusted
   * (TRUST_PROXY), and on loopback when AUTH=on. Off: everything works with no account, as a
   * portal on one person's machine always has.
   */
  required: boolean;
  /**
   * Fastify's `trustProxy`: false; true (trust every hop); or the proxies' addresses. Only then
   * are X-Forwarded-For (the client's address, for sign-in limits) and X-Forwarded-Proto (HTTPS:
   * the Secure, __Host- cookie) believed.
   */
  trustProxy: boolean | string;
  /** A session unused this long ends (SESSION_IDLE_MINUTES). */
  idleMs: number;
  /** A session ends this long after sign-in, used or not (SESSION_MAX_HOURS). */
  maxMs: number;
  /**
   * The address people open the portal at (PORTAL_PUBLIC_URL), as an origin
   * (`https://portal.example.com`): the only Origin allowed on state-changing calls, and the base
   * of invite links. Null: the request's own scheme and host.
   */
  publicOrigin: string | null;
  /** Single sign-on through OpenID Connect (OIDC_*), or null. */
  sso: SsoSettings | null;
}

export interface SsoSettings {
  /** The provider's issuer URL; its discovery document is read from under it. */
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** What the sign-in page calls it ("Sign in with …"). */
  label: string;
}

/**
 * Whether sign-in is required, and the sessions' limits. Others can reach a portal that listens
 * beyond loopback or sits behind a reverse proxy, so there AUTH=off is refused rather than obeyed.
 */
export function authSettings(values: z.output<typeof portalEnvSchema>): AuthSettings {
  const exposedBy =
    values.TRUST_PROXY !== false
      ? 'TRUST_PROXY is set (a reverse proxy lets others reach the portal)'
      : !isLoopbackHost(values.HOST)
        ? `HOST=${values.HOST} is not loopback (others can reach the portal)`
        : null;
  if (values.AUTH === 'off' && exposedBy !== null) {
    throw new ConfigError(
      `AUTH=off is not allowed here: ${exposedBy}, and the portal acts with this deployment's VMS credentials. Remove AUTH=off (sign-in is then required), or set HOST=127.0.0.1 without TRUST_PROXY for a portal on your own machine.`,
    );
  }
  const idleMs = values.SESSION_IDLE_MINUTES * 60_000;
  const maxMs = values.SESSION_MAX_HOURS * 60 * 60_000;
  if (idleMs > maxMs) {
    throw new ConfigError(
      `SESSION_IDLE_MINUTES (${values.SESSION_IDLE_MINUTES}) must not be longer than SESSION_MAX_HOURS (${values.SESSION_MAX_HOURS} h): a session ends at the first of the two.`,
    );
  }
  const required = values.AUTH === 'on' || exposedBy !== null;
  return {
    required,
    trustProxy: values.TRUST_PROXY,
    idleMs,
    maxMs,
    publicOrigin: values.PORTAL_PUBLIC_URL ?? null,
    sso: ssoSettings(values, required),
  };
}

/** OIDC_ISSUER, OIDC_CLIENT_ID and OIDC_CLIENT_SECRET: all three or none, and sign-in on. */
function ssoSettings(
  values: z.output<typeof portalEnvSchema>,
  required: boolean,
): SsoSettings | null {
  const given = {
    OIDC_ISSUER: values.OIDC_ISSUER,
    OIDC_CLIENT_ID: values.OIDC_CLIENT_ID,
    OIDC_CLIENT_SECRET: values.OIDC_CLIENT_SECRET,
  };
  const missing = Object.entries(given).filter(([, value]) => value === undefined);
  if (missing.length === 3) return null;
  if (missing.length > 0) {
    throw new ConfigError(
      `Single sign-on needs OIDC_ISSUER, OIDC_CLIENT_ID and OIDC_CLIENT_SECRET together; ${missing.map(([name]) => name).join(' and ')} ${missing.length === 1 ? 'is' : 'are'} not set. Set ${missing.length === 1 ? 'it' : 'them'} from the client registered at your OpenID provider, or remove the others.`,
    );
  }
  if (!required) {
    throw new ConfigError(
      'OIDC_ISSUER is set but sign-in is off (a loopback HOST without AUTH=on): set AUTH=on to sign in with single sign-on.',
    );
  }
  return {
    issuer: given.OIDC_ISSUER ?? '',
    clientId: given.OIDC_CLIENT_ID ?? '',
    clientSecret: given.OIDC_CLIENT_SECRET ?? '',
    label: values.OIDC_LABEL,
  };
}
