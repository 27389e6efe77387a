import { isIP } from 'node:net';
import { z } from 'zod';
import { dateFormats, type DateFormat } from '../domain/catalog-types';
import { sandboxDemo } from '../sandbox/demo';

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
  vendorOrgId: number;
  dateFormat: DateFormat;
  maxBatch: number;
  timeoutMs: number;
  bodyLimitBytes: number;
  /** Requests per minute per client address on /api/vms; 0 turns the limit off. */
  rateLimitPerMinute: number;
  logLevel: LogLevel;
  sandboxPort: number;
  sandboxDb: string;
}

export const logLevels = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof logLevels)[number];

/** A setting that is missing or malformed; the message is one line that names the variable. */
export class ConfigError extends Error {
  override name = 'ConfigError';
}

const MB = 1024 * 1024;

/** `VAR=` in a .env file means "not set", as it does for most tools that read one. */
const optional = z
  .string()
  .optional()
  .transform((value) => (value === undefined || value.trim() === '' ? undefined : value.trim()));

function wholeNumber(name: string, min: number, max: number, example: string) {
  return optional.transform((value, ctx) => {
    if (value === undefined) return undefined;
    const parsed = /^\d+$/.test(value) ? Number(value) : Number.NaN;
    if (!Number.isSafeInteger(parsed) || parsed < min || parsed > max) {
      ctx.addIssue({
        code: 'custom',
        message: `${name} must be a whole number from ${min} to ${max} (for example ${example}); got "${value}".`,
      });
      return z.NEVER;
    }
    return parsed;
  });
}

const orgIdList = optional.transform((value, ctx) => {
  if (value === undefined) return undefined;
  const parts = value.split(',').map((part) => part.trim());
  const bad = parts.find((part) => !/^[1-9]\d{0,15}$/.test(part));
  if (bad !== undefined) {
    ctx.addIssue({
      code: 'custom',
      message: `VMS_CLIENT_ORG_IDS must be a comma-separated list of org ids such as "1001,1002"; "${bad}" is not an org id.`,
    });
    return z.NEVER;
  }
  return [...new Set(parts.map(Number))];
});

const baseUrl = optional.transform((value, ctx) => {
  if (value === undefined) return undefined;
  const url = URL.canParse(value) ? new URL(value) : null;
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

function oneOf<const T extends readonly [string, ...string[]]>(name: string, values: T) {
  return optional.pipe(
    z
      .enum(values, {
        error: (issue) =>
          `${name} must be one of ${values.join(', ')}; got "${String(issue.input)}".`,
      })
      .optional(),
  );
}

const envSchema = z.object({
  PORT: wholeNumber('PORT', 0, 65535, '8787'),
  HOST: optional,
  VMS_BASE_URL: baseUrl,
  VMS_API_KEY: optional,
  VMS_API_SECRET: optional,
  VMS_CLIENT_ORG_IDS: orgIdList,
  VMS_VENDOR_ORG_ID: wholeNumber('VMS_VENDOR_ORG_ID', 1, Number.MAX_SAFE_INTEGER, '9001'),
  VMS_DATE_FORMAT: oneOf('VMS_DATE_FORMAT', dateFormats),
  VMS_MAX_BATCH: wholeNumber('VMS_MAX_BATCH', 1, 100_000, '500'),
  VMS_TIMEOUT_MS: wholeNumber('VMS_TIMEOUT_MS', 1, 600_000, '30000'),
  VMS_BODY_LIMIT_BYTES: wholeNumber('VMS_BODY_LIMIT_BYTES', 1024, 1024 * MB, String(5 * MB)),
  PORTAL_RATE_LIMIT_PER_MINUTE: wholeNumber('PORTAL_RATE_LIMIT_PER_MINUTE', 0, 1_000_000, '600'),
  LOG_LEVEL: oneOf('LOG_LEVEL', logLevels),
  SANDBOX_PORT: wholeNumber('SANDBOX_PORT', 0, 65535, '8788'),
  SANDBOX_DB: optional,
});

/** What a remote VMS needs that the sandbox supplies itself, and how to find each one. */
const requiredForRemote = [
  ['VMS_API_KEY', 'copy the API key from your VMS account page.'],
  ['VMS_API_SECRET', 'copy the API secret from your VMS account page.'],
  ['VMS_CLIENT_ORG_IDS', 'list the client org ids this portal may act for, such as "1001,1002".'],
  ['VMS_VENDOR_ORG_ID', 'give your vendor org id, such as 9001.'],
] as const;

/**
 * Validates the environment. Throws a ConfigError whose one-line message names every variable
 * that is missing or malformed, so the operator can fix them all at once.
 */
export function loadConfig(env: NodeJS.ProcessEnv): PortalConfig {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    throw new ConfigError(parsed.error.issues.map((issue) => issue.message).join(' '));
  }
  const values = parsed.data;
  const remote = values.VMS_BASE_URL ?? null;
  if (remote !== null) {
    const problems = requiredForRemote
      .filter(([name]) => values[name] === undefined)
      .map(([name, how]) => `${name} is required when VMS_BASE_URL is set: ${how}`);
    if (problems.length > 0) throw new ConfigError(problems.join(' '));
  }

  return {
    port: values.PORT ?? 8787,
    host: values.HOST ?? '127.0.0.1',
    vmsBaseUrl: remote,
    // Against the sandbox the demo identity always applies: the sandbox knows no other key.
    apiKey: remote ? (values.VMS_API_KEY ?? '') : sandboxDemo.apiKey,
    apiSecret: remote ? (values.VMS_API_SECRET ?? '') : sandboxDemo.apiSecret,
    clientOrgIds: values.VMS_CLIENT_ORG_IDS ?? [...sandboxDemo.clientOrgIds],
    vendorOrgId: values.VMS_VENDOR_ORG_ID ?? sandboxDemo.vendorOrgId,
    dateFormat: values.VMS_DATE_FORMAT ?? 'YYYY-MM-DD',
    maxBatch: values.VMS_MAX_BATCH ?? 500,
    timeoutMs: values.VMS_TIMEOUT_MS ?? 30_000,
    bodyLimitBytes: values.VMS_BODY_LIMIT_BYTES ?? 5 * MB,
    rateLimitPerMinute: values.PORTAL_RATE_LIMIT_PER_MINUTE ?? 600,
    logLevel: values.LOG_LEVEL ?? 'info',
    sandboxPort: values.SANDBOX_PORT ?? 8788,
    sandboxDb: values.SANDBOX_DB ?? './data/sandbox.db',
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
