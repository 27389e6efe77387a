import { isIP } from 'node:net';
import { z } from 'zod';
import { baseUrlProblem, normalizedBaseUrl } from '@/domain/connection-entries';
import {
  oneOf,
  withDefault,
  sharedSettings,
  unsetWhenBlank,
  wholeNumber,
  wholeNumberOr,
} from '@/domain/settings';
import { connectionDefaults } from './connections/connections';
import { parseAllowedHosts } from './webhooks/webhook-address';

/*
 * The portal's environment variables, each parsed and checked on its own (config.ts puts them
 * together, checks how they fit, and builds PortalConfig). docs/configuration.md documents each.
 */

/** Fewer characters than this are guessable by whoever can reach the port. */
export const metricsTokenMinLength = 16;

export const logLevels = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof logLevels)[number];

/** A setting that is missing or malformed; the message is one line that names the variable. */
export class ConfigError extends Error {
  override name = 'ConfigError';
  /** Each problem on its own, for a reader that lists them (the message joins them). */
  readonly problems: readonly string[];

  constructor(message: string, problems: readonly string[] = [message]) {
    super(message);
    this.problems = problems;
  }
}

export const MB = 1024 * 1024;

const optional = unsetWhenBlank;

/** A client org this portal acts for, with the name people know it by (null: none given). */
export interface ClientOrg {
  id: number;
  name: string | null;
}

/** "1001:Northwind Health,1002" → orgs, in order, each once; a name may not hold a comma. */
const clientOrgList = (name: string) =>
  optional.transform((value, ctx): ClientOrg[] | undefined => {
    if (value === undefined) return undefined;
    const orgs = new Map<number, ClientOrg>();
    for (const part of value.split(',')) {
      const [id = '', ...rest] = part.split(':');
      const label = rest.join(':').trim();
      if (!/^[1-9]\d{0,15}$/.test(id.trim()) || (rest.length > 0 && label === '')) {
        ctx.addIssue({
          code: 'custom',
          message: `${name} must be a comma-separated list of client org ids, each with its name after a colon if you like, such as "1001:Northwind Health,1002"; "${part.trim()}" is not one.`,
        });
        return z.NEVER;
      }
      const orgId = Number(id.trim());
      if (!orgs.has(orgId)) orgs.set(orgId, { id: orgId, name: label === '' ? null : label });
    }
    return [...orgs.values()];
  });

const baseUrl = optional.transform((value, ctx) => {
  if (value === undefined) return undefined;
  const found = baseUrlProblem(value);
  if (found?.problem === 'credentials') {
    // Credentials go in VMS_API_KEY / VMS_API_SECRET.
    ctx.addIssue({
      code: 'custom',
      message: `VMS_BASE_URL must not contain a user name or password (user:password@host); remove them from the address (the VMS is signed with VMS_API_KEY and VMS_API_SECRET), e.g. "${found.withoutThem}".`,
    });
    return z.NEVER;
  }
  if (found) {
    ctx.addIssue({
      code: 'custom',
      message: `VMS_BASE_URL must be an http(s) address without a query, such as "https://vms.example.com/api/"; got "${value}".`,
    });
    return z.NEVER;
  }
  return normalizedBaseUrl(value);
});

/** `true`, `false`, or the reverse proxies' addresses (IPs or CIDR ranges, comma-separated). */
const trustProxy = optional.transform((value, ctx): boolean | string | undefined => {
  if (value === undefined) return undefined;
  if (value === 'true' || value === 'false') return value === 'true';
  const parts = value.split(',').map((part) => part.trim());
  const address = (part: string) => {
    const [ip = '', bits, ...rest] = part.split('/');
    const family = isIP(ip);
    const maxBits = family === 6 ? 128 : 32;
    return (
      family !== 0 &&
      rest.length === 0 &&
      (bits === undefined || (/^\d{1,3}$/.test(bits) && Number(bits) <= maxBits))
    );
  };
  if (parts.every(address)) return parts.join(',');
  ctx.addIssue({
    code: 'custom',
    message: `TRUST_PROXY must be true, false, or the reverse proxy's addresses (such as "127.0.0.1" or "10.0.0.0/8,::1"); got "${value}".`,
  });
  return z.NEVER;
});

/** The portal's public address: an http(s) origin, nothing after the host. */
const publicUrl = optional.transform((value, ctx) => {
  if (value === undefined) return undefined;
  const url = URL.canParse(value) ? new URL(value) : null;
  if (
    !url ||
    (url.protocol !== 'http:' && url.protocol !== 'https:') ||
    url.username ||
    url.password ||
    url.search ||
    url.hash ||
    url.pathname !== '/'
  ) {
    ctx.addIssue({
      code: 'custom',
      message: `PORTAL_PUBLIC_URL must be the address people open the portal at, scheme and host only, such as "https://portal.example.com"; got "${value}".`,
    });
    return z.NEVER;
  }
  return url.origin;
});

/** An OpenID provider's issuer: https, or http on this machine only (a test's provider). */
const issuerUrl = optional.transform((value, ctx) => {
  if (value === undefined) return undefined;
  const url = URL.canParse(value) ? new URL(value) : null;
  const secure =
    url?.protocol === 'https:' || (url?.protocol === 'http:' && isLoopbackHost(url.hostname));
  if (!url || !secure || url.username || url.password || url.search || url.hash) {
    ctx.addIssue({
      code: 'custom',
      message: `OIDC_ISSUER must be the https address of your OpenID provider, as its discovery document names it (such as "https://login.example.com/realms/staff"); got "${value}".`,
    });
    return z.NEVER;
  }
  return value;
});

/** The scrape's bearer token; the message never repeats it (it is a secret). */
const metricsToken = optional.transform((value, ctx) => {
  if (value === undefined) return null;
  if (value.length < metricsTokenMinLength || !/^[\x21-\x7e]+$/.test(value)) {
    ctx.addIssue({
      code: 'custom',
      message: `METRICS_TOKEN must be at least ${metricsTokenMinLength} printable characters without spaces (such as the output of "openssl rand -hex 32"); the value given is not.`,
    });
    return z.NEVER;
  }
  return value;
});

/** A PostgreSQL connection URL; the message never repeats it (it may hold a password). */
const databaseUrl = optional.transform((value, ctx) => {
  if (value === undefined) return null;
  const url = URL.canParse(value) ? new URL(value) : null;
  if (!url || (url.protocol !== 'postgres:' && url.protocol !== 'postgresql:') || !url.hostname) {
    ctx.addIssue({
      code: 'custom',
      message:
        'DATABASE_URL must be a PostgreSQL address such as "postgres://portal:PASSWORD@db.internal:5432/portal" (postgres:// or postgresql://, with a host); leave it unset to keep everything in the SQLite file PORTAL_DB.',
    });
    return z.NEVER;
  }
  return value;
});

/** WEBHOOK_ALLOW_HOSTS: hosts a webhook may reach though not public (decision 051). */
const webhookAllowHosts = optional.transform((value, ctx) => {
  const parsed = parseAllowedHosts(value);
  if ('problem' in parsed) {
    ctx.addIssue({ code: 'custom', message: parsed.problem });
    return z.NEVER;
  }
  return parsed;
});

export const portalEnvSchema = z.object({
  PORT: wholeNumberOr('PORT', 0, 65535, 8787),
  HOST: withDefault(optional, '127.0.0.1'),
  VMS_CONNECTIONS: optional,
  VMS_BASE_URL: baseUrl,
  VMS_API_KEY: optional,
  VMS_API_SECRET: optional,
  VMS_CLIENT_ORGS: clientOrgList('VMS_CLIENT_ORGS'),
  /** The earlier name of VMS_CLIENT_ORGS, still read. */
  VMS_CLIENT_ORG_IDS: clientOrgList('VMS_CLIENT_ORG_IDS'),
  VMS_VENDOR_ORG_ID: wholeNumber('VMS_VENDOR_ORG_ID', 1, Number.MAX_SAFE_INTEGER, '9001'),
  VMS_PROFILE: optional,
  /** Whether the one remote VMS reaches real people; unset: yes for a remote VMS. */
  VMS_PRODUCTION: oneOf('VMS_PRODUCTION', ['on', 'off']),
  ...sharedSettings,
  VMS_TIMEOUT_MS: wholeNumberOr('VMS_TIMEOUT_MS', 1, 600_000, connectionDefaults.timeoutMs),
  VMS_LATE_ANSWER_MS: wholeNumber('VMS_LATE_ANSWER_MS', 1, 24 * 60 * 60 * 1000, '600000'),
  VMS_BODY_LIMIT_BYTES: wholeNumberOr('VMS_BODY_LIMIT_BYTES', 1024, 1024 * MB, 5 * MB),
  PORTAL_RATE_LIMIT_PER_MINUTE: wholeNumberOr('PORTAL_RATE_LIMIT_PER_MINUTE', 0, 1_000_000, 600),
  PORTAL_REQUEST_TIMEOUT_MS: wholeNumberOr('PORTAL_REQUEST_TIMEOUT_MS', 1000, 3_600_000, 60_000),
  PORTAL_CONNECTION_TIMEOUT_MS: wholeNumberOr(
    'PORTAL_CONNECTION_TIMEOUT_MS',
    1000,
    3_600_000,
    120_000,
  ),
  PORTAL_DRAIN_TIMEOUT_MS: wholeNumberOr('PORTAL_DRAIN_TIMEOUT_MS', 0, 3_600_000, 20_000),
  PORTAL_DB: withDefault(optional, './data/portal.db'),
  DATABASE_URL: databaseUrl,
  JOURNAL: withDefault(oneOf('JOURNAL', ['on', 'off']), 'on'),
  JOURNAL_RETENTION_DAYS: wholeNumberOr('JOURNAL_RETENTION_DAYS', 1, 3650, 30),
  JOURNAL_MAX_MB: wholeNumberOr('JOURNAL_MAX_MB', 1, 1_000_000, 500),
  JOURNAL_BODY_LIMIT_KB: wholeNumberOr('JOURNAL_BODY_LIMIT_KB', 1, 1024 * 1024, 256),
  AUDIT_RETENTION_DAYS: wholeNumberOr('AUDIT_RETENTION_DAYS', 1, 3650, 365),
  RESULTS_RETENTION_DAYS: wholeNumberOr('RESULTS_RETENTION_DAYS', 0, 3650, 180),
  DRAFT_RETENTION_DAYS: wholeNumberOr('DRAFT_RETENTION_DAYS', 0, 3650, 90),
  SUITE_RUN_RETENTION_DAYS: wholeNumberOr('SUITE_RUN_RETENTION_DAYS', 0, 3650, 90),
  WATCH: withDefault(oneOf('WATCH', ['on', 'off']), 'on'),
  WATCH_GIVE_UP_HOURS: wholeNumberOr('WATCH_GIVE_UP_HOURS', 1, 24 * 365, 72),
  WATCH_CONCURRENCY: wholeNumberOr('WATCH_CONCURRENCY', 1, 64, 4),
  METRICS_PORT: wholeNumber('METRICS_PORT', 0, 65535, '9464'),
  METRICS_TOKEN: metricsToken,
  LOG_LEVEL: withDefault(oneOf('LOG_LEVEL', logLevels), 'info'),
  AUTH: oneOf('AUTH', ['on', 'off']),
  TRUST_PROXY: withDefault(trustProxy, false),
  SESSION_IDLE_MINUTES: wholeNumberOr('SESSION_IDLE_MINUTES', 1, 24 * 60, 30),
  SESSION_MAX_HOURS: wholeNumberOr('SESSION_MAX_HOURS', 1, 24 * 30, 12),
  PORTAL_PUBLIC_URL: publicUrl,
  OIDC_ISSUER: issuerUrl,
  OIDC_CLIENT_ID: optional,
  OIDC_CLIENT_SECRET: optional,
  OIDC_LABEL: withDefault(optional, 'single sign-on'),
  SMTP_URL: optional,
  SMTP_PASSWORD: optional,
  MAIL_FROM: optional,
  WEBHOOK_ALLOW_HOSTS: webhookAllowHosts,
});

/** True for addresses only this machine can reach. */
export function isLoopbackHost(host: string): boolean {
  const bare = host.replace(/^\[|\]$/g, '').toLowerCase();
  if (bare === 'localhost' || bare.endsWith('.localhost')) return true;
  if (isIP(bare) === 4) return bare.startsWith('127.');
  return bare === '::1' || bare === '0:0:0:0:0:0:0:1';
}
