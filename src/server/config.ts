import { isIP } from 'node:net';
import { z } from 'zod';
import {
  oneOf,
  settingsProblem,
  withDefault,
  sharedSettings,
  unsetWhenBlank,
  wholeNumber,
  wholeNumberOr,
} from '@/domain/settings';
import { profileFromSetting } from '@/node/profile-setting';
import { sandboxDemo } from '@/sandbox/index';
import {
  connectionDefaults,
  defaultLateAnswerMs,
  loadConnections,
  type Connection,
} from './connections/connections';

export type { Connection } from './connections/connections';

/**
 * The portal server's settings, read from the environment (and `.env`, which main.ts loads) and
 * validated once at start-up. docs/configuration.md documents each one; keep the two in step.
 *
 * The VMS fields (vmsBaseUrl to lateAnswerMs, sandboxProcessingDelayMs) describe the default
 * connection, so code written for one VMS keeps working while a deployment holds several.
 */
export interface PortalConfig extends Pick<
  Connection,
  | 'apiKey'
  | 'apiSecret'
  | 'clientOrgIds'
  | 'clientOrgNames'
  | 'vendorOrgId'
  | 'profile'
  | 'dateFormat'
  | 'maxBatch'
  | 'timeoutMs'
  | 'lateAnswerMs'
> {
  port: number;
  host: string;
  /**
   * Every VMS this deployment may talk to (VMS_CONNECTIONS), or the one the VMS_* variables
   * describe; never empty.
   */
  connections: Connection[];
  /** The name of the connection people start with; the fields it gives (above) describe it. */
  defaultConnection: string;
  /** The upstream VMS, always ending in `/`; null → start the embedded sandbox and use it. */
  vmsBaseUrl: string | null;
  bodyLimitBytes: number;
  /** Most time a client may take to send a whole request (headers and body). */
  requestTimeoutMs: number;
  /** Most time a connection may stay silent before the server closes it. */
  connectionTimeoutMs: number;
  /**
   * On SIGTERM/SIGINT, how long the drain waits for calls still at the VMS before it marks their
   * keys outcome unknown and closes (PORTAL_DRAIN_TIMEOUT_MS).
   */
  drainTimeoutMs: number;
  /** The portal's own database (idempotency keys, call journal): an SQLite file, or `:memory:`. */
  portalDb: string;
  /**
   * PostgreSQL for every store instead of PORTAL_DB, so several portal processes act as one
   * (decision 027); null: the SQLite file.
   */
  databaseUrl: string | null;
  /** The call journal (decision 025): every call through the proxy, kept for QA's inspector. */
  journal: JournalSettings;
  /** The audit trail (decision 036): who did what, kept apart from the journal. */
  audit: AuditSettings;
  /** Requests per minute per client address on /api/vms; 0 turns the limit off. */
  rateLimitPerMinute: number;
  /** Sign-in and sessions (decision 026). */
  auth: AuthSettings;
  /** Prometheus metrics (decision 034): where they are served, if anywhere. */
  metrics: MetricsSettings;
  logLevel: LogLevel;
  sandboxPort: number;
  sandboxDb: string;
  /** The embedded sandbox's pause before each batch item. */
  sandboxProcessingDelayMs: number;
}

export interface JournalSettings {
  /** JOURNAL=off records nothing (and the journal's API says it is off). */
  enabled: boolean;
  /** Calls older than this are pruned. */
  retentionMs: number;
  /** The portal database's used size the journal prunes to (oldest calls first). */
  maxBytes: number;
  /** Bodies longer than this are kept truncated (with their full length and SHA-256). */
  bodyLimitBytes: number;
}

export interface AuditSettings {
  /** Events older than this are pruned (AUDIT_RETENTION_DAYS). */
  retentionMs: number;
}

export interface MetricsSettings {
  /**
   * A second listener on HOST that serves only GET /metrics (METRICS_PORT; 0 picks a free port);
   * null: none.
   */
  port: number | null;
  /**
   * The bearer token a scrape must send (METRICS_TOKEN). When set, /metrics is served on the
   * portal's own port too, and the metrics port asks for it as well; null: not on the portal's
   * port, and the metrics port asks for nothing.
   */
  token: string | null;
}

/** Fewer characters than this are guessable by whoever can reach the port. */
export const metricsTokenMinLength = 16;

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

const MB = 1024 * 1024;

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
  const url = URL.canParse(value) ? new URL(value) : null;
  if (url && (url.username || url.password)) {
    // Never echo the value: it holds a password. Credentials go in VMS_API_KEY / VMS_API_SECRET.
    ctx.addIssue({
      code: 'custom',
      message: `VMS_BASE_URL must not contain a user name or password (user:password@host); remove them from the address (the VMS is signed with VMS_API_KEY and VMS_API_SECRET), e.g. "${url.protocol}//${url.host}${url.pathname}".`,
    });
    return z.NEVER;
  }
  if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:') || url.search || url.hash) {
    ctx.addIssue({
      code: 'custom',
      message: `VMS_BASE_URL must be an http(s) address without a query, such as "https://vms.example.com/api/"; got "${value}".`,
    });
    return z.NEVER;
  }
  // Operations are resolved relative to the base, so a path prefix (/api/v1) must end in "/".
  return url.href.endsWith('/') ? url.href : `${url.href}/`;
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
});

/** What a remote VMS needs that the sandbox supplies itself, and how to find each one. */
const requiredForRemote = [
  ['VMS_API_KEY', 'copy the API key from your VMS account page.'],
  ['VMS_API_SECRET', 'copy the API secret from your VMS account page.'],
  [
    'VMS_CLIENT_ORGS',
    'list the client orgs this portal may act for, such as "1001:Northwind Health,1002".',
  ],
  ['VMS_VENDOR_ORG_ID', 'give your vendor org id, such as 9001.'],
] as const;

/**
 * Validates the environment. Throws a ConfigError whose one-line message names every variable
 * that is missing or malformed, so the operator can fix them all at once.
 */
export function loadConfig(env: NodeJS.ProcessEnv): PortalConfig {
  const parsed = portalEnvSchema.safeParse(env);
  if (!parsed.success) {
    throw new ConfigError(settingsProblem(parsed.error));
  }
  const values = parsed.data;
  const connectionTimeoutMs = values.PORTAL_CONNECTION_TIMEOUT_MS;
  const auth = authSettings(values);
  const metricsPort = values.METRICS_PORT ?? null;
  if (metricsPort !== null && metricsPort !== 0 && metricsPort === values.PORT) {
    throw new ConfigError(
      `METRICS_PORT (${metricsPort}) must differ from PORT: it is a second listener that serves only the metrics. Pick another port, or leave METRICS_PORT unset and scrape /metrics on PORT with METRICS_TOKEN.`,
    );
  }
  let connections: Connection[];
  let defaultConnection: string;
  if (values.VMS_CONNECTIONS !== undefined) {
    const reading = loadConnections(values.VMS_CONNECTIONS, env, {
      bodyLimitBytes: values.VMS_BODY_LIMIT_BYTES,
      connectionTimeoutMs,
    });
    if ('problems' in reading) {
      throw new ConfigError(reading.problems.join(' '), reading.problems);
    }
    ({ connections, defaultConnection } = reading);
  } else {
    const connection = connectionFromVariables(values);
    connections = [connection];
    defaultConnection = connection.name;
  }
  const chosen = connections.find((connection) => connection.name === defaultConnection);
  if (chosen === undefined) throw new ConfigError(`No connection is named "${defaultConnection}".`);

  return {
    port: values.PORT,
    host: values.HOST,
    connections,
    defaultConnection,
    vmsBaseUrl: chosen.upstream.kind === 'remote' ? chosen.upstream.baseUrl : null,
    apiKey: chosen.apiKey,
    apiSecret: chosen.apiSecret,
    clientOrgIds: chosen.clientOrgIds,
    clientOrgNames: chosen.clientOrgNames,
    vendorOrgId: chosen.vendorOrgId,
    profile: chosen.profile,
    dateFormat: chosen.dateFormat,
    maxBatch: chosen.maxBatch,
    timeoutMs: chosen.timeoutMs,
    lateAnswerMs: chosen.lateAnswerMs,
    bodyLimitBytes: chosen.bodyLimitBytes ?? values.VMS_BODY_LIMIT_BYTES,
    requestTimeoutMs: values.PORTAL_REQUEST_TIMEOUT_MS,
    connectionTimeoutMs,
    drainTimeoutMs: values.PORTAL_DRAIN_TIMEOUT_MS,
    portalDb: values.PORTAL_DB,
    databaseUrl: values.DATABASE_URL,
    journal: {
      enabled: values.JOURNAL === 'on',
      retentionMs: values.JOURNAL_RETENTION_DAYS * 24 * 60 * 60 * 1000,
      maxBytes: values.JOURNAL_MAX_MB * MB,
      bodyLimitBytes: values.JOURNAL_BODY_LIMIT_KB * 1024,
    },
    audit: { retentionMs: values.AUDIT_RETENTION_DAYS * 24 * 60 * 60 * 1000 },
    rateLimitPerMinute: values.PORTAL_RATE_LIMIT_PER_MINUTE,
    auth,
    metrics: { port: metricsPort, token: values.METRICS_TOKEN },
    logLevel: values.LOG_LEVEL,
    sandboxPort: values.SANDBOX_PORT,
    sandboxDb: values.SANDBOX_DB,
    sandboxProcessingDelayMs:
      connections.find(
        (connection): connection is Connection & { upstream: { kind: 'sandbox' } } =>
          connection.upstream.kind === 'sandbox',
      )?.upstream.processingDelayMs ?? values.SANDBOX_PROCESSING_DELAY_MS,
  };
}

/**
 * The shorthand: without VMS_CONNECTIONS the VMS_* variables describe one connection, as they
 * always have, so a deployment that never needed a second VMS changes nothing. It is named
 * `sandbox` when it is the embedded sandbox (VMS_BASE_URL unset) and `default` otherwise; a
 * remote one counts as production unless VMS_PRODUCTION=off says it is a test VMS (UAT).
 */
function connectionFromVariables(values: z.output<typeof portalEnvSchema>): Connection {
  if (values.VMS_CLIENT_ORGS !== undefined && values.VMS_CLIENT_ORG_IDS !== undefined) {
    throw new ConfigError(
      'VMS_CLIENT_ORGS and VMS_CLIENT_ORG_IDS are both set: VMS_CLIENT_ORG_IDS is its earlier name. Keep VMS_CLIENT_ORGS only.',
    );
  }
  const clientOrgs = values.VMS_CLIENT_ORGS ?? values.VMS_CLIENT_ORG_IDS;
  const remote = values.VMS_BASE_URL ?? null;
  if (remote !== null) {
    const given = { ...values, VMS_CLIENT_ORGS: clientOrgs };
    const problems = requiredForRemote
      .filter(([name]) => given[name] === undefined)
      .map(([name, how]) => `${name} is required when VMS_BASE_URL is set: ${how}`);
    if (problems.length > 0) throw new ConfigError(problems.join(' '), problems);
  }
  const timeoutMs = values.VMS_TIMEOUT_MS;
  const lateAnswerMs = values.VMS_LATE_ANSWER_MS ?? defaultLateAnswerMs(timeoutMs);
  if (lateAnswerMs < timeoutMs) {
    throw new ConfigError(
      `VMS_LATE_ANSWER_MS (${lateAnswerMs}) must not be shorter than VMS_TIMEOUT_MS (${timeoutMs}): it is how long the portal keeps waiting for a batch's answer after telling the browser it is late.`,
    );
  }
  const connectionTimeoutMs = values.PORTAL_CONNECTION_TIMEOUT_MS;
  if (connectionTimeoutMs <= timeoutMs) {
    throw new ConfigError(
      `PORTAL_CONNECTION_TIMEOUT_MS (${connectionTimeoutMs}) must be longer than VMS_TIMEOUT_MS (${timeoutMs}): a browser's connection is silent while the portal waits for the VMS.`,
    );
  }
  // The embedded sandbox speaks the connection's profile, and the portal signs and reads by it:
  // SANDBOX_PROFILE (npm run sandbox's name for it) is that profile when VMS_PROFILE is unset.
  const sandboxProfile = remote === null ? values.SANDBOX_PROFILE : undefined;
  if (
    sandboxProfile !== undefined &&
    values.VMS_PROFILE !== undefined &&
    sandboxProfile !== values.VMS_PROFILE
  ) {
    throw new ConfigError(
      `VMS_PROFILE (${values.VMS_PROFILE}) and SANDBOX_PROFILE (${sandboxProfile}) differ: the embedded sandbox answers in the profile the portal speaks. Keep one of them.`,
    );
  }
  const profileName = values.VMS_PROFILE === undefined ? 'SANDBOX_PROFILE' : 'VMS_PROFILE';
  const profileSetting = values.VMS_PROFILE ?? sandboxProfile;
  const profile = profileFromSetting(profileName, profileSetting, values.VMS_DATE_FORMAT);
  if ('problem' in profile) throw new ConfigError(profile.problem);

  return {
    name: remote ? 'default' : 'sandbox',
    label: remote ? new URL(remote).host : 'Sandbox',
    production: remote !== null && values.VMS_PRODUCTION !== 'off',
    upstream: remote
      ? { kind: 'remote', baseUrl: remote }
      : {
          kind: 'sandbox',
          processingDelayMs: values.SANDBOX_PROCESSING_DELAY_MS,
          clockSkewMs: values.SANDBOX_CLOCK_SKEW_MS,
          blankMaximumBillRate: values.SANDBOX_BLANK_MAXIMUM_BILL_RATE,
          profileSetting: profileSetting ?? null,
        },
    // Against the sandbox the demo identity always applies: the sandbox knows no other key.
    apiKey: remote ? (values.VMS_API_KEY ?? '') : sandboxDemo.apiKey,
    apiSecret: remote ? (values.VMS_API_SECRET ?? '') : sandboxDemo.apiSecret,
    apiKeyEnv: remote ? 'VMS_API_KEY' : null,
    apiSecretEnv: remote ? 'VMS_API_SECRET' : null,
    clientOrgIds: clientOrgs?.map((org) => org.id) ?? [...sandboxDemo.clientOrgIds],
    // Names given in the setting; against the sandbox, the sandbox's own for those not given.
    clientOrgNames: Object.fromEntries(
      (clientOrgs ?? sandboxDemo.clientOrgIds.map((id) => ({ id, name: null }))).flatMap(
        (org): [string, string][] => {
          const fallback = remote
            ? null
            : ((sandboxDemo.clientOrgNames as Record<number, string>)[org.id] ?? null);
          const name = org.name ?? fallback;
          return name === null ? [] : [[String(org.id), name]];
        },
      ),
    ),
    vendorOrgId: values.VMS_VENDOR_ORG_ID ?? sandboxDemo.vendorOrgId,
    profile: profile.profile,
    dateFormat: profile.profile.dates.outbound,
    maxBatch: values.VMS_MAX_BATCH,
    timeoutMs,
    lateAnswerMs,
  };
}

/**
 * Whether sign-in is required, and the sessions' limits. Others can reach a portal that listens
 * beyond loopback or sits behind a reverse proxy, so there AUTH=off is refused rather than obeyed.
 */
function authSettings(values: z.output<typeof portalEnvSchema>): AuthSettings {
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

/** True for addresses only this machine can reach. */
export function isLoopbackHost(host: string): boolean {
  const bare = host.replace(/^\[|\]$/g, '').toLowerCase();
  if (bare === 'localhost' || bare.endsWith('.localhost')) return true;
  if (isIP(bare) === 4) return bare.startsWith('127.');
  return bare === '::1' || bare === '0:0:0:0:0:0:0:1';
}

/** How the upstream is shown to people: `sandbox`, or the remote VMS's host name. */
export function upstreamLabel(config: PortalConfig): { kind: 'sandbox' | 'remote'; label: string } {
  return config.vmsBaseUrl === null
    ? { kind: 'sandbox', label: 'sandbox' }
    : { kind: 'remote', label: new URL(config.vmsBaseUrl).host };
}

/**
 * A connection's VMS as the browser names it: the sandbox, or the connection's label (its address
 * stays on the server; the shorthand connection's label is its host).
 */
export function connectionUpstreamLabel(connection: Connection): {
  kind: 'sandbox' | 'remote';
  label: string;
} {
  return connection.upstream.kind === 'sandbox'
    ? { kind: 'sandbox', label: 'sandbox' }
    : { kind: 'remote', label: connection.label };
}
