import { dirname, resolve } from 'node:path';
import type { DateFormat } from '@/domain/catalog-types';
import {
  looksLikeCredential,
  normalizedBaseUrl,
  readConnectionsFile,
  type ConnectionEntry,
} from '@/domain/connections-file';
import { settingDefaults } from '@/domain/settings';
import {
  profilePresetNames,
  profilePresets,
  readProfile,
  type VmsProfile,
} from '@/domain/vms-profile';
import { sandboxDemo, type SandboxRules } from '@/sandbox/index';
import { readJson } from './json-file';

/**
 * Where a connection's calls go: the embedded sandbox the portal starts, with the rules its
 * settings choose (and its profile setting as given, for the start line), or a VMS over HTTP(S).
 */
export type ConnectionUpstream =
  | ({ kind: 'sandbox'; profileSetting: string | null } & SandboxRules)
  | { kind: 'remote'; baseUrl: string };

/**
 * One VMS the portal can talk to, with everything the proxy needs to sign and send to it. Built
 * from the connections file (VMS_CONNECTIONS) or, without one, from the VMS_* variables as the
 * single connection they have always described.
 */
export interface Connection {
  /** A lowercase slug, unique in the deployment: used in URLs, logs and messages. */
  name: string;
  /** What people see. */
  label: string;
  /** Calls reach real people. */
  production: boolean;
  upstream: ConnectionUpstream;
  /** Resolved from the environment (the sandbox's demo pair for the sandbox); never logged. */
  apiKey: string;
  apiSecret: string;
  /** The variables the key and secret were read from, to name in a message; null for the sandbox. */
  apiKeyEnv: string | null;
  apiSecretEnv: string | null;
  clientOrgIds: number[];
  /** Names of the client orgs, by id, where known. */
  clientOrgNames: Record<string, string>;
  vendorOrgId: number;
  profile: VmsProfile;
  /** Outbound DATE format: the profile's. */
  dateFormat: DateFormat;
  maxBatch: number;
  timeoutMs: number;
  /**
   * How long a keyed POST's upstream call is kept open after the browser got its 504, so that a
   * late answer still settles the Idempotency-Key (decision 002).
   */
  lateAnswerMs: number;
  /** A limit on request bodies lower than the portal-wide VMS_BODY_LIMIT_BYTES, when it has one. */
  bodyLimitBytes?: number;
}

/** The defaults a connection's limits take when not given: those of the VMS_* variables. */
export const connectionDefaults = {
  maxBatch: settingDefaults.maxBatch,
  timeoutMs: 30_000,
  /** The late-answer wait is at least this, and never shorter than the timeout. */
  lateAnswerFloorMs: 600_000,
} as const;

export const defaultLateAnswerMs = (timeoutMs: number) =>
  Math.max(connectionDefaults.lateAnswerFloorMs, timeoutMs);

/**
 * The variables that describe the one connection of the shorthand, with where each goes in a
 * connections file: with VMS_CONNECTIONS they would be a second, silent source of the same thing.
 */
export const perConnectionVariables = [
  ['VMS_BASE_URL', 'a connection\'s "baseUrl"'],
  ['VMS_API_KEY', 'an environment variable a connection names with "apiKeyEnv"'],
  ['VMS_API_SECRET', 'an environment variable a connection names with "apiSecretEnv"'],
  ['VMS_CLIENT_ORGS', 'a connection\'s "clientOrgs"'],
  ['VMS_CLIENT_ORG_IDS', 'a connection\'s "clientOrgs"'],
  ['VMS_VENDOR_ORG_ID', 'a connection\'s "vendorOrgId"'],
  ['VMS_PROFILE', 'a connection\'s "profile"'],
  ['VMS_PRODUCTION', 'a connection\'s "production"'],
  ['VMS_DATE_FORMAT', 'a connection\'s "dateFormat"'],
  ['VMS_MAX_BATCH', 'a connection\'s "limits.maxBatch"'],
  ['VMS_TIMEOUT_MS', 'a connection\'s "limits.timeoutMs"'],
  ['VMS_LATE_ANSWER_MS', 'a connection\'s "limits.lateAnswerMs"'],
  ['SANDBOX_PROCESSING_DELAY_MS', 'the sandbox connection\'s "processingDelayMs"'],
  ['SANDBOX_PROFILE', 'the sandbox connection\'s "profile"'],
  ['SANDBOX_CLOCK_SKEW_MS', 'the sandbox connection\'s "clockSkewMs"'],
  ['SANDBOX_BLANK_MAXIMUM_BILL_RATE', 'the sandbox connection\'s "blankMaximumBillRate"'],
] as const;

/** The portal-wide settings a connection's limits must fit inside. */
export interface PortalLimits {
  /** VMS_BODY_LIMIT_BYTES: the largest body the server reads at all. */
  bodyLimitBytes: number;
  /** PORTAL_CONNECTION_TIMEOUT_MS: a browser's connection is silent while the VMS is awaited. */
  connectionTimeoutMs: number;
}

export type ConnectionsReading =
  { connections: Connection[]; defaultConnection: string } | { problems: string[] };

const isSet = (value: string | undefined) => value !== undefined && value.trim() !== '';

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The `apiKeyEnv`/`apiSecretEnv` names in the file as written, valid or not. */
function referencedVariables(json: unknown): Set<string> {
  const names = new Set<string>();
  const connections = isPlainObject(json) ? json.connections : undefined;
  for (const entry of Array.isArray(connections) ? connections : []) {
    if (!isPlainObject(entry)) continue;
    for (const key of ['apiKeyEnv', 'apiSecretEnv']) {
      const name = entry[key];
      if (typeof name === 'string') names.add(name);
    }
  }
  return names;
}

function profileOf(
  entry: ConnectionEntry,
  directory: string,
): { profile: VmsProfile } | { problems: string[] } {
  const dateFormat = entry.dateFormat ?? settingDefaults.dateFormat;
  const presets = Object.fromEntries(
    profilePresetNames.map((preset) => [preset, () => profilePresets[preset](dateFormat)]),
  );
  const setting = entry.profile ?? 'sandbox';
  if (typeof setting === 'string' && !(setting in presets)) {
    // A path is relative to the connections file, so the file and its profiles move together.
    const read = readJson(resolve(directory, setting));
    if ('problem' in read) return { problems: [`profile (${setting}) ${read.problem}`] };
    const reading = readProfile(read.json, presets);
    return 'profile' in reading
      ? reading
      : { problems: reading.problems.map((line) => `profile (${setting}): ${line}`) };
  }
  const reading = readProfile(setting, presets);
  return 'profile' in reading
    ? reading
    : { problems: reading.problems.map((line) => `profile: ${line}`) };
}

/** A referenced variable's value, or the line saying it is not set. */
function fromEnvironment(
  env: NodeJS.ProcessEnv,
  reference: 'apiKeyEnv' | 'apiSecretEnv',
  name: string,
): { value: string } | { problem: string } {
  const value = env[name];
  if (value !== undefined && isSet(value)) return { value: value.trim() };
  const what = reference === 'apiKeyEnv' ? 'API key' : 'API secret';
  // A credential pasted where its variable's name belongs is most likely no variable at all;
  // it is not repeated in the message, which ends up in logs.
  if (looksLikeCredential(name) && !name.includes('_')) {
    return {
      problem: `${reference} names a variable that is not set, and the name looks like the ${what} itself (not repeated here): ${reference} takes the name of the variable that holds the ${what}, such as UAT_VMS_API_${reference === 'apiKeyEnv' ? 'KEY' : 'SECRET'}`,
    };
  }
  return {
    problem: `${reference} names ${name}, which is not set: set ${name} to this connection's ${what} (in the environment or .env)`,
  };
}

function limitsOf(
  entry: ConnectionEntry,
  portal: PortalLimits,
):
  | { limits: Pick<Connection, 'maxBatch' | 'timeoutMs' | 'lateAnswerMs' | 'bodyLimitBytes'> }
  | { problems: string[] } {
  const given = entry.limits ?? {};
  const timeoutMs = given.timeoutMs ?? connectionDefaults.timeoutMs;
  const lateAnswerMs = given.lateAnswerMs ?? defaultLateAnswerMs(timeoutMs);
  const problems: string[] = [];
  if (lateAnswerMs < timeoutMs) {
    problems.push(
      `limits.lateAnswerMs (${lateAnswerMs}) must not be shorter than limits.timeoutMs (${timeoutMs}): it is how long the portal keeps waiting for a batch's answer after telling the browser it is late`,
    );
  }
  if (timeoutMs >= portal.connectionTimeoutMs) {
    problems.push(
      `limits.timeoutMs (${timeoutMs}) must be shorter than PORTAL_CONNECTION_TIMEOUT_MS (${portal.connectionTimeoutMs}): a browser's connection is silent while the portal waits for the VMS; raise PORTAL_CONNECTION_TIMEOUT_MS or lower the timeout`,
    );
  }
  if (given.bodyLimitBytes !== undefined && given.bodyLimitBytes > portal.bodyLimitBytes) {
    problems.push(
      `limits.bodyLimitBytes (${given.bodyLimitBytes}) must not be more than VMS_BODY_LIMIT_BYTES (${portal.bodyLimitBytes}), the largest body the portal reads for any connection: raise VMS_BODY_LIMIT_BYTES or lower this`,
    );
  }
  if (problems.length > 0) return { problems };
  return {
    limits: {
      maxBatch: given.maxBatch ?? connectionDefaults.maxBatch,
      timeoutMs,
      lateAnswerMs,
      ...(given.bodyLimitBytes !== undefined ? { bodyLimitBytes: given.bodyLimitBytes } : {}),
    },
  };
}

function connectionOf(
  entry: ConnectionEntry,
  env: NodeJS.ProcessEnv,
  directory: string,
  portal: PortalLimits,
): { connection: Connection } | { problems: string[] } {
  const problems: string[] = [];
  const profile = profileOf(entry, directory);
  if ('problems' in profile) problems.push(...profile.problems);
  const limits = limitsOf(entry, portal);
  if ('problems' in limits) problems.push(...limits.problems);
  let identity: Pick<
    Connection,
    | 'upstream'
    | 'apiKey'
    | 'apiSecret'
    | 'apiKeyEnv'
    | 'apiSecretEnv'
    | 'clientOrgIds'
    | 'clientOrgNames'
    | 'vendorOrgId'
    | 'production'
  > | null = null;
  if (entry.sandbox === true) {
    // The sandbox knows only its demo key and orgs, so those are its identity.
    identity = {
      upstream: {
        kind: 'sandbox',
        processingDelayMs: entry.processingDelayMs ?? settingDefaults.processingDelayMs,
        clockSkewMs: entry.clockSkewMs ?? settingDefaults.clockSkewMs,
        blankMaximumBillRate: entry.blankMaximumBillRate ?? settingDefaults.blankMaximumBillRate,
        profileSetting:
          entry.profile === undefined
            ? null
            : typeof entry.profile === 'string'
              ? entry.profile
              : `${entry.profile.preset ?? 'sandbox'}, changed`,
      },
      apiKey: sandboxDemo.apiKey,
      apiSecret: sandboxDemo.apiSecret,
      apiKeyEnv: null,
      apiSecretEnv: null,
      clientOrgIds: [...sandboxDemo.clientOrgIds],
      clientOrgNames: Object.fromEntries(
        Object.entries(sandboxDemo.clientOrgNames).map(([id, name]) => [String(id), name]),
      ),
      vendorOrgId: sandboxDemo.vendorOrgId,
      production: false,
    };
  } else {
    const key = fromEnvironment(env, 'apiKeyEnv', entry.apiKeyEnv);
    const secret = fromEnvironment(env, 'apiSecretEnv', entry.apiSecretEnv);
    if ('problem' in key) problems.push(key.problem);
    if ('problem' in secret) problems.push(secret.problem);
    if ('value' in key && 'value' in secret) {
      identity = {
        upstream: { kind: 'remote', baseUrl: normalizedBaseUrl(entry.baseUrl) },
        apiKey: key.value,
        apiSecret: secret.value,
        apiKeyEnv: entry.apiKeyEnv,
        apiSecretEnv: entry.apiSecretEnv,
        clientOrgIds: entry.clientOrgs.map((org) => org.id),
        clientOrgNames: Object.fromEntries(
          entry.clientOrgs.flatMap((org): [string, string][] =>
            org.name === undefined ? [] : [[String(org.id), org.name]],
          ),
        ),
        vendorOrgId: entry.vendorOrgId,
        production: entry.production,
      };
    }
  }
  if (problems.length > 0 || identity === null || 'problems' in profile || 'problems' in limits) {
    return { problems };
  }
  return {
    connection: {
      name: entry.name,
      label: entry.label ?? entry.name,
      ...identity,
      profile: profile.profile,
      dateFormat: profile.profile.dates.outbound,
      ...limits.limits,
    },
  };
}

/**
 * Reads VMS_CONNECTIONS: the file at `setting` (relative to the working directory), its
 * connections with their keys and secrets taken from the variables they name, their profiles
 * (relative paths from the file's own directory). Returns every problem at once, each one line
 * starting with the setting and the file, or the connections and the default's name.
 */
export function loadConnections(
  setting: string,
  env: NodeJS.ProcessEnv,
  portal: PortalLimits,
): ConnectionsReading {
  const prefix = `VMS_CONNECTIONS (${setting}): `;
  const path = resolve(setting);
  const read = readJson(path);
  const referenced = 'json' in read ? referencedVariables(read.json) : new Set<string>();
  const conflicts = perConnectionVariables
    .filter(([name]) => isSet(env[name]) && !referenced.has(name))
    .map(
      ([name, where]) =>
        `VMS_CONNECTIONS and ${name} are both set: with a connections file, every connection's settings are in the file. Keep VMS_CONNECTIONS and move ${name} into ${where} (then unset ${name}), or unset VMS_CONNECTIONS to keep the one VMS the VMS_* variables describe.`,
    );
  if ('problem' in read) return { problems: [...conflicts, `${prefix}${read.problem}.`] };

  const reading = readConnectionsFile(read.json);
  if ('problems' in reading) {
    return { problems: [...conflicts, ...reading.problems.map((line) => `${prefix}${line}.`)] };
  }
  const problems = [...conflicts];
  const connections: Connection[] = [];
  for (const entry of reading.file.connections) {
    const built = connectionOf(entry, env, dirname(path), portal);
    if ('problems' in built) {
      problems.push(
        ...built.problems.map((line) => `${prefix}connection "${entry.name}": ${line}.`),
      );
    } else connections.push(built.connection);
  }
  if (problems.length > 0) return { problems };
  return { connections, defaultConnection: reading.file.default };
}
