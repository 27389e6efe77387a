import type { z } from 'zod';
import { settingsProblem } from '@/domain/settings';
import { profileFromSetting } from '@/node/profile-setting';
import { sandboxDemo } from '@/sandbox/index';
import { authSettings, type AuthSettings } from './config-auth';
import { ConfigError, MB, portalEnvSchema, type LogLevel } from './config-env';
import { defaultLateAnswerMs, loadConnections, type Connection } from './connections/connections';
import { parseMailSettings, type MailSettings } from './mail/mail-settings';
import type { AllowedHosts } from './webhooks/webhook-address';

export type { Connection } from './connections/connections';
export type { AuthSettings, SsoSettings } from './config-auth';
export { ConfigError, isLoopbackHost, portalEnvSchema, type LogLevel } from './config-env';

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
  /** The server's watch of accepted batches until they settle (decision 050). */
  watch: WatchSettings;
  /** How long the stores that hold candidates' data keep it (decision 060). */
  retention: RetentionSettings;
  /** Requests per minute per client address on /api/vms; 0 turns the limit off. */
  rateLimitPerMinute: number;
  /** Sign-in and sessions (decision 026). */
  auth: AuthSettings;
  /** Prometheus metrics (decision 034): where they are served, if anywhere. */
  metrics: MetricsSettings;
  /** Where notifications may go: e-mail's server (decision 052), the webhooks' allowed hosts (051). */
  notifications: NotificationSettings;
  logLevel: LogLevel;
  sandboxPort: number;
  sandboxDb: string;
  /** The embedded sandbox's pause before each batch item. */
  sandboxProcessingDelayMs: number;
}

export interface WatchSettings {
  /** WATCH=off watches nothing: batches are read only when someone asks (decision 050). */
  enabled: boolean;
  /** A batch still pending this long after it was accepted is given up (WATCH_GIVE_UP_HOURS). */
  giveUpMs: number;
  /** Most results calls in flight at once per connection, per process (WATCH_CONCURRENCY). */
  concurrency: number;
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

export interface NotificationSettings {
  /** SMTP_URL, SMTP_PASSWORD and MAIL_FROM read; null: no e-mail. */
  mail: MailSettings | null;
  /** WEBHOOK_ALLOW_HOSTS: hosts a webhook may reach though not public. */
  webhookAllowHosts: AllowedHosts;
}

/**
 * Each store's retention (decision 060): rows last touched longer ago than this are pruned; null
 * (a setting of 0) keeps them for ever.
 */
export interface RetentionSettings {
  /** Kept results of batches the watch is done with (RESULTS_RETENTION_DAYS). */
  resultsMs: number | null;
  /** Drafts and tray items synced to the server, untouched this long (DRAFT_RETENTION_DAYS). */
  draftsMs: number | null;
  /** Suite runs that ended this long ago (SUITE_RUN_RETENTION_DAYS). */
  suiteRunsMs: number | null;
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
  const mail = parseMailSettings(values);
  if (mail !== null && 'problem' in mail) throw new ConfigError(mail.problem);
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
    retention: {
      resultsMs: daysOrForever(values.RESULTS_RETENTION_DAYS),
      draftsMs: daysOrForever(values.DRAFT_RETENTION_DAYS),
      suiteRunsMs: daysOrForever(values.SUITE_RUN_RETENTION_DAYS),
    },
    watch: {
      enabled: values.WATCH === 'on',
      giveUpMs: values.WATCH_GIVE_UP_HOURS * 60 * 60 * 1000,
      concurrency: values.WATCH_CONCURRENCY,
    },
    rateLimitPerMinute: values.PORTAL_RATE_LIMIT_PER_MINUTE,
    auth,
    metrics: { port: metricsPort, token: values.METRICS_TOKEN },
    notifications: { mail, webhookAllowHosts: values.WEBHOOK_ALLOW_HOSTS },
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

/** A retention setting in days as milliseconds; 0 keeps for ever (null). */
function daysOrForever(days: number): number | null {
  return days === 0 ? null : days * 24 * 60 * 60 * 1000;
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
