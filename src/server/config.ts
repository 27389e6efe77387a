import { isIP } from 'node:net';
import { z } from 'zod';
import type { DateFormat } from '../domain/catalog-types';
import {
  oneOf,
  settingsProblem,
  withDefault,
  sharedSettings,
  unsetWhenBlank,
  wholeNumber,
} from '../domain/settings';
import { sandboxDemo } from '../sandbox/index';

/**
 * The portal server's settings, read from the environment (and `.env`, which main.ts loads) and
 * validated once at start-up. docs/configuration.md documents each one; keep the two in step.
 */
export interface PortalConfig {
  port: number;
  host: string;
  /** The upstream VMS, always ending in `/`; null → start the embedded sandbox and use it. */
  vmsBaseUrl: string | null;
  apiKey: string;
  apiSecret: string;
  clientOrgIds: number[];
  /** Names of the client orgs, by id, where known (VMS_CLIENT_ORGS, or the sandbox's). */
  clientOrgNames: Record<string, string>;
  vendorOrgId: number;
  dateFormat: DateFormat;
  maxBatch: number;
  timeoutMs: number;
  /**
   * How long a keyed POST's upstream call is kept open after the browser got its 504, so that a
   * late answer still settles the Idempotency-Key (decision 002).
   */
  lateAnswerMs: number;
  bodyLimitBytes: number;
  /** Most time a client may take to send a whole request (headers and body). */
  requestTimeoutMs: number;
  /** Most time a connection may stay silent before the server closes it. */
  connectionTimeoutMs: number;
  /** The portal's own database (idempotency keys, call journal): an SQLite file, or `:memory:`. */
  portalDb: string;
  /** The call journal (decision 025): every call through the proxy, kept for QA's inspector. */
  journal: JournalSettings;
  /** Requests per minute per client address on /api/vms; 0 turns the limit off. */
  rateLimitPerMinute: number;
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

export const logLevels = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof logLevels)[number];

/** A setting that is missing or malformed; the message is one line that names the variable. */
export class ConfigError extends Error {
  override name = 'ConfigError';
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

export const portalEnvSchema = z.object({
  PORT: withDefault(wholeNumber('PORT', 0, 65535, '8787'), 8787),
  HOST: withDefault(optional, '127.0.0.1'),
  VMS_BASE_URL: baseUrl,
  VMS_API_KEY: optional,
  VMS_API_SECRET: optional,
  VMS_CLIENT_ORGS: clientOrgList('VMS_CLIENT_ORGS'),
  /** The earlier name of VMS_CLIENT_ORGS, still read. */
  VMS_CLIENT_ORG_IDS: clientOrgList('VMS_CLIENT_ORG_IDS'),
  VMS_VENDOR_ORG_ID: wholeNumber('VMS_VENDOR_ORG_ID', 1, Number.MAX_SAFE_INTEGER, '9001'),
  ...sharedSettings,
  VMS_TIMEOUT_MS: withDefault(wholeNumber('VMS_TIMEOUT_MS', 1, 600_000, '30000'), 30_000),
  VMS_LATE_ANSWER_MS: wholeNumber('VMS_LATE_ANSWER_MS', 1, 24 * 60 * 60 * 1000, '600000'),
  VMS_BODY_LIMIT_BYTES: withDefault(
    wholeNumber('VMS_BODY_LIMIT_BYTES', 1024, 1024 * MB, String(5 * MB)),
    5 * MB,
  ),
  PORTAL_RATE_LIMIT_PER_MINUTE: withDefault(
    wholeNumber('PORTAL_RATE_LIMIT_PER_MINUTE', 0, 1_000_000, '600'),
    600,
  ),
  PORTAL_REQUEST_TIMEOUT_MS: withDefault(
    wholeNumber('PORTAL_REQUEST_TIMEOUT_MS', 1000, 3_600_000, '60000'),
    60_000,
  ),
  PORTAL_CONNECTION_TIMEOUT_MS: withDefault(
    wholeNumber('PORTAL_CONNECTION_TIMEOUT_MS', 1000, 3_600_000, '120000'),
    120_000,
  ),
  PORTAL_DB: withDefault(optional, './data/portal.db'),
  JOURNAL: withDefault(oneOf('JOURNAL', ['on', 'off']), 'on'),
  JOURNAL_RETENTION_DAYS: withDefault(wholeNumber('JOURNAL_RETENTION_DAYS', 1, 3650, '30'), 30),
  JOURNAL_MAX_MB: withDefault(wholeNumber('JOURNAL_MAX_MB', 1, 1_000_000, '500'), 500),
  JOURNAL_BODY_LIMIT_KB: withDefault(
    wholeNumber('JOURNAL_BODY_LIMIT_KB', 1, 1024 * 1024, '256'),
    256,
  ),
  LOG_LEVEL: withDefault(oneOf('LOG_LEVEL', logLevels), 'info'),
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
    if (problems.length > 0) throw new ConfigError(problems.join(' '));
  }
  const timeoutMs = values.VMS_TIMEOUT_MS;
  const lateAnswerMs = values.VMS_LATE_ANSWER_MS ?? Math.max(600_000, timeoutMs);
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

  return {
    port: values.PORT,
    host: values.HOST,
    vmsBaseUrl: remote,
    // Against the sandbox the demo identity always applies: the sandbox knows no other key.
    apiKey: remote ? (values.VMS_API_KEY ?? '') : sandboxDemo.apiKey,
    apiSecret: remote ? (values.VMS_API_SECRET ?? '') : sandboxDemo.apiSecret,
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
    dateFormat: values.VMS_DATE_FORMAT,
    maxBatch: values.VMS_MAX_BATCH,
    timeoutMs,
    lateAnswerMs,
    bodyLimitBytes: values.VMS_BODY_LIMIT_BYTES,
    requestTimeoutMs: values.PORTAL_REQUEST_TIMEOUT_MS,
    connectionTimeoutMs,
    portalDb: values.PORTAL_DB,
    journal: {
      enabled: values.JOURNAL === 'on',
      retentionMs: values.JOURNAL_RETENTION_DAYS * 24 * 60 * 60 * 1000,
      maxBytes: values.JOURNAL_MAX_MB * MB,
      bodyLimitBytes: values.JOURNAL_BODY_LIMIT_KB * 1024,
    },
    rateLimitPerMinute: values.PORTAL_RATE_LIMIT_PER_MINUTE,
    logLevel: values.LOG_LEVEL,
    sandboxPort: values.SANDBOX_PORT,
    sandboxDb: values.SANDBOX_DB,
    sandboxProcessingDelayMs: values.SANDBOX_PROCESSING_DELAY_MS,
  };
}

/** True for addresses only this machine can reach (the portal has no login yet). */
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
